import { TOKEN_PROBLEM_MESSAGES } from '../../src/token/token-verifier';
import { basicAuth, exchangeHandoff } from '../support/signin-journey';
import { TestApp, startTestApp, useTestApp } from '../support/test-app';

/**
 * Issue 14 item 9, the messages of §8 where they belong, over HTTP: "access token must be specified"
 * answers a call that needs an access token and has none; malformed enabled-features data (§5) is
 * treated as empty with one warning at start, not a start-up failure.
 */
const MISSING = 'access token must be specified';
const WARN = 40; // pino's number for warn

/** The warning lines of the log, with the message given. */
const warningsSaying = (t: TestApp, msg: string) =>
  t.logs.records.filter((r) => r.level === WARN && r.msg === msg);

describe('§8 "access token must be specified"', () => {
  const t = useTestApp();

  it('is the message for a missing token, in the one table of token problems', () => {
    expect(TOKEN_PROBLEM_MESSAGES.missing).toBe(MISSING);
  });

  it.each([
    ['/collection?t=', '/collection'],
    ['/collection?t=&x=1', '/collection?x=1'],
    ['/account/sessions?x=1&t=', '/account/sessions?x=1'],
  ])(
    'GET %s: t leaves the URL, nothing is stored, the reason is logged with the path',
    async (path, expected) => {
      const res = await fetch(`${t.url}${path}`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(expected);
      expect(res.headers.getSetCookie().filter((c) => c.startsWith('accessToken='))).toEqual([]);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const requestId = res.headers.get('x-request-id');
      const lines = warningsSaying(t, MISSING).filter(
        (r) => (r.req as { id?: string } | undefined)?.id === requestId,
      );
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        context: 'TokenParamSignin',
        path: new URL(expected, t.url).pathname,
        reason: 'missing',
      });
    },
  );

  it('an unreadable t is dropped with its own reason, and the token reaches no log line', async () => {
    const token = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.not-a-signature';
    const res = await fetch(`${t.url}/collection?t=${token}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/collection');
    expect(res.headers.getSetCookie().filter((c) => c.startsWith('accessToken='))).toEqual([]);
    const requestId = res.headers.get('x-request-id');
    const lines = warningsSaying(t, TOKEN_PROBLEM_MESSAGES.invalid).filter(
      (r) => (r.req as { id?: string } | undefined)?.id === requestId,
    );
    expect(lines).toHaveLength(1);
    expect(t.logs.text).not.toContain(token);
    expect(t.logs.text).not.toContain('not-a-signature');
  });

  it.each([{}, { code: '' }, { code: 42 }])(
    'POST /api/handoff/token with brand credentials and body %o: 400 invalid_request with the message',
    async (body) => {
      const credentials = t.config.brandClients.psamobile;
      if (!credentials) throw new Error('psamobile has a brand client in local');
      const res = await exchangeHandoff(
        t,
        basicAuth(credentials.clientId, credentials.clientSecret),
        body,
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('cache-control')).toContain('no-store');
      expect(res.json).toEqual({ error: 'invalid_request', error_description: MISSING });
    },
  );

  it('without credentials the client is refused first (401), before any word on the token', async () => {
    const res = await exchangeHandoff(t, undefined, {});
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('invalid_client');
  });

  it.each(['/demo/brand/psa', '/demo/brand/psa?t=', '/demo/brand/psa?t=a&t=b'])(
    'the demo brand page %s says the token must be specified',
    async (path) => {
      const res = await fetch(`${t.url}${path}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(`No token was received: ${MISSING}.`);
    },
  );

  it('the demo brand page names the problem of a token that does not verify', async () => {
    // Three base64url segments with no valid signature: invalid.
    const res = await fetch(`${t.url}/demo/brand/psa?t=aaa.bbb.ccc`);
    expect(await res.text()).toContain(
      `The token did not verify: ${TOKEN_PROBLEM_MESSAGES.invalid}.`,
    );
    // Not even a compact JWS (issue 15 item 1): refused by shape, before parsing.
    const shapeless = await fetch(`${t.url}/demo/brand/psa?t=abc`);
    expect(await shapeless.text()).toContain(
      `The token did not verify: ${TOKEN_PROBLEM_MESSAGES.malformed}.`,
    );
  });
});

describe('§5 malformed enabled-features data at start', () => {
  /** The configuration warnings the app logged at start. */
  const configWarnings = (t: TestApp) =>
    t.logs.records.filter((r) => r.level === WARN && r.context === 'Configuration');

  it.each([
    [
      'text that is no list',
      'not json',
      'entry 0 ("not json") is not a feature name (letters, digits, - and _)',
    ],
    ['a JSON object', '{"a":1}', 'not a list of strings (a JSON array)'],
    ['an array of numbers', '[1,2]', 'entry 0 is not a string'],
    ['broken JSON', '["gettingStarted"', 'not valid JSON'],
  ])(
    'with %s the app starts, the features are empty, and one warning names the problem',
    async (_name, value, problem) => {
      const t = await startTestApp({ ENABLED_FEATURES: value });
      try {
        expect((await fetch(`${t.managementUrl}/healthz`)).status).toBe(200);
        expect(t.config.features).toEqual([]);
        const lines = configWarnings(t);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatchObject({ key: 'ENABLED_FEATURES' });
        expect(lines[0]?.msg).toBe(
          `ENABLED_FEATURES: ${problem}; the features are treated as empty (§5)`,
        );
      } finally {
        await t.close();
      }
    },
  );

  it('well-formed data starts with its features and no warning', async () => {
    const t = await startTestApp({ ENABLED_FEATURES: '["gettingStarted"]' });
    try {
      expect(t.config.features).toEqual(['gettingStarted']);
      expect(configWarnings(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
