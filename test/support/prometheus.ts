import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse, stringify } from 'yaml';
import { freePort } from './free-port';

/**
 * The monitoring that deploy/monitoring ships, read the way Prometheus reads it: the rules as a
 * plain rules file taken out of the PrometheusRule (one source, never a second copy), the names of the
 * metrics that the rules and the dashboard read, and Debian's `prometheus` server as a process of
 * its own (scripts/test-prerequisites.js installs the package; a missing binary fails loudly here).
 */
export const MONITORING = path.resolve(__dirname, '../../deploy/monitoring');

export interface AlertingRule {
  readonly alert: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}
interface RuleGroups {
  groups: { name: string; interval?: string; rules: AlertingRule[] }[];
}

/** The `spec` of deploy/monitoring/prometheus-rule.yaml: what promtool and Prometheus load. */
export function ruleGroups(): RuleGroups {
  const object = parse(readFileSync(path.join(MONITORING, 'prometheus-rule.yaml'), 'utf8')) as {
    kind: string;
    spec: RuleGroups;
  };
  if (object.kind !== 'PrometheusRule')
    throw new Error('prometheus-rule.yaml: not a PrometheusRule');
  return object.spec;
}

export function alertingRules(groups: RuleGroups = ruleGroups()): AlertingRule[] {
  return groups.groups.flatMap((g) => g.rules);
}

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** A Prometheus duration (`5m`, `90s`, `1h30m`) divided by `factor`, in whole seconds (≥ 1). */
function shortened(duration: string, factor: number): string {
  let seconds = 0;
  for (const [, n, unit] of duration.matchAll(/(\d+)([smhd])/g))
    seconds += Number(n) * (UNIT_SECONDS[unit ?? 's'] ?? 1);
  return `${Math.max(1, Math.round(seconds / factor))}s`;
}

/**
 * The same rules on a clock `factor` times faster: every range (`[5m]`) and every `for:` divided.
 * The expressions and thresholds stay as shipped: what fires after 5 minutes then fires after
 * 5 minutes / factor, so an end-to-end test can watch it happen.
 */
export function fasterRules(factor: number, groups: RuleGroups = ruleGroups()): RuleGroups {
  return {
    groups: groups.groups.map((g) => ({
      ...g,
      rules: g.rules.map((r) => ({
        ...r,
        expr: r.expr.replace(/\[(\d+[smhd])+(?=[\]:])/g, (range) => `[${shortened(range, factor)}`),
        ...(r.for ? { for: shortened(r.for, factor) } : {}),
      })),
    })),
  };
}

export function rulesFileText(groups: RuleGroups = ruleGroups()): string {
  return stringify(groups);
}

/** What a PromQL function, keyword or aggregation is called: never a metric. */
const PROMQL_WORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads: identifiers that are not functions (followed by `(`),
 * keywords, label names in `by (...)` and the like, label matchers, strings, durations or Grafana
 * variables (`$__rate_interval`, `${job}`).
 */
export function metricNames(expr: string): Set<string> {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\$\{[^}]*\}|\$\w+/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(?![\w:]|\s*\()/g)) {
    const name = m[1] ?? '';
    if (!PROMQL_WORDS.has(name.toLowerCase()) && !/^\d/.test(name)) names.add(name);
  }
  return names;
}

interface DashboardPanel {
  title?: string;
  type?: string;
  targets?: { expr?: string }[];
  panels?: DashboardPanel[];
}
export interface Dashboard {
  title: string;
  uid: string;
  panels: DashboardPanel[];
  templating?: { list: { name: string; type: string; query?: unknown }[] };
}

export function dashboard(): Dashboard {
  return JSON.parse(readFileSync(path.join(MONITORING, 'dashboard.json'), 'utf8')) as Dashboard;
}

/** Every panel of the dashboard, those inside collapsed rows too. */
export function dashboardPanels(board: Dashboard = dashboard()): DashboardPanel[] {
  const all: DashboardPanel[] = [];
  const visit = (panels: DashboardPanel[] = []): void => {
    for (const panel of panels) {
      all.push(panel);
      visit(panel.panels);
    }
  };
  visit(board.panels);
  return all;
}

/** Every PromQL expression the dashboard runs: its panels' queries and its variables' queries. */
export function dashboardExpressions(board: Dashboard = dashboard()): string[] {
  const panels = dashboardPanels(board).flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? ''));
  const variables = (board.templating?.list ?? [])
    .filter((v) => v.type === 'query')
    .map((v) => {
      const q = v.query as string | { query?: string } | undefined;
      const text = typeof q === 'string' ? q : (q?.query ?? '');
      // label_values(metric, label): the metric is what is read.
      return /label_values\(\s*([^,)]+)/.exec(text)?.[1] ?? text;
    });
  return [...panels, ...variables].filter((e) => e !== '');
}

/** Whether a program is on PATH; the tests that need it fail with this advice when it is not. */
export function requireProgram(program: string): void {
  if (spawnSync('/bin/sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status !== 0)
    throw new Error(
      `${program} is not installed: run \`npm test\` (it installs Debian's prometheus package) ` +
        'or `apt-get install -y prometheus`',
    );
}

export interface PrometheusAlert {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly state: 'pending' | 'firing';
  readonly activeAt: string;
  readonly value: string;
}

export interface RunningPrometheus {
  readonly url: string;
  /** The alerts Prometheus holds now (pending and firing): `GET /api/v1/alerts`. */
  alerts(): Promise<PrometheusAlert[]>;
  /** An instant query's samples: `GET /api/v1/query`. */
  query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  output(): string;
  close(): Promise<void>;
}

/**
 * Debian's Prometheus server on a free loopback port, scraping one target (`host:port` and path)
 * every second and evaluating `rules` every second, with its data in a temporary folder. Resolves
 * once `/-/ready` answers.
 */
export async function startPrometheus(options: {
  readonly target: { readonly address: string; readonly path: string };
  readonly rules: RuleGroups;
  readonly job?: string;
}): Promise<RunningPrometheus> {
  requireProgram('prometheus');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'prometheus-'));
  const port = await freePort();
  writeFileSync(path.join(dir, 'rules.yml'), rulesFileText(options.rules));
  writeFileSync(
    path.join(dir, 'prometheus.yml'),
    stringify({
      global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
      rule_files: [path.join(dir, 'rules.yml')],
      scrape_configs: [
        {
          job_name: options.job ?? 'collectors-signon',
          metrics_path: options.target.path,
          static_configs: [{ targets: [options.target.address], labels: { namespace: 'test' } }],
        },
      ],
    }),
  );
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited during start-up:\n${output}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`prometheus was not ready within 20 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const api = async <T>(pathAndQuery: string): Promise<T> => {
    const res = await fetch(`${url}${pathAndQuery}`);
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`${pathAndQuery}: ${body.error ?? res.status}`);
    return body.data;
  };
  return {
    url,
    alerts: async () => (await api<{ alerts: PrometheusAlert[] }>('/api/v1/alerts')).alerts,
    query: async (expr) =>
      (
        await api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(
          `/api/v1/query?query=${encodeURIComponent(expr)}`,
        )
      ).result,
    output: () => output,
    close,
  };
}
