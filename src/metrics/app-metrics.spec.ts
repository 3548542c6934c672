import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from '../config/project-paths';
import { AppMetrics, NO_ERROR, OTHER_ERROR, UNKNOWN_BRAND } from './app-metrics';

/** One sample's value in the registry's text output, 0 when absent. */
async function sample(metrics: AppMetrics, name: string, labels: string): Promise<number> {
  const text = await metrics.registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe(AppMetrics.name, () => {
  it('each instance has its own registry: two apps in one process neither clash nor share', async () => {
    const a = new AppMetrics();
    const b = new AppMetrics();
    a.signin('psa');
    expect(await sample(a, 'signins_total', 'brand="psa",outcome="success",error="none"')).toBe(1);
    expect(await sample(b, 'signins_total', 'brand="psa",outcome="success",error="none"')).toBe(0);
    // The process's default metrics are in both.
    for (const m of [a, b])
      expect(await m.registry.metrics()).toContain('process_cpu_seconds_total');
  });

  describe('requestFailed: failures on sign-in and sign-out routes, with bounded labels', () => {
    const table: [string, { path: string; b?: unknown }, string, string | undefined][] = [
      [
        'bad input on /signin',
        { path: '/signin', b: 'psa' },
        'InvalidRedirectUrl',
        'signins_total{brand="psa",outcome="failure",error="InvalidRedirectUrl"}',
      ],
      [
        'the brand is matched case-insensitively, like the b parameter',
        { path: '/signin', b: 'PSA' },
        'BadRequest',
        'signins_total{brand="psa",outcome="failure",error="BadRequest"}',
      ],
      [
        'an invalid brand is not a label value',
        { path: '/signin', b: 'evil"} 1\nx' },
        'InvalidBrand',
        `signins_total{brand="${UNKNOWN_BRAND}",outcome="failure",error="InvalidBrand"}`,
      ],
      [
        'a repeated b (an array) is not a label value',
        { path: '/signin', b: ['psa', 'pcgs'] },
        'BadRequest',
        `signins_total{brand="${UNKNOWN_BRAND}",outcome="failure",error="BadRequest"}`,
      ],
      [
        'the landing',
        { path: '/handleloginredirect' },
        'InvalidLoginState',
        `signins_total{brand="${UNKNOWN_BRAND}",outcome="failure",error="InvalidLoginState"}`,
      ],
      [
        'a §8 brand code',
        { path: '/handlebrandtokenredirect', b: 'pcgs' },
        'InvalidBrandClientCredentials',
        'signins_total{brand="pcgs",outcome="failure",error="InvalidBrandClientCredentials"}',
      ],
      [
        'the rate limit',
        { path: '/signin' },
        'TooManyRequests',
        `signins_total{brand="${UNKNOWN_BRAND}",outcome="failure",error="TooManyRequests"}`,
      ],
      [
        'a bare 500',
        { path: '/handleloginredirect' },
        'InternalServerError',
        `signins_total{brand="${UNKNOWN_BRAND}",outcome="failure",error="InternalServerError"}`,
      ],
      [
        'an error name outside the fixed codes',
        { path: '/signin', b: 'psa' },
        'SomethingNew',
        `signins_total{brand="psa",outcome="failure",error="${OTHER_ERROR}"}`,
      ],
      [
        'sign-out',
        { path: '/logout/collectorsid', b: 'goldin' },
        'InternalServerError',
        'signouts_total{brand="goldin",outcome="failure",error="InternalServerError"}',
      ],
      [
        'another route is not a sign-in',
        { path: '/collection', b: 'psa' },
        'Unauthorized',
        undefined,
      ],
      ['nor is a 404', { path: '/{*path}', b: 'psa' }, 'NotFound', undefined],
    ];
    it.each(table)('%s', async (_name, { path, b }, error, expected) => {
      const metrics = new AppMetrics();
      metrics.requestFailed({ route: { path }, query: b === undefined ? {} : { b } }, error);
      const text = await metrics.registry.metrics();
      const counted = text
        .split('\n')
        .filter((l) => /^sign(in|out)s_total\{/.test(l))
        .map((l) => l.slice(0, l.lastIndexOf(' ')));
      expect(counted).toEqual(expected ? [expected] : []);
    });
  });

  it('counts sign-outs with and without a session, and refreshes by outcome', async () => {
    const metrics = new AppMetrics();
    metrics.signout('psa', true);
    metrics.signout('psa', false);
    metrics.tokenRefresh('success');
    metrics.tokenRefresh('refused');
    metrics.tokenRefresh('refused');
    expect(
      await sample(metrics, 'signouts_total', `brand="psa",outcome="success",error="${NO_ERROR}"`),
    ).toBe(1);
    expect(
      await sample(
        metrics,
        'signouts_total',
        `brand="psa",outcome="no_session",error="${NO_ERROR}"`,
      ),
    ).toBe(1);
    expect(await sample(metrics, 'token_refreshes_total', 'outcome="success"')).toBe(1);
    expect(await sample(metrics, 'token_refreshes_total', 'outcome="refused"')).toBe(2);
  });
});

describe('AppMetrics: on-call metrics', () => {
  it('build_info is 1, labelled with the package version and the Node version', async () => {
    const metrics = new AppMetrics();
    const version = (
      JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    expect(
      await sample(metrics, 'build_info', `version="${version}",node_version="${process.version}"`),
    ).toBe(1);
  });

  it('a store gauge is left out until watched and when its reading fails: no made-up 0', async () => {
    const metrics = new AppMetrics();
    const lines = async () =>
      (await metrics.registry.metrics())
        .split('\n')
        .filter((l) => /^(revocation_queue_depth|live_sessions) /.test(l));
    expect(await lines()).toEqual([]);
    metrics.watchRevocationQueue(() => Promise.resolve(3));
    metrics.watchLiveSessions(() => Promise.resolve(12));
    expect(await lines()).toEqual(['revocation_queue_depth 3', 'live_sessions 12']);
    // The store fails (a fresh reading, so none is reused): no sample rather than a stale one.
    metrics.watchLiveSessions(() => Promise.reject(new Error('store down')));
    expect(await lines()).toEqual(['revocation_queue_depth 3']);
  });

  it('exports each outcome of the brands with a back-channel URL at 0 before any delivery', async () => {
    const metrics = new AppMetrics();
    metrics.backchannelBrands(['psa', 'lbe']);
    const lines = (await metrics.registry.metrics())
      .split('\n')
      .filter((l) => l.startsWith('backchannel_logout_deliveries_total{'));
    expect(lines.sort()).toEqual(
      ['psa', 'lbe']
        .flatMap((brand) =>
          ['delivered', 'failed', 'abandoned'].map(
            (outcome) =>
              `backchannel_logout_deliveries_total{brand="${brand}",outcome="${outcome}"} 0`,
          ),
        )
        .sort(),
    );
  });

  it('counts abandoned revocations and back-channel deliveries by brand and outcome', async () => {
    const metrics = new AppMetrics();
    metrics.revocationAbandoned();
    metrics.backchannelDelivery('psa', 'failed');
    metrics.backchannelDelivery('psa', 'delivered');
    metrics.backchannelDelivery('pcgs', 'abandoned');
    const text = await metrics.registry.metrics();
    expect(text).toContain('\nrevocations_abandoned_total 1\n');
    for (const outcome of ['failed', 'delivered'])
      expect(
        await sample(
          metrics,
          'backchannel_logout_deliveries_total',
          `brand="psa",outcome="${outcome}"`,
        ),
      ).toBe(1);
    expect(
      await sample(
        metrics,
        'backchannel_logout_deliveries_total',
        'brand="pcgs",outcome="abandoned"',
      ),
    ).toBe(1);
  });
});
