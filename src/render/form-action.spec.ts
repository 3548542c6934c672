import { testConfig } from '../../test/support/test-config';
import { RedirectPolicy, redirectPolicyFromConfig } from '../brand/redirect-policy';
import { pageCsp } from './csp';
import { formActionSources } from './form-action';

function policy(
  origins: readonly string[],
  schemes: readonly string[] = [],
  ownOrigin?: string,
): RedirectPolicy {
  return {
    allowedOrigins: new Set(origins),
    appSchemes: new Set(schemes),
    ...(ownOrigin ? { ownOrigin } : {}),
  };
}

describe(formActionSources.name, () => {
  // docs/design.md "Headers": a form post's redirect chain may end wherever the redirect policy
  // lets a redirect go, and Chromium checks every hop against form-action; so exactly those, and
  // this origin.
  const table: [string, RedirectPolicy, readonly string[]][] = [
    ['nothing configured: this origin only', policy([]), ["'self'"]],
    [
      'this origin is written as self, not again by name',
      policy(['http://localhost:3333'], [], 'http://localhost:3333'),
      ["'self'"],
    ],
    [
      'a brand on another origin (its tokenURL), the IdP, a service base: each by origin, sorted',
      policy(
        [
          'https://login.collectors.com',
          'https://www.pcgs.com',
          'http://127.0.0.1:41234',
          'https://www.psacard.com',
        ],
        [],
        'https://login.collectors.com',
      ),
      ["'self'", 'http://127.0.0.1:41234', 'https://www.pcgs.com', 'https://www.psacard.com'],
    ],
    [
      'a port stays part of the origin',
      policy(['https://brand.example:8443']),
      ["'self'", 'https://brand.example:8443'],
    ],
    [
      'mobile app schemes as scheme-sources, sorted, after the origins',
      policy(['https://www.psacard.com'], ['psacard', 'goldin', 'collectors']),
      ["'self'", 'https://www.psacard.com', 'collectors:', 'goldin:', 'psacard:'],
    ],
    [
      'a scheme is written in lower case, once',
      policy([], ['PSACard', 'psacard']),
      ["'self'", 'psacard:'],
    ],
    [
      'never a scheme that allows every site or script, whatever the policy holds',
      policy([], ['https', 'http', 'javascript', 'data', 'blob', 'psacard']),
      ["'self'", 'psacard:'],
    ],
    [
      'never a wildcard or a malformed source, which CSP would read as more or as another directive',
      policy(['https://*.psacard.com', 'https://x.com;script-src', 'https://a b', '*', 'null']),
      ["'self'"],
    ],
    [
      'an IPv6 literal has no host-source form: left out (the redirect policy alone governs it)',
      policy(['http://[::1]:3000', 'https://www.pcgs.com']),
      ["'self'", 'https://www.pcgs.com'],
    ],
    ['a scheme that is not one (RFC 3986 §3.1)', policy([], ['1app', 'a b', 'x;y']), ["'self'"]],
  ];
  it.each(table)('%s', (_case, given, sources) => {
    expect(formActionSources(given)).toEqual(sources);
  });

  describe('from the configuration, as the service starts (the policy the redirects use)', () => {
    const sourcesOf = (env: Record<string, string>) =>
      formActionSources(redirectPolicyFromConfig(testConfig(env)));

    it('local: the developer brand sites, the local URL and the dev app schemes; this origin (the embedded IdP, the demo brand pages) is self', () => {
      expect(sourcesOf({ APP_ENV: 'local' })).toEqual([
        "'self'",
        'http://localhost:3000',
        'https://dev-cid.collectors.com',
        'https://dev.powerpacks.com',
        'https://dev.psacard.co.jp',
        'https://dev.psacard.com',
        'collectors:',
        'collectorscorner:',
        'goldin:',
        'psacard:',
      ]);
    });

    it('a brand whose tokenURL is on another origin, and an app scheme set in BRAND_URLS', () => {
      const sources = sourcesOf({
        APP_ENV: 'local',
        BRAND_URLS: JSON.stringify({
          psa: { tokenURL: 'http://127.0.0.1:41234/auth/signin-callback' },
          psamobile: { appScheme: 'psaapp' },
        }),
      });
      expect(sources).toContain('http://127.0.0.1:41234');
      expect(sources).toContain('psaapp:');
      expect(sources).not.toContain('psacard:');
    });

    it('prod: every brand origin, the IdP (Okta, another origin) and the app schemes; nothing broader', () => {
      const sources = sourcesOf({ APP_ENV: 'prod' });
      expect(sources).toEqual(
        expect.arrayContaining([
          "'self'",
          'https://www.psacard.com',
          'https://www.pcgs.com',
          'https://goldin.co',
          'psacard:',
        ]),
      );
      const config = testConfig({ APP_ENV: 'prod' });
      expect(sources).toContain(new URL(config.idp.issuer).origin);
      expect(sources).not.toContain(new URL(config.http.publicUrl).origin);
      for (const source of sources) {
        expect(source).not.toMatch(/\*|^https?:$|\s|;|,/);
      }
    });
  });
});

describe(pageCsp.name, () => {
  it.each([
    ['without sources: this origin only', undefined, "form-action 'self'"],
    [
      'with the sources: them, in order',
      ["'self'", 'https://www.pcgs.com', 'psacard:'],
      "form-action 'self' https://www.pcgs.com psacard:",
    ],
  ])('form-action %s', (_case, formAction, directive) => {
    const csp = pageCsp('n0nce', { https: false, ...(formAction ? { formAction } : {}) });
    expect(csp.split('; ')).toContain(directive);
    expect(csp.match(/form-action/g)).toHaveLength(1);
  });
});
