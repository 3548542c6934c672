import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import {
  MONITORING,
  alertingRules,
  dashboard,
  dashboardExpressions,
  dashboardPanels,
  fasterRules,
  metricNames,
  requireProgram,
  rulesFileText,
} from '../support/prometheus';

/**
 * The alerts, dashboard and ServiceMonitor of deploy/monitoring, read as promtool and Prometheus
 * read them: `promtool check rules` on the rules of the PrometheusRule, `promtool test rules` on
 * the rule unit tests of deploy/monitoring/tests (each alert fires on its failure's series and
 * stays quiet on a healthy one), and each alert's runbook is a section of docs/runbooks.md. That the service exports
 * every metric they read, and that a real Prometheus fires the IdP alert, is
 * monitoring-prometheus.spec.ts.
 */
const ROOT = path.resolve(__dirname, '../..');
const TESTS = path.join(MONITORING, 'tests');
const RUNBOOKS = path.join(ROOT, 'docs/runbooks.md');
const rules = alertingRules();

/** GitHub's anchors of the headings of a markdown text (lower case, punctuation dropped). */
function headingAnchors(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) =>
      (m[1] ?? '')
        .replace(/`/g, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    ),
  );
}

/** Runs promtool in `cwd`; its report is the failure message when it does not exit 0. */
function promtool(args: string[], cwd: string): { status: number | null; output: string } {
  requireProgram('promtool');
  const run = spawnSync('promtool', args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

interface RuleTestFile {
  rule_files: string[];
  tests: {
    alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[];
  }[];
}
const testFiles = readdirSync(TESTS).filter((f) => /\.ya?ml$/.test(f));

describe('deploy/monitoring: the PrometheusRule', () => {
  let dir: string;
  beforeAll(() => {
    // The rules file the tests name, written from the PrometheusRule (one source), beside copies of
    // the tests, so that their relative rule_files resolve.
    dir = mkdtempSync(path.join(os.tmpdir(), 'monitoring-rules-'));
    writeFileSync(path.join(dir, 'prometheus-rules.yml'), rulesFileText());
    for (const f of testFiles) copyFileSync(path.join(TESTS, f), path.join(dir, f));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is a PrometheusRule whose groups promtool accepts', () => {
    const run = promtool(['check', 'rules', 'prometheus-rules.yml'], dir);
    expect(run.output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(run.status).toBe(0);
  });

  it('alerts on every failure the on-call engineer must hear of', () => {
    expect(rules.map((r) => r.alert).sort()).toEqual(
      [
        'SignonHighServerErrorRatio',
        'SignonSigninFailures',
        'SignonIdpDown',
        'SignonIdpRateLimited',
        'SignonRefreshErrors',
        'SignonSessionStoreErrors',
        'SignonSessionStoreSlow',
        'SignonRevocationQueueGrowing',
        'SignonRevocationsAbandoned',
        'SignonBackchannelDeliveriesFailing',
        'SignonEventLoopLag',
        'SignonRestarting',
      ].sort(),
    );
  });

  it.each(rules.map((r) => [r.alert, r] as const))(
    '%s has a severity, a summary, a description and a runbook section',
    (_name, rule) => {
      expect(['critical', 'warning']).toContain(rule.labels.severity);
      expect(rule.annotations.summary).toBeTruthy();
      expect(rule.annotations.description).toBeTruthy();
      const link = /^docs\/runbooks\.md#([\w-]+)$/.exec(rule.annotations.runbook_url ?? '');
      expect(link).not.toBeNull();
      expect(headingAnchors(readFileSync(RUNBOOKS, 'utf8'))).toContain(link?.[1]);
      expect(link?.[1]).toBe(rule.alert.toLowerCase());
    },
  );

  it('docs/runbooks.md has no section for an alert that does not exist', () => {
    const sections = [...readFileSync(RUNBOOKS, 'utf8').matchAll(/^## (Signon\w+)\s*$/gm)].map(
      (m) => m[1],
    );
    expect(sections.sort()).toEqual(rules.map((r) => r.alert).sort());
  });

  it('each alert has a rule unit test where it fires and one where it stays quiet', () => {
    const cases = testFiles.flatMap((f) => {
      const file = parse(readFileSync(path.join(TESTS, f), 'utf8')) as RuleTestFile;
      expect(file.rule_files).toEqual(['prometheus-rules.yml']);
      return file.tests.flatMap((t) => t.alert_rule_test ?? []);
    });
    for (const { alert } of rules) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect([alert, mine.some((c) => (c.exp_alerts ?? []).length > 0)]).toEqual([alert, true]);
      expect([alert, mine.some((c) => (c.exp_alerts ?? []).length === 0)]).toEqual([alert, true]);
    }
  });

  it('promtool test rules: every alert fires on its failure and stays quiet when healthy', () => {
    const run = promtool(['test', 'rules', ...testFiles], dir);
    expect(run.output).not.toContain('FAILED');
    expect(run.status).toBe(0);
  });

  it('the end-to-end test’s faster clock divides every range and every `for:`', () => {
    const faster = fasterRules(30);
    const idpDown = alertingRules(faster).find((r) => r.alert === 'SignonIdpDown');
    expect(idpDown?.expr).toContain('avg_over_time(idp_up[10s])');
    expect(idpDown?.for).toBe('4s');
    expect(alertingRules(faster).map((r) => metricNames(r.expr))).toEqual(
      rules.map((r) => metricNames(r.expr)),
    );
  });
});

describe('deploy/monitoring: the dashboard and the ServiceMonitor', () => {
  it('reads metrics the way the rules do: every expression names at least one metric', () => {
    const expressions = dashboardExpressions();
    expect(expressions.length).toBeGreaterThan(20);
    for (const expr of expressions)
      expect([expr, metricNames(expr).size > 0]).toEqual([expr, true]);
    expect(
      metricNames('sum by (route, le) (rate(x_bucket{a="b"}[$__rate_interval])) > 0.5'),
    ).toEqual(new Set(['x_bucket']));
  });

  it('has rows for requests, the sign-in funnel, the IdP, the store and the Node runtime', () => {
    const board = dashboard();
    const rows = dashboardPanels(board)
      .filter((p) => p.type === 'row')
      .map((p) => p.title);
    expect(rows).toEqual([
      'Requests: rate, errors and duration per route',
      'Sign-in funnel',
      'IdP',
      'Session store and queues',
      'Node runtime',
    ]);
    // Every query panel reads the data source the viewer picks, never a fixed one.
    for (const panel of dashboardPanels(board).filter((p) => p.type !== 'row'))
      expect([panel.title, JSON.stringify(panel)]).toEqual([
        panel.title,
        expect.stringContaining('"uid":"${datasource}"'),
      ]);
  });

  it('the ServiceMonitor scrapes /metrics on the port named management of the Service', () => {
    const monitor = parse(readFileSync(path.join(MONITORING, 'service-monitor.yaml'), 'utf8')) as {
      kind: string;
      spec: {
        selector: { matchLabels: Record<string, string> };
        endpoints: { port: string; path: string }[];
      };
    };
    type Service = {
      kind: string;
      metadata: { name: string; labels: Record<string, string> };
      spec: { ports: { name: string }[] };
    };
    const selected = parseAllDocuments(
      readFileSync(path.join(ROOT, 'deploy/kubernetes/service.yaml'), 'utf8'),
    )
      .map((d) => d.toJS() as Service)
      .filter((d) => d.kind === 'Service')
      .filter((d) =>
        Object.entries(monitor.spec.selector.matchLabels).every(
          ([k, v]) => d.metadata.labels[k] === v,
        ),
      );
    expect(monitor.kind).toBe('ServiceMonitor');
    expect(monitor.spec.endpoints).toEqual([
      expect.objectContaining({ port: 'management', path: '/metrics' }),
    ]);
    // It selects the management Service alone, which has the port it names; never the public one.
    expect(selected.map((d) => d.metadata.name)).toEqual(['collectors-signon-management']);
    expect(selected[0]?.spec.ports.map((p) => p.name)).toContain('management');
  });

  it('the kustomization lists every manifest of the folder and the dashboard', () => {
    const kustomization = parse(
      readFileSync(path.join(MONITORING, 'kustomization.yaml'), 'utf8'),
    ) as { resources: string[]; configMapGenerator: { files: string[] }[] };
    expect(kustomization.resources.sort()).toEqual([
      'prometheus-rule.yaml',
      'service-monitor.yaml',
    ]);
    expect(kustomization.configMapGenerator.flatMap((g) => g.files)).toEqual(['dashboard.json']);
  });
});
