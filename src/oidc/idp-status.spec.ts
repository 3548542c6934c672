import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { PassThrough } from 'node:stream';
import { testConfig } from '../../test/support/test-config';
import { AppLogger } from '../logging/app-logger';
import { AppMetrics } from '../metrics';
import * as path from 'node:path';
import { tempDataDir } from '../../test/support/test-config';
import { SqliteSessionStore } from '../store/sqlite-session-store';
import { IdpCalls } from './idp-calls';
import { IdpRateLimited } from './idp-rate-limit';
import { IDP_PROBE_INTERVAL_MS, IdpStatus } from './idp-status';
import { IdpError } from './oidc-client';

/** The guard every IdP call passes, on a real SQLite store of its own. */
const idpCalls = (metrics: AppMetrics) =>
  new IdpCalls(
    new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite'), Date.now, 'test', false),
    metrics,
    new AppLogger(pino({ level: 'silent' })),
  );

function watcher(issuer: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
      lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  const metrics = new AppMetrics();
  const config = testConfig({
    APP_ENV: 'dev',
    IDP_MODE: 'external',
    IDP_ISSUER: issuer,
    IDP_CLIENT_ID: 'c',
    IDP_CLIENT_SECRET: 's'.repeat(40),
    BRAND_CLIENTS: '{}',
  });
  const status = new IdpStatus(config, metrics, new AppLogger(pino(stream)), idpCalls(metrics));
  const gauge = async () => (await metrics.idpUp.get()).values[0]?.value;
  const outages = async () => (await metrics.idpOutages.get()).values[0]?.value;
  return { status, lines, gauge, outages };
}

describe(IdpStatus.name, () => {
  it('logs each change once, counts outages, and keeps the gauge (issue 31 item 3)', async () => {
    const { status, lines, gauge, outages } = watcher('https://login.example/oauth2/default');
    status.report(true, undefined, 0);
    expect(status.current(0)).toMatchObject({ status: 'up' });
    expect(await gauge()).toBe(1);
    status.report(false, new Error('connect ECONNREFUSED 10.0.0.1:443'), 1);
    status.report(false, new Error('connect ECONNREFUSED 10.0.0.1:443'), 2);
    expect(status.current(2)).toMatchObject({
      status: 'down',
      error: 'connect ECONNREFUSED 10.0.0.1:443',
    });
    expect(await gauge()).toBe(0);
    expect(await outages()).toBe(1);
    status.report(true, undefined, 3);
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => l.event)).toEqual(['idp-down', 'idp-up']);
  });

  it('takes a 429 for an answer: up, no idp-down line; a call not made says nothing', async () => {
    const { status, lines, gauge, outages } = watcher('https://login.example/oauth2/default');
    status.report(true, undefined, 0);
    status.report(false, new Error('x', { cause: new IdpRateLimited('token', 60_000, false) }), 1);
    expect(status.current(1)).toMatchObject({ status: 'up' });
    status.report(false, new IdpRateLimited('token', 60_000, true), 2);
    expect(status.current(2)).toMatchObject({ status: 'up' });
    expect(await gauge()).toBe(1);
    expect(await outages()).toBe(0);
    expect(lines.map((l) => l.event)).not.toContain('idp-down');
  });

  it('is not watched with the embedded IdP', () => {
    const metrics = new AppMetrics();
    const status = new IdpStatus(
      testConfig(),
      metrics,
      new AppLogger(pino({ level: 'silent' })),
      idpCalls(metrics),
    );
    expect(status.watched).toBe(false);
    status.report(false, new Error('x'));
    expect(status.current()).toEqual({ status: 'unknown' });
  });

  describe('the background probe of the discovery document', () => {
    let server: http.Server;
    let answer: (res: http.ServerResponse) => void = () => undefined;
    let issuer = '';
    beforeAll(async () => {
      server = http.createServer((_req, res) => answer(res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/default`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it.each([
      ['a matching document', 200, () => ({ issuer }), 'up', undefined],
      ['an HTTP error', 503, () => ({}), 'down', 'discovery answered HTTP 503'],
      [
        'another issuer',
        200,
        () => ({ issuer: 'https://evil.example' }),
        'down',
        'names another issuer',
      ],
    ])('%s: %s', async (_name, code, body, expected, error) => {
      answer = (res) => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body()));
      };
      const { status } = watcher(issuer);
      expect(status.current(Date.now())).toEqual({ status: 'unknown' });
      await status.settled();
      const state = status.current(Date.now());
      expect(state.status).toBe(expected);
      if (error) expect(state.error).toContain(error);
    });

    it('asks again only once the last word is older than the interval', async () => {
      let asked = 0;
      answer = (res) => {
        asked += 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ issuer }));
      };
      const { status } = watcher(issuer);
      const start = Date.now();
      status.current(start);
      await status.settled();
      status.current(Date.now());
      await status.settled();
      expect(asked).toBe(1);
      status.current(Date.now() + IDP_PROBE_INTERVAL_MS);
      await status.settled();
      expect(asked).toBe(2);
    });
  });
});

describe('IdpError: an outage or a refusal', () => {
  it.each([
    ['no OAuth answer (unreachable, 5xx page)', undefined, false, true, 'OktaError'],
    ['server_error (RFC 6749 §5.2)', 'server_error', false, true, 'OktaError'],
    ['temporarily_unavailable', 'temporarily_unavailable', false, true, 'OktaError'],
    ['invalid_grant', 'invalid_grant', false, false, 'SigninFailed'],
    ['login_required', 'login_required', false, false, 'SigninFailed'],
    ['an answer that did not validate', undefined, true, false, 'SigninFailed'],
  ])('%s', (_name, oauthError, invalidResponse, outage, code) => {
    const error = new IdpError('x', oauthError, { invalidResponse });
    expect(error.outage).toBe(outage);
    expect(error.code).toBe(code);
  });

  it.each([
    ['the IdP answered 429', false],
    ['the call was held back', true],
  ])('rate-limited (%s): neither, 429 IdpRateLimited with the time to retry', (_name, local) => {
    const limit = new IdpRateLimited('token', 1_000_000, local);
    // openid-client wraps what its fetch threw in an error of its own.
    const error = new IdpError('x', undefined, { cause: new Error('wrapped', { cause: limit }) });
    expect(error).toMatchObject({ outage: false, undecided: true, rateLimit: limit });
    expect(error.code).toBe('IdpRateLimited');
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds(990_500)).toBe(10);
  });
});
