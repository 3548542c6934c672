import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { encodeHexJson } from '../../src/api/hex-json-transformer';
import { CSRF_HEADER } from '../../src/api/trpc';
import { ROUTES } from '../../src/shared/routes';
import { useTestApp } from '../support/test-app';

/**
 * Issue 50 item 5, as an attacker would go about it: an IPv6 host picks its own interface ids, so a
 * client that rotates its address inside its /64 got a fresh budget from every limit counted per
 * address. Behind one proxy (TRUST_PROXY=1) the address is the balancer's X-Forwarded-For entry; the
 * limits now count an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 one.
 */
const LIMIT = 3;
const t = useTestApp({
  TRUST_PROXY: '1',
  RATE_LIMIT_SIGNIN: `${LIMIT}/60`,
  RATE_LIMIT_SIGNIN_SESSION: '1000/60',
  RATE_LIMIT_CREDENTIAL_POSTS: `${LIMIT}/60`,
  RATE_LIMIT_CLIENT_ERRORS: `${LIMIT}/60`,
});

/** A fresh /64 for each test, and any address inside it. */
const network = (): string =>
  `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
const hostIn = (prefix: string): string =>
  `${prefix}:${[0, 1, 2, 3].map(() => randomBytes(2).toString('hex')).join(':')}`;

/** The four kinds of counted request, each as an anonymous client sends it. */
const SENDS = {
  '/signin': (from: string) => request(t.url).get('/signin?b=psa').set('x-forwarded-for', from),
  'a sign-in step post': (from: string) =>
    request(t.url)
      .post('/idp/signin/some-interaction')
      .type('form')
      .set('x-forwarded-for', from)
      .send({ csrf: 'x' }),
  'log.clientError': (from: string) =>
    request(`${t.url}${ROUTES.api}`)
      .post('/log.clientError')
      .set(CSRF_HEADER, '1')
      .set('x-forwarded-for', from)
      .type('json')
      .send(JSON.stringify(encodeHexJson({ message: 'm', path: '/' }))),
  // Counted per address (RATE_LIMIT_SIGNIN) before it looks for a session.
  'log.signinEvent': (from: string) =>
    request(`${t.url}${ROUTES.api}`)
      .post('/log.signinEvent')
      .set(CSRF_HEADER, '1')
      .set('x-forwarded-for', from)
      .type('json')
      .send(JSON.stringify(encodeHexJson({ b: 'psa' }))),
};

describe.each(Object.entries(SENDS))('%s, from addresses a client picks', (_route, send) => {
  it('counts every address of one IPv6 /64 as one client', async () => {
    const prefix = network();
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await send(hostIn(prefix))).status);
    expect(statuses.slice(0, LIMIT)).not.toContain(429);
    expect(statuses[LIMIT]).toBe(429);
    // Another /64 is another client.
    expect((await send(hostIn(network()))).status).not.toBe(429);
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address it maps', async () => {
    const v4 = `198.51.100.${1 + ((randomBytes(1)[0] ?? 0) % 250)}`;
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++)
      statuses.push((await send(i % 2 === 0 ? `::ffff:${v4}` : v4)).status);
    expect(statuses.slice(0, LIMIT)).not.toContain(429);
    expect(statuses[LIMIT]).toBe(429);
  });

  it('keeps IPv4 clients apart by address', async () => {
    const base = `192.0.2.${1 + ((randomBytes(1)[0] ?? 0) % 200)}`;
    for (let i = 0; i < LIMIT; i++) expect((await send(base)).status).not.toBe(429);
    expect((await send(base)).status).toBe(429);
    const [a, b, c] = base.split('.');
    expect((await send(`${a}.${b}.${c}.254`)).status).not.toBe(429);
  });
});
