import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { productionEnv, testConfig } from '../../test/support/test-config';
import { redirectPolicyFromConfig } from '../brand/redirect-policy';
import { BRANDS, type Brand, type ClientType } from '../shared/brand';
import { decideAfterLogin } from './after-login';
import {
  BRAND_CONTRACT_VERSION,
  type BrandDelivery,
  DEPRECATIONS,
  type DiscoveryInput,
  signonDiscovery,
} from './signon-discovery';

const ROOT = join(__dirname, '../..');
const local = testConfig({ APP_ENV: 'local' });
const prod = testConfig({ APP_ENV: 'prod' });

/** The versions of CHANGELOG.md's release headings (`## [1.0.0] - 2026-11-29`), newest first. */
function changelogReleases(): { version: string; date: string }[] {
  const text = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
  return [...text.matchAll(/^## \[([^\]]+)\] - (\S+)$/gm)].map((m) => ({
    version: m[1] ?? '',
    date: m[2] ?? '',
  }));
}

describe(signonDiscovery.name, () => {
  /**
   * §3 brands, §4 After login steps 4-9: how each brand receives the collector's session. The same
   * in every environment; only the addresses and client ids differ.
   */
  const brands: [Brand, ClientType, BrandDelivery, boolean][] = [
    // brand            client type      delivery          receives si
    ['collectors', 'desktop', 'none', false], // §4 step 9: lands on this service
    ['grading', 'desktop', 'tokens-in-url', true],
    ['goldin', 'auction', 'none', false], // §4 step 4: its state URL, nothing handed over
    ['goldinmobile', 'mobile-app', 'none', false],
    ['psa', 'desktop', 'tokens-in-url', true],
    ['psajapan', 'desktop', 'tokens-in-url', true],
    ['psamobile', 'mobile-app', 'handoff-code', false], // §4 step 5: no session for this app
    ['pcgs', 'desktop', 'tokens-in-url', true],
    ['pcgschina', 'desktop', 'tokens-in-url', true],
    ['pcgsasia', 'desktop', 'tokens-in-url', true],
    ['pcgseurope', 'desktop', 'tokens-in-url', true],
    ['lbe', 'desktop', 'tokens-in-url', true],
    ['cc', 'desktop', 'tokens-in-url', true],
    ['ccmobile', 'mobile-app', 'handoff-code', true], // §4 step 7: an app, with a session
    ['collectorsmobile', 'mobile-app', 'handoff-code', false],
    ['certifi', 'desktop', 'tokens-in-url', true],
    ['enterprise', 'dealer-portal', 'tokens-in-url', true],
    ['powerpacks', 'desktop', 'tokens-in-url', true],
  ];

  it('lists every brand, and only brands', () => {
    expect(Object.keys(signonDiscovery(prod).brands).sort()).toEqual([...BRANDS].sort());
    expect(brands.map(([b]) => b).sort()).toEqual([...BRANDS].sort());
  });

  it.each(brands)(
    '%s: client type %s, delivery %s, receives si: %s',
    (brand, clientType, delivery, receivesSi) => {
      for (const config of [local, prod]) {
        expect(signonDiscovery(config).brands[brand]).toMatchObject({
          client_type: clientType,
          delivery,
          receives_session_id: receivesSi,
        });
      }
    },
  );

  it.each(BRANDS.map((b) => [b]))(
    '%s: says what decideAfterLogin does (the same delivery, the same si)',
    (brand) => {
      const config = prod;
      const decision = decideAfterLogin({
        env: config.env,
        journey: {
          brand,
          isNewAccount: false,
          isMigrated: false,
          postWelcome: false,
          returnToSignIn: false,
          locale: 'en-US',
          // The auction brands' state URL: with or without one, they are handed nothing.
          ...(brand.startsWith('goldin') ? { state: 'https://goldin.co/lot/1' } : {}),
        },
        brand: config.brands[brand],
        policy: redirectPolicyFromConfig(config),
        publicUrl: config.http.publicUrl,
        allowForcedReturn: true,
      });
      const entry = signonDiscovery(config).brands[brand];
      expect(entry.delivery).toBe(decision.kind === 'brand' ? decision.handoff : 'none');
      expect(entry.receives_session_id).toBe(decision.kind === 'brand' && decision.createSession);
    },
  );

  it('names a web brand that opted in to the handoff code (BRAND_URLS handoff) as handoff-code', () => {
    const config = testConfig({
      APP_ENV: 'prod',
      BRAND_URLS: JSON.stringify({
        ...(JSON.parse(productionEnv().BRAND_URLS ?? '{}') as object),
        pcgs: { baseURL: 'https://www.pcgs.com', handoff: 'handoff-code' },
      }),
    });
    expect(signonDiscovery(config).brands.pcgs).toMatchObject({
      delivery: 'handoff-code',
      receives_session_id: true,
    });
  });

  it('gives each brand with a client its client id, and never a secret', () => {
    const document = signonDiscovery(prod);
    for (const brand of BRANDS) {
      const client = prod.brandClients[brand];
      if (client) expect(document.brands[brand].client_id).toBe(client.clientId);
      else expect(document.brands[brand]).not.toHaveProperty('client_id');
    }
    expect(document.brands.psa.client_id).toBe('0oa-psa');
    expect(document.brands.collectors).not.toHaveProperty('client_id');
    const text = JSON.stringify(document);
    for (const secret of [
      prod.idp.clientSecret,
      ...prod.sessionSecrets,
      ...Object.values(prod.brandClients).map((c) => c?.clientSecret ?? ''),
    ]) {
      expect(secret.length).toBeGreaterThan(0);
      expect(text).not.toContain(secret);
    }
  });

  it('says which brands are sent logout tokens: an endpoint and a client', () => {
    const config: DiscoveryInput = {
      ...prod,
      backchannel: {
        ...prod.backchannel,
        uris: { psa: 'https://www.psacard.com/bcl', collectorsmobile: 'https://x.example/bcl' },
      },
      brandClients: { psa: { clientId: '0oa-psa', clientSecret: 'not shown' } },
    };
    const document = signonDiscovery(config);
    expect(
      BRANDS.filter((b) => document.brands[b].backchannel_logout), // collectorsmobile has no client
    ).toEqual(['psa']);
  });

  it('gives the issuers, the audience and every endpoint as absolute URLs of the configuration', () => {
    expect(signonDiscovery(prod)).toMatchObject({
      contract_version: BRAND_CONTRACT_VERSION,
      issuer: 'https://signin.collectors.com',
      idp_issuer: 'https://login.collectors.com/oauth2/default',
      jwks_uri: 'https://signin.collectors.com/.well-known/jwks.json',
      handoff_token_endpoint: 'https://signin.collectors.com/api/handoff/token',
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      signin_endpoint: 'https://signin.collectors.com/signin',
      signout_endpoint: 'https://signin.collectors.com/logout/collectorsid',
      brand_token_redirect_endpoint: 'https://signin.collectors.com/handlebrandtokenredirect',
      access_token_audience: 'api://default',
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
      deprecations: DEPRECATIONS,
    });
    expect(signonDiscovery(local)).toMatchObject({
      issuer: local.http.publicUrl,
      idp_issuer: `${local.http.publicUrl}/oauth2/default`,
      jwks_uri: `${local.http.publicUrl}/.well-known/jwks.json`,
    });
  });
});

