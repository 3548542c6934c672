import fc from 'fast-check';
import { OPEN_REDIRECT_BYPASSES } from '../../test/fixtures/open-redirect-bypasses';
import { testConfig } from '../../test/support/test-config';
import {
  MAX_REDIRECT_URL_LENGTH,
  RedirectPolicy,
  checkRedirectUrl,
  redirectPolicyFromConfig,
} from './redirect-policy';

/** The allowlist the bypass table was written against. */
const policy: RedirectPolicy = {
  allowedOrigins: new Set([
    'https://www.psacard.com',
    'https://www.psacard.co.jp',
    'https://signin.collectors.com',
    'https://www.powerpacks.com',
    'http://localhost:3333',
  ]),
  appSchemes: new Set(['psacard', 'collectors']),
};

describe('checkRedirectUrl', () => {
  describe('accepts allowed origins and app schemes, returning the normalised URL', () => {
    const accepted: [string, string][] = [
      ['https://www.psacard.com', 'https://www.psacard.com/'],
      ['https://www.psacard.com/', 'https://www.psacard.com/'],
      ['https://www.psacard.com/myaccount/orders', 'https://www.psacard.com/myaccount/orders'],
      [
        'https://www.psacard.com/cert/12345678?tab=pop#top',
        'https://www.psacard.com/cert/12345678?tab=pop#top',
      ],
      ['https://www.psacard.com:443/x', 'https://www.psacard.com/x'],
      ['HTTPS://WWW.PSACARD.COM/Orders', 'https://www.psacard.com/Orders'],
      ['https://www.psacard.com/a/../b', 'https://www.psacard.com/b'],
      [
        'https://www.psacard.com/search?q=a%20b&r=https%3A%2F%2Fevil.com',
        'https://www.psacard.com/search?q=a%20b&r=https%3A%2F%2Fevil.com',
      ],
      ['https://www.psacard.com?.evil.com', 'https://www.psacard.com/?.evil.com'],
      ['https://www.psacard.com#@evil.com', 'https://www.psacard.com/#@evil.com'],
      ['https://www.psacard.com/@evil.com', 'https://www.psacard.com/@evil.com'],
      ['https://www.psacard.co.jp/', 'https://www.psacard.co.jp/'],
      ['https://signin.collectors.com/callback?x=1', 'https://signin.collectors.com/callback?x=1'],
      ['https://www.powerpacks.com/packs/ripped', 'https://www.powerpacks.com/packs/ripped'],
      ['http://localhost:3333/collection', 'http://localhost:3333/collection'],
      ['http://LOCALHOST:3333/collection', 'http://localhost:3333/collection'],
      ['psacard://signin/callback?si=abc', 'psacard://signin/callback?si=abc'],
      ['psacard:home', 'psacard:home'],
      ['PSACARD://orders', 'psacard://orders'],
      ['collectors://collection', 'collectors://collection'],
      [
        'https://www.psacard.com/' + 'a'.repeat(MAX_REDIRECT_URL_LENGTH - 24),
        'https://www.psacard.com/' + 'a'.repeat(MAX_REDIRECT_URL_LENGTH - 24),
      ],
    ];
    it.each(accepted)('%s', (raw, normalised) => {
      expect(checkRedirectUrl(raw, policy)).toEqual({ ok: true, url: normalised });
    });
  });

  describe('rejects every known open-redirect bypass', () => {
    it('has a large, duplicate-free table', () => {
      expect(OPEN_REDIRECT_BYPASSES.length).toBeGreaterThanOrEqual(100);
      expect(new Set(OPEN_REDIRECT_BYPASSES.map((b) => b.payload)).size).toBe(
        OPEN_REDIRECT_BYPASSES.length,
      );
    });
    it.each(
      OPEN_REDIRECT_BYPASSES.map(
        (b) => [JSON.stringify(b.payload).slice(0, 80), b.source, b.payload] as const,
      ),
    )('%s (%s)', (_label, _source, payload) => {
      expect(checkRedirectUrl(payload, policy).ok).toBe(false);
    });
  });

  describe('names why a value was rejected', () => {
    const reasons: [unknown, string][] = [
      [undefined, 'not-a-string'],
      [['https://www.psacard.com/'], 'not-a-string'],
      [42, 'not-a-string'],
      ['', 'empty'],
      ['https://www.psacard.com/' + 'a'.repeat(MAX_REDIRECT_URL_LENGTH), 'too-long'],
      ['https://www.psacard.com/\n', 'forbidden-character'],
      ['https://www.psacard.com\\@evil.com', 'forbidden-character'],
      ['/collection', 'not-absolute'],
      ['//evil.com', 'not-absolute'],
      ['https:evil.com', 'unparseable'],
      ['https://www.psacard.com@evil.com', 'userinfo'],
      ['https://user:pw@www.psacard.com/', 'userinfo'],
      ['javascript:alert(1)', 'scheme-not-allowed'],
      ['data:text/html,x', 'scheme-not-allowed'],
      ['https://evil.com/', 'origin-not-allowed'],
      ['http://www.psacard.com/', 'origin-not-allowed'],
      ['https://www.psacard.com:8443/', 'origin-not-allowed'],
    ];
    it.each(reasons)('%j -> %s', (raw, reason) => {
      expect(checkRedirectUrl(raw, policy)).toEqual({ ok: false, reason });
    });
  });

  describe('properties', () => {
    const hosts = [
      'www.psacard.com',
      'evil.com',
      'psacard.com',
      'www.psacard.com.evil.com',
      'localhost',
      '127.0.0.1',
      'signin.collectors.com',
    ];
    const arbitraryUrlish = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc
        .tuple(
          fc.constantFrom(
            'https://',
            'http://',
            '//',
            '/\\',
            'https:',
            'HTTPS://',
            'psacard://',
            'javascript:',
            '',
          ),
          fc.option(fc.constantFrom('user@', 'www.psacard.com@', ':@', '@'), { nil: '' }),
          fc.constantFrom(...hosts),
          fc.option(fc.constantFrom(':443', ':3333', ':80', ':8443'), { nil: '' }),
          fc.string({ unit: 'binary', maxLength: 20 }),
        )
        .map((parts) => parts.join('')),
    );

    it('never accepts a URL whose origin is outside the allowlist or whose scheme is not an app scheme', () => {
      fc.assert(
        fc.property(arbitraryUrlish, (raw) => {
          const decision = checkRedirectUrl(raw, policy);
          if (!decision.ok) return true;
          const url = new URL(decision.url);
          const scheme = url.protocol.slice(0, -1);
          return (
            url.username === '' &&
            url.password === '' &&
            (policy.allowedOrigins.has(url.origin) || policy.appSchemes.has(scheme))
          );
        }),
        { numRuns: 3000 },
      );
    });

    it('is stable: an accepted URL is accepted again unchanged (the browser gets what we checked)', () => {
      fc.assert(
        fc.property(arbitraryUrlish, (raw) => {
          const first = checkRedirectUrl(raw, policy);
          if (!first.ok) return true;
          const again = checkRedirectUrl(first.url, policy);
          return again.ok && again.url === first.url;
        }),
        { numRuns: 3000 },
      );
    });

    it('accepts any path, query and fragment on an allowed origin', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...policy.allowedOrigins),
          fc.webPath(),
          fc.webQueryParameters(),
          fc.webFragments(),
          (origin, path, query, fragment) => {
            const raw = `${origin}${path}${query ? `?${query}` : ''}${fragment ? `#${fragment}` : ''}`;
            fc.pre(raw.length <= MAX_REDIRECT_URL_LENGTH && !raw.includes('\\'));
            const decision = checkRedirectUrl(raw, policy);
            return decision.ok && new URL(decision.url).origin === origin;
          },
        ),
        { numRuns: 1000 },
      );
    });

    it('rejects any string with a character outside printable ASCII', () => {
      fc.assert(
        fc.property(
          fc.constantFrom('https://www.psacard.com/', 'psacard://x'),
          fc
            .integer({ min: 0, max: 0x10ffff })
            .filter((c) => c < 0x21 || c > 0x7e || c === 0x5c)
            .filter((c) => c < 0xd800 || c > 0xdfff),
          fc.nat(30),
          (base, code, at) => {
            const i = Math.min(at, base.length);
            return !checkRedirectUrl(
              base.slice(0, i) + String.fromCodePoint(code) + base.slice(i),
              policy,
            ).ok;
          },
        ),
        { numRuns: 2000 },
      );
    });
  });
});

describe(redirectPolicyFromConfig.name, () => {
  it('allows this service, the IdP, the four service bases and the brand sites; local URLs only in local and dev', () => {
    const local = redirectPolicyFromConfig(testConfig({ APP_ENV: 'local' }));
    expect([...local.allowedOrigins]).toEqual(
      expect.arrayContaining([
        'http://localhost:3333',
        'https://dev.psacard.com',
        'https://dev.psacard.co.jp',
        'https://dev-cid.collectors.com',
        'https://dev.powerpacks.com',
        'http://localhost:3000',
      ]),
    );
    expect([...local.appSchemes].sort()).toEqual([
      'collectors',
      'collectorscorner',
      'goldin',
      'psacard',
    ]);

    const prod = redirectPolicyFromConfig(testConfig({ APP_ENV: 'prod' }));
    expect(prod.allowedOrigins.has('http://localhost:3000')).toBe(false);
    expect(prod.allowedOrigins.has('http://localhost:3333')).toBe(false);
    expect(prod.allowedOrigins.has('https://www.psacard.com')).toBe(true);
    expect(prod.allowedOrigins.has('https://www.pcgs.com')).toBe(true);
    expect(prod.allowedOrigins.has('https://login.collectors.com')).toBe(true);
  });
});
