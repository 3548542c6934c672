import { IDP_PROBE_INTERVAL_MS } from '../../src/oidc/idp-status';
import { OktaStack, startOktaStack } from '../support/okta-stack';
import { eventually } from '../support/process-app';
import {
  RunningPrometheus,
  alertingRules,
  dashboardExpressions,
  fasterRules,
  metricNames,
  startPrometheus,
} from '../support/prometheus';

/**
 * deploy/monitoring against the running service, as a cluster runs them: the service as
 * `npm start` runs it in qa against the Okta-shaped IdP, and Debian's Prometheus server scraping
 * it every second with the shipped rules loaded (their ranges and `for:` divided by FASTER,
 * nothing else changed). The service exports every metric a rule or a dashboard panel reads;
 * every panel's query runs; the IdP going down fires SignonIdpDown in Prometheus's API, and its
 * return resolves it.
 */
const FASTER = 30;
const ALERT = 'SignonIdpDown';

/**
 * Where the service answers Prometheus and the kubelet (/metrics, /healthz): its management
 * listener (MANAGEMENT_PORT, docs/operating.md "The management port").
 */
function managementAddress(stack: OktaStack): string {
  return new URL(stack.app.managementUrl).host;
}

/** The names a Prometheus text exposition declares (`# TYPE`), as the series a query can read. */
function exportedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (type === 'histogram')
      for (const s of ['_bucket', '_sum', '_count']) names.add(`${name}${s}`);
    else if (type === 'summary') for (const s of ['', '_sum', '_count']) names.add(`${name}${s}`);
    else names.add(name ?? '');
  }
  return names;
}

/** A dashboard query with Grafana's variables filled in as a viewer's "All" would. */
function asGrafanaRunsIt(expr: string): string {
  return expr
    .replace(/\$__rate_interval/g, '1m')
    .replace(/\$__range/g, '5m')
    .replace(/\$\{?(namespace|job)\}?/g, '.*');
}

describe('deploy/monitoring with a real Prometheus scraping the service', () => {
  let stack: OktaStack;
  let prometheus: RunningPrometheus;
  let kubelet: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    stack = await startOktaStack();
    // The kubelet's probes poll /healthz (the startup probe every second); a poll starts the
    // service's own look at the IdP when its last word is older than IDP_PROBE_INTERVAL_MS
    // (src/oidc/idp-status.ts). Polling more often does not make it ask more often.
    const healthz = `http://${managementAddress(stack)}/healthz`;
    const poll = (): void => {
      kubelet = setTimeout(() => {
        fetch(healthz)
          .then((r) => r.arrayBuffer())
          .catch(() => undefined)
          .finally(() => kubelet && poll());
      }, 1_000);
    };
    poll();
    prometheus = await startPrometheus({
      target: { address: managementAddress(stack), path: '/metrics' },
      rules: fasterRules(FASTER),
    });
  }, 120_000);

  afterAll(async () => {
    clearTimeout(kubelet);
    kubelet = undefined;
    await prometheus?.close();
    await stack?.close();
  });

  it('the service exports every metric a rule or a dashboard panel reads', async () => {
    const exposition = await (await fetch(`http://${managementAddress(stack)}/metrics`)).text();
    const exported = exportedNames(exposition);
    const read = new Set(
      [...alertingRules().map((r) => r.expr), ...dashboardExpressions()].flatMap((e) => [
        ...metricNames(e),
      ]),
    );
    expect([...read].filter((name) => !exported.has(name)).sort()).toEqual([]);
  });

  it('Prometheus scrapes the service and loads every shipped rule', async () => {
    await eventually(
      'the scrape is up',
      async () =>
        (await prometheus.query('up{job="collectors-signon"}')).some((s) => s.value[1] === '1'),
      30_000,
    );
    const rules = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as {
      data: { groups: { rules: { name: string; health: string }[] }[] };
    };
    const loaded = rules.data.groups.flatMap((g) => g.rules);
    expect(loaded.map((r) => r.name).sort()).toEqual(
      alertingRules()
        .map((r) => r.alert)
        .sort(),
    );
    // Evaluated without error on the service's real series.
    await eventually(
      'every rule evaluated',
      async () => {
        const now = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as typeof rules;
        return now.data.groups.flatMap((g) => g.rules).every((r) => r.health === 'ok');
      },
      30_000,
    );
  });

  it('every dashboard query is PromQL that Prometheus runs', async () => {
    for (const expr of dashboardExpressions()) {
      const res = await fetch(
        `${prometheus.url}/api/v1/query?query=${encodeURIComponent(asGrafanaRunsIt(expr))}`,
      );
      const body = (await res.json()) as { status: string; error?: string };
      expect([expr, body.status, body.error]).toEqual([expr, 'success', undefined]);
    }
  });

  it('the IdP going down fires SignonIdpDown within its window; back, it resolves', async () => {
    const idpAlert = async () =>
      (await prometheus.alerts()).find((a) => a.labels.alertname === ALERT);
    // Healthy first: the service heard from the IdP, Prometheus has it, and the alert is quiet.
    await eventually(
      'idp_up 1 in Prometheus',
      async () => (await prometheus.query('idp_up')).some((s) => s.value[1] === '1'),
      30_000,
    );
    await eventually('no IdP alert while it answers', async () => !(await idpAlert()), 30_000);

    await stack.fault('down');
    const downAt = Date.now();
    // The window: the service notices at its next look (IDP_PROBE_INTERVAL_MS), then the shortened
    // rule needs idp_up 0 for half its 10 s range and 4 s of `for:`; the rest is scrapes and
    // evaluations (1 s each) and a loaded machine's slack.
    const window = IDP_PROBE_INTERVAL_MS + 60_000;
    await eventually(`${ALERT} firing`, async () => (await idpAlert())?.state === 'firing', window);
    const firing = await idpAlert();
    expect(firing?.labels).toEqual({
      alertname: ALERT,
      severity: 'critical',
      job: 'collectors-signon',
      namespace: 'test',
    });
    expect(firing?.annotations.runbook_url).toBe('docs/runbooks.md#signonidpdown');
    expect(firing?.annotations.description).toBe(
      '100% of the instances saw the IdP down for most of the last 5 minutes.',
    );
    // It became active because of the outage, not before it.
    expect(Date.parse(firing?.activeAt ?? '')).toBeGreaterThanOrEqual(downAt - 1_000);
    // The service says the same on /healthz and in its log.
    const health = (await (await fetch(`http://${managementAddress(stack)}/healthz`)).json()) as {
      details?: { idp?: { status?: string } };
    };
    expect(health.details?.idp?.status).toBe('down');
    expect(stack.app.logs().some((l) => l.event === 'idp-down')).toBe(true);

    await stack.fault('none');
    await eventually(`${ALERT} resolved`, async () => !(await idpAlert()), window);
    expect((await prometheus.query('idp_up')).map((s) => s.value[1])).toEqual(['1']);
  }, 240_000);
});
