import { Controller, Get } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import request from 'supertest';
import {
  BRANDS,
  FAVICONS,
  LOGOS,
  LOGO_VARIANTS,
  faviconPath,
  logoPath,
} from '../../src/shared/brand';
import { AppError } from '../../src/errors/app-error';
import { ROUTES } from '../../src/shared/routes';
import { freePort } from '../support/free-port';
import { RunningRedis, startRedis } from '../support/redis-server';
import { startTestApp, useTestApp } from '../support/test-app';

/** Routes that only exist in this test, to drive the global exception filter. */
@Controller('__test')
class FailingController {
  @Get('crash')
  crash(): never {
    throw new Error('database password=hunter2 leaked in a driver message');
  }
  @Get('known')
  known(): never {
    throw new AppError('InvalidRedirectUrl', 'rejected r');
  }
  @Get('async-crash')
  async asyncCrash(): Promise<never> {
    await Promise.resolve();
    throw new TypeError('boom');
  }
}

describe('foundation over HTTP', () => {
  const t = useTestApp({ APP_ENV: 'dev' }, [FailingController]);

  it('GET /healthz answers ok on the management port, uncached', async () => {
    const res = await request(t.managementUrl).get('/healthz').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { process: { status: 'up' } } });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('a public answer carries a request id and security headers', async () => {
    const res = await request(t.url).get(ROUTES.jwks).expect(200);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('serves every brand favicon and logo (§2, §9)', async () => {
    const paths = [
      ...FAVICONS.map((f) => faviconPath(f)),
      ...LOGOS.flatMap((l) => LOGO_VARIANTS.map((v) => logoPath(l, v))),
    ];
    // 4 favicons; 5 logos in color and black (§9) and white (the dark theme, issue 33).
    expect(paths).toHaveLength(19);
    for (const p of paths) {
      const res = await request(t.url).get(p).expect(200);
      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
    }
    for (const brand of BRANDS) {
      await request(t.url).get(faviconPath(t.config.brands[brand].favicon)).expect(200);
      await request(t.url).get(logoPath(t.config.brands[brand].logo, 'color')).expect(200);
    }
  });

  it('GET /readyz checks the SQLite session store', async () => {
    const res = await request(t.managementUrl).get('/readyz').expect(200);
    // `startup`: the work that may finish after the listener is done (issue 18 item 4).
    expect(res.body).toEqual({
      status: 'ok',
      checks: { startup: { status: 'up' }, 'sessionStore:sqlite': { status: 'up' } },
    });
  });

  it('keeps a safe incoming request id and replaces an unsafe one', async () => {
    const kept = await request(t.url)
      .get(ROUTES.jwks)
      .set('x-request-id', 'lb-1234abcd')
      .expect(200);
    expect(kept.headers['x-request-id']).toBe('lb-1234abcd');
    const replaced = await request(t.url)
      .get(ROUTES.jwks)
      .set('x-request-id', 'x"}{"level":60')
      .expect(200);
    expect(replaced.headers['x-request-id']).not.toContain('"');
  });

  it('an unknown route is a clean 404 with a correlation id equal to the request id', async () => {
    const res = await request(t.url).get('/no-such-page').expect(404);
    expect(res.body).toEqual({
      statusCode: 404,
      error: 'NotFound',
      message: 'We could not find that page.',
      correlationId: res.headers['x-request-id'],
    });
  });

  it('a browser gets the localized error page (§2) with the correlation id and the support link', async () => {
    const res = await request(t.url)
      .get('/no-such-page?lang=fr-CA')
      .set('accept', 'text/html,application/xhtml+xml')
      .expect(404);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toMatch(/<html lang="fr-CA"[ >]/);
    // The id in an element of its own, whole on one line and selected in one click (issue 52).
    expect(res.text).toContain(
      `<span>Référence : </span><code class="reference-id">${res.headers['x-request-id']}</code>`,
    );
    expect(res.text).toContain('href="https://dev.psacard.com/support"');
    expect(res.text).toContain('Réessayer');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('the try-again link never leaves the site', async () => {
    const res = await request(t.url).get('//evil.com/x').set('accept', 'text/html').expect(404);
    expect(res.text).not.toContain('href="//evil.com');
  });

  it.each([
    ['fr-CA', 'Nous n’avons pas trouvé cette page.'],
    ['ja-JP', 'ページが見つかりませんでした。'],
    ['en-CA', 'We could not find that page.'],
  ])('error messages follow the locale rule (lang=%s)', async (lang, message) => {
    const res = await request(t.url).get(`/no-such-page?lang=${lang}`).expect(404);
    expect(res.body.message).toBe(message);
  });

  it('the Japan brand gives Japanese; Accept-Language is ignored (§1, §5)', async () => {
    const ja = await request(t.url).get('/no-such-page?b=psajapan').expect(404);
    expect(ja.body.message).toBe('ページが見つかりませんでした。');
    const en = await request(t.url)
      .get('/no-such-page')
      .set('accept-language', 'fr-CA')
      .expect(404);
    expect(en.body.message).toBe('We could not find that page.');
  });

  it('a known error becomes its status and a localized message', async () => {
    const res = await request(t.url).get('/__test/known?lang=fr-CA').expect(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      error: 'InvalidRedirectUrl',
      message: 'L’adresse de retour n’est pas une URL valide pour cet environnement.',
    });
    const en = await request(t.url).get('/__test/known').expect(400);
    expect(en.body.message).toContain('not a valid env URL');
  });

  it.each(['/__test/crash', '/__test/async-crash'])(
    '%s: an unknown error is a bare 500 with a logged correlation id and no stack',
    async (path) => {
      const res = await request(t.url).get(path).expect(500);
      expect(res.body).toEqual({
        statusCode: 500,
        error: 'InternalServerError',
        message: expect.stringContaining('Something went wrong'),
        correlationId: res.headers['x-request-id'],
      });
      expect(JSON.stringify(res.body)).not.toMatch(/hunter2|boom|at .*\.ts/);
      const logged = t.logs.records.find(
        (r) => r.correlationId === res.headers['x-request-id'] && r.level === 50,
      );
      expect(logged).toBeDefined();
      expect(logged?.msg).toBe('unhandled error');
    },
  );

  it('never logs tokens, codes, state, session ids, cookies or authorization', async () => {
    const secrets = [
      'tok-AAAA',
      'ref-BBBB',
      'sid-CCCC',
      'code-DDDD',
      'state-EEEE',
      'cookie-FFFF',
      'bearer-GGGG',
      'id-HHHH',
    ];
    await request(t.url)
      .get(
        `/api/no-such-page?t=${secrets[0]}&rt=${secrets[1]}&si=${secrets[2]}&code=${secrets[3]}&state=${secrets[4]}&id_token=${secrets[7]}&b=psa`,
      )
      .set('cookie', `accessToken=${secrets[5]}`)
      .set('authorization', `Bearer ${secrets[6]}`)
      .set('referer', `https://www.psacard.com/x?t=${secrets[0]}`)
      .expect(404);
    const text = t.logs.text;
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text).toContain('b=psa');
    expect(text).toContain('[Redacted]');
  });

  it('each request is one JSON log line with its id, method, status and duration', async () => {
    const res = await request(t.url).get('/no-such-page?b=pcgs').expect(404);
    const line = t.logs.records.find(
      (r) =>
        r.msg === 'request completed' &&
        (r.req as { id?: string })?.id === res.headers['x-request-id'],
    );
    expect(line).toMatchObject({
      level: 30,
      env: 'dev',
      req: { method: 'GET', url: '/no-such-page?b=pcgs' },
      res: { statusCode: 404 },
    });
    expect(typeof line?.responseTime).toBe('number');
  });
});

describe('stack traces', () => {
  it.each(['dev', 'qa', 'prod'])('are never in a response in %s', async (appEnv) => {
    const t = await startTestApp(
      { APP_ENV: appEnv, SESSION_SECRET: randomBytes(30).toString('base64') },
      [FailingController],
    );
    try {
      const res = await request(t.url).get('/__test/crash').expect(500);
      expect(res.body.stack).toBeUndefined();
      const notFound = await request(t.url).get('/nothing').expect(404);
      expect(notFound.body.stack).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('appear in local, with query values redacted', async () => {
    const t = await startTestApp({ APP_ENV: 'local' });
    try {
      const res = await request(t.url).get('/api/nothing?t=tok-ZZZZ').expect(404);
      expect(res.body.stack).toContain('NotFoundException');
      expect(res.body.stack).not.toContain('tok-ZZZZ');
    } finally {
      await t.close();
    }
  });
});

describe('readiness with Redis', () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('is ready while Redis answers and 503 (without crashing) when it stops', async () => {
    const own = await startRedis();
    const t = await startTestApp({ SESSION_STORE: 'redis', REDIS_URL: own.url });
    try {
      const up = await request(t.managementUrl).get('/readyz').expect(200);
      expect(up.body.checks).toEqual({
        startup: { status: 'up' },
        'sessionStore:redis': { status: 'up' },
      });
      await own.stop();
      const down = await request(t.managementUrl).get('/readyz').expect(503);
      expect(down.body.status).toBe('unavailable');
      expect(down.body.checks['sessionStore:redis'].status).toBe('down');
      await request(t.managementUrl).get('/healthz').expect(200);
    } finally {
      await t.close();
    }
  });

  it('uses the shared Redis when configured', async () => {
    const t = await startTestApp({ SESSION_STORE: 'redis', REDIS_URL: redis.url });
    try {
      await request(t.managementUrl).get('/readyz').expect(200);
    } finally {
      await t.close();
    }
  });
});

describe('without the embedded IdP', () => {
  it('mounts neither the provider, the sign-in steps nor the outbox', async () => {
    const t = await startTestApp({
      APP_ENV: 'dev',
      IDP_MODE: 'external',
      IDP_ISSUER: 'https://login.example.com/oauth2/default',
      IDP_CLIENT_ID: 'x',
      IDP_CLIENT_SECRET: 'y',
      BRAND_CLIENTS: '{}',
    });
    try {
      await request(t.url).get('/idp/outbox').expect(404);
      await request(t.url).get('/idp/outbox/messages.json').expect(404);
      await request(t.url).get('/oauth2/default/.well-known/openid-configuration').expect(404);
      await request(t.url).get('/idp/signin/abc').expect(404);
    } finally {
      await t.close();
    }
  });
});

describe('readiness with an external IdP', () => {
  /** Plays the external IdP's discovery endpoint (Okta is not ours and cannot run here). */
  function fakeIdp(
    issuerFor: (port: number) => string,
  ): Promise<{ port: number; server: http.Server }> {
    return freePort().then(
      (port) =>
        new Promise((resolve) => {
          const server = http.createServer((req, res) => {
            if (req.url === '/oauth2/default/.well-known/openid-configuration') {
              res.setHeader('content-type', 'application/json');
              res.end(JSON.stringify({ issuer: issuerFor(port) }));
            } else {
              res.statusCode = 404;
              res.end();
            }
          });
          server.listen(port, '127.0.0.1', () => resolve({ port, server }));
        }),
    );
  }

  /** /healthz's word on the IdP, once its background probe has answered (IdpStatus). */
  async function idpHealth(url: string, want: string): Promise<{ status: string; error?: string }> {
    let idp: { status: string; error?: string } = { status: 'unknown' };
    for (let i = 0; i < 50 && idp.status !== want; i++) {
      const res = await request(url).get('/healthz').expect(200);
      expect(res.body.status).toBe('ok');
      idp = res.body.details.idp;
      if (idp.status !== want) await new Promise((r) => setTimeout(r, 50));
    }
    return idp;
  }

  it('stays ready when the IdP goes (issue 31 item 3); /healthz says it is down', async () => {
    const idp = await fakeIdp((port) => `http://127.0.0.1:${port}/oauth2/default`);
    const t = await startTestApp({
      APP_ENV: 'dev',
      IDP_MODE: 'external',
      IDP_ISSUER: `http://127.0.0.1:${idp.port}/oauth2/default`,
      IDP_CLIENT_ID: 'x',
      IDP_CLIENT_SECRET: 'y',
      BRAND_CLIENTS: '{}',
    });
    try {
      const up = await request(t.managementUrl).get('/readyz').expect(200);
      expect(up.body.checks.idpDiscovery).toBeUndefined();
      expect(await idpHealth(t.managementUrl, 'up')).toMatchObject({ status: 'up' });
      idp.server.closeAllConnections();
      await new Promise((r) => idp.server.close(r));
      // The next probe comes once the last word is IDP_PROBE_INTERVAL_MS old; a real call that
      // fails says so at once: a sign-in.
      await request(t.url).get('/signin').set('accept', 'text/html').expect(502);
      expect(await idpHealth(t.managementUrl, 'down')).toMatchObject({ status: 'down' });
      await request(t.managementUrl).get('/readyz').expect(200);
    } finally {
      await t.close();
      idp.server.closeAllConnections();
      idp.server.close();
    }
  });

  it('/healthz says so when the discovery document names another issuer; readiness stays', async () => {
    const idp = await fakeIdp(() => 'https://someone-else.example/oauth2/default');
    const t = await startTestApp({
      APP_ENV: 'dev',
      IDP_MODE: 'external',
      IDP_ISSUER: `http://127.0.0.1:${idp.port}/oauth2/default`,
      IDP_CLIENT_ID: 'x',
      IDP_CLIENT_SECRET: 'y',
      BRAND_CLIENTS: '{}',
    });
    try {
      await request(t.managementUrl).get('/readyz').expect(200);
      expect(await idpHealth(t.managementUrl, 'down')).toEqual({
        status: 'down',
        error: 'the discovery document names another issuer',
        since: expect.any(String),
      });
    } finally {
      await t.close();
      idp.server.closeAllConnections();
      idp.server.close();
    }
  });
});
