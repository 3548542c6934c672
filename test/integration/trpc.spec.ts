import {
  createTRPCClient,
  httpBatchLink,
  httpBatchStreamLink,
  httpLink,
  TRPCClientError,
} from '@trpc/client';
import request from 'supertest';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import type { AppRouter } from '../../src/api/app-router-factory';
import { encodeHexJson, hexJsonTransformer } from '../../src/api/hex-json-transformer';
import { CSRF_HEADER } from '../../src/api/trpc';
import { ROUTES } from '../../src/shared/routes';
import { Browser } from '../support/browser';
import { submitRaw } from '../support/oidc-journey';
import { TestApp, startTestApp, useTestApp } from '../support/test-app';

describe('log.clientError is rate-limited per address', () => {
  const sendReport = (t: TestApp) =>
    request(`${t.url}${ROUTES.api}`)
      .post('/log.clientError')
      .set(CSRF_HEADER, '1')
      .type('json')
      .send(JSON.stringify(encodeHexJson({ message: 'm', path: '/' })));

  it('answers 429 past the limit', async () => {
    const t = await startTestApp({ RATE_LIMIT_CLIENT_ERRORS: '2/60' });
    try {
      const send = () => sendReport(t);
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      const limited = await send();
      expect(limited.status).toBe(429);
      expect(limited.body.error.data.code).toBe('TOO_MANY_REQUESTS');
    } finally {
      await t.close();
    }
  });

  it('by RATE_LIMIT_CLIENT_ERRORS, not by the sign-in limit RATE_LIMIT_SIGNIN', async () => {
    const t = await startTestApp({ RATE_LIMIT_SIGNIN: '2/60' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await sendReport(t)).status);
      expect(statuses).toEqual([200, 200, 200, 200]);
    } finally {
      await t.close();
    }
  });
});