describe('the contract version', () => {
  it('is semver, the newest release heading of CHANGELOG.md, dated', () => {
    const [newest] = changelogReleases();
    expect(BRAND_CONTRACT_VERSION).toMatch(/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/);
    expect(newest).toEqual({
      version: BRAND_CONTRACT_VERSION,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('lists its releases newest first', () => {
    const numbers = changelogReleases().map((r) => r.version.split('.').map(Number));
    const sorted = [...numbers].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]! || b[2]! - a[2]!);
    expect(numbers).toEqual(sorted);
  });

  it('is the version docs/brand-contract.md states (contract `x.y.z`), and only one', () => {
    const text = readFileSync(join(ROOT, 'docs/brand-contract.md'), 'utf8');
    const stated = [...text.matchAll(/\bcontract `(\d+\.\d+\.\d+)`/g)].map((m) => m[1]);
    expect(stated).toEqual([BRAND_CONTRACT_VERSION]);
  });

  it('is the OpenAPI document’s info.version', () => {
    const openapi = parseYaml(readFileSync(join(ROOT, 'docs/openapi.yaml'), 'utf8')) as {
      info: { version: string };
    };
    expect(openapi.info.version).toBe(BRAND_CONTRACT_VERSION);
  });

  it('announces every deprecation at least 90 days before its removal, in a new major version', () => {
    const major = Number(BRAND_CONTRACT_VERSION.split('.')[0]);
    for (const d of DEPRECATIONS) {
      const days = (Date.parse(d.removal_date) - Date.parse(d.announced)) / 86_400_000;
      expect(days).toBeGreaterThanOrEqual(90);
      expect(Number(d.removal_version.split('.')[0])).toBeGreaterThan(major);
    }
  });
});