describe('the account API at /api/collectors-web/trpc (§7, §8)', () => {
  const t = useTestApp();
  let api: string;
  beforeAll(() => {
    api = `${t.url}${ROUTES.api}`;
  });

  function client(headers: Record<string, string> = {}, batch = true) {
    const options = {
      url: api,
      transformer: hexJsonTransformer,
      headers: { [CSRF_HEADER]: '1', 'x-locale': 'en-US', ...headers },
    };
    return createTRPCClient<AppRouter>({
      links: [batch ? httpBatchLink(options) : httpLink(options)],
    });
  }

  async function signedInCookie(): Promise<string> {
    const browser = new Browser();
    let page = await browser.visit(`${t.url}/signin`);
    page = await browser.submit(page, { email: 'collector@example.com' });
    await browser.follow(await submitRaw(browser, page, { password: DEMO_PASSWORD }), (next) =>
      next.endsWith('/collection'),
    );
    return browser.jar.getCookieString(t.url);
  }

  describe('wire format', () => {
    it('a query is a GET; without a session the status is signed out', async () => {
      const res = await request(api).get('/account.status').expect(200);
      expect(res.body).toEqual({
        result: {
          data: { isSignedIn: false, isMigrating: false, setupMfa: false, showSurvey: false },
        },
      });
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('batches join procedure paths with commas', async () => {
      const res = await request(api)
        .get('/account.status,account.status')
        .query({ batch: '1', input: '{}' })
        .expect(200);
      expect(res.body).toHaveLength(2);
      expect(res.body[1].result.data.isSignedIn).toBe(false);
    });

    it('a mutation is a POST whose input is the hex of its UTF-8 JSON', async () => {
      const hex = encodeHexJson({ message: 'TypeError: x is undefined — é', path: '/collection' });
      expect(hex).toMatch(/^[0-9a-f]+$/);
      const res = await request(api)
        .post('/log.clientError')
        .set(CSRF_HEADER, '1')
        .send(JSON.stringify(hex))
        .type('json')
        .expect(200);
      expect(res.body.result.data.correlationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(t.logs.text).toContain(res.body.result.data.correlationId);
    });

    it.each([
      ['a segment before the procedure', '/x/account.status'],
      ['a procedure path under another', '/account.status/account.status'],
      ['a trailing slash', '/account.status/'],
      ['the mount path alone', '/'],
      ['the mount path without its slash', ''],
      ['the mount path with a query alone', '?batch=1&input=%7B%7D'],
    ])('a path with %s names no procedure: 404', async (_, path) => {
      const res = await request(api).get(path).set('accept', 'application/json').expect(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'NotFound' });
      expect(res.body.result).toBeUndefined();
    });

    it('a complete answer goes in one piece, with its length (trpc-node-handler.ts)', async () => {
      const res = await request(api)
        .get('/account.status,account.status')
        .query({ batch: '1', input: '{}' })
        .expect(200);
      expect(res.headers['transfer-encoding']).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
      expect(res.headers['content-type']).toBe('application/json');
    });

    it('a batch asked for as JSON Lines streams its answers, chunked', async () => {
      const res = await request(api)
        .get('/account.status,account.status')
        .query({ batch: '1', input: '{}' })
        .set('trpc-accept', 'application/jsonl')
        .buffer(true)
        .parse((stream, done) => {
          let text = '';
          stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
          stream.on('end', () => done(null, text));
        })
        .expect(200);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(res.headers['content-length']).toBeUndefined();
      const lines = (res.body as string).trim().split('\n');
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) expect(JSON.parse(line)).toEqual(expect.any(Object));
      // The official client's streaming link reads the same answers as the plain batch.
      const streaming = createTRPCClient<AppRouter>({
        links: [
          httpBatchStreamLink({
            url: api,
            transformer: hexJsonTransformer,
            headers: { [CSRF_HEADER]: '1', 'x-locale': 'en-US' },
          }),
        ],
      });
      const answers = await Promise.all([
        streaming.account.status.query(),
        streaming.account.status.query(),
      ]);
      expect(answers).toEqual([
        { isSignedIn: false, isMigrating: false, setupMfa: false, showSurvey: false },
        { isSignedIn: false, isMigrating: false, setupMfa: false, showSurvey: false },
      ]);
    });

    it('a batched GET carries each input hex-encoded under its index', async () => {
      const input = JSON.stringify({ 0: encodeHexJson(undefined) ?? null });
      const res = await request(api)
        .get('/account.status')
        .query({ batch: '1', input })
        .expect(200);
      expect(res.body[0].result.data.isSignedIn).toBe(false);
    });
  });

  describe('with the official client', () => {
    it('batched queries and a signed-in status', async () => {
      const cookie = await signedInCookie();
      const [a, b] = await Promise.all([
        client({ cookie }).account.status.query(),
        client({ cookie }).account.status.query(),
      ]);
      expect(a).toMatchObject({
        isSignedIn: true,
        isMigrating: false,
        setupMfa: false,
        showSurvey: false,
        collectorsId: expect.any(Number),
      });
      expect(b).toEqual(a);
    }, 60_000);

    it('an unbatched cookie.setCookie writes an allowed cookie', async () => {
      const res = await request(api)
        .post('/cookie.setCookie')
        .set(CSRF_HEADER, '1')
        .type('json')
        .send(JSON.stringify(encodeHexJson({ cookieName: 'theme', value: 'dark' })))
        .expect(200);
      expect(res.headers['set-cookie']).toEqual([
        expect.stringMatching(/^theme=dark; Max-Age=3155695200; Path=\/; SameSite=Lax$/),
      ]);
      await expect(
        client({}, false).cookie.setCookie.mutate({ cookieName: 'QTM_SID', value: 'abc123' }),
      ).resolves.toEqual({ set: true });
    });

    it('log.signinEvent and updateAccountInfoPartial for a signed-in collector', async () => {
      const cookie = await signedInCookie();
      await expect(client({ cookie }).log.signinEvent.mutate({ b: 'psa' })).resolves.toEqual({
        recorded: true,
      });
      await expect(
        client({ cookie }).account.updateAccountInfoPartial.mutate({
          acceptedTermsAndConditions: true,
        }),
      ).resolves.toEqual({ acceptedTermsAndConditions: true });
    }, 60_000);

    it('account.signout ends only the caller’s own session', async () => {
      const cookie = await signedInCookie();
      const own = /sessionId=([^;]+)/.exec(cookie)?.[1] ?? '';
      await expect(
        client({ cookie }).account.signout.mutate({
          cidSessionIdentifier: 'someone-elses-session',
        }),
      ).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
      await expect(
        client({ cookie }).account.signout.mutate({ cidSessionIdentifier: own }),
      ).resolves.toEqual({ signedOut: true });
      expect(await client({ cookie }).account.status.query()).toMatchObject({ isSignedIn: false });
    }, 60_000);
  });

  // Bad input for every field of every procedure, and malformed wire input: trpc-inputs.spec.ts.
  describe('errors (§8)', () => {
    it('log.clientError neutralises control characters in the log and drops the query', async () => {
      const res = await request(api)
        .post('/log.clientError')
        .set(CSRF_HEADER, '1')
        .type('json')
        .send(
          JSON.stringify(
            encodeHexJson({
              message: 'line1\nfake {"level":60}\u001b[31m',
              path: '/p?t=secret-token',
            }),
          ),
        )
        .expect(200);
      const line = t.logs.records.find(
        (r) => r.correlationId === res.body.result.data.correlationId,
      );
      expect(line?.clientMessage).toBe('line1\\u000afake {"level":60}\\u001b[31m');
      expect(line?.path).toBe('/p');
      expect(t.logs.text).not.toContain('secret-token');
    });

    it('UNAUTHORIZED answers 401, and a 302 to /unauthredirect?error=Unauthorized for server-side calls', async () => {
      const body = JSON.stringify(encodeHexJson({ acceptedTermsAndConditions: true }));
      const api401 = await request(api)
        .post('/account.updateAccountInfoPartial')
        .set(CSRF_HEADER, '1')
        .type('json')
        .send(body)
        .expect(401);
      expect(api401.body.error.data.code).toBe('UNAUTHORIZED');
      const ssr = await request(api)
        .post('/account.updateAccountInfoPartial')
        .set(CSRF_HEADER, '1')
        .set('x-ssr', '1')
        .type('json')
        .send(body)
        .expect(302);
      expect(ssr.headers.location).toBe('/unauthredirect?error=Unauthorized');
      await expect(
        client().account.updateAccountInfoPartial.mutate({ acceptedTermsAndConditions: true }),
      ).rejects.toBeInstanceOf(TRPCClientError);
    });

    it('a batch answers with the first error’s status', async () => {
      const res = await request(api)
        .post('/account.updateAccountInfoPartial,log.clientError')
        .query({ batch: '1' })
        .set(CSRF_HEADER, '1')
        .type('json')
        .send(
          JSON.stringify({
            0: encodeHexJson({ acceptedTermsAndConditions: true }),
            1: encodeHexJson({ message: 'm', path: '/' }),
          }),
        );
      expect(res.status).toBe(401);
    });
  });

  describe('CSRF', () => {
    it('a mutation without the custom header is refused and changes nothing', async () => {
      const res = await request(api)
        .post('/cookie.setCookie')
        .type('json')
        .send(JSON.stringify(encodeHexJson({ cookieName: 'theme', value: 'dark' })))
        .expect(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('a cross-site form post is refused and changes nothing', async () => {
      const res = await request(api)
        .post('/cookie.setCookie')
        .set('origin', 'https://evil.example')
        .type('form')
        .send({ cookieName: 'theme', value: 'dark' });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('a cross-origin request with the header is refused', async () => {
      const res = await request(api)
        .post('/cookie.setCookie')
        .set(CSRF_HEADER, '1')
        .set('origin', 'https://evil.example')
        .type('json')
        .send(JSON.stringify(encodeHexJson({ cookieName: 'theme', value: 'dark' })))
        .expect(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('a same-origin request with the header is accepted', async () => {
      await request(api)
        .post('/cookie.setCookie')
        .set(CSRF_HEADER, '1')
        .set('origin', new URL(t.config.http.publicUrl).origin)
        .type('json')
        .send(JSON.stringify(encodeHexJson({ cookieName: 'theme', value: 'light' })))
        .expect(200);
    });
  });
});
