import { encodeHexJson } from '../../src/shared/hex-json';
import { Browser } from '../support/browser';
import { signInVia } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 32 item 4, the attacker's view. One request without a cookie (an <img> on any site can send
 * it) named account.sessions 940 times: 941 log lines, 15.5 MB. A POST batch of 1,000
 * log.signinEvent calls wrote 1,000 forged sign-ins and moved signins_total by 1,000.
 */
const t = useTestApp({ RATE_LIMIT_SIGNIN: '1000/60', RATE_LIMIT_SIGNIN_SESSION: '3/60' });

const API = '/api/collectors-web/trpc';
const origin = () => new URL(t.config.http.publicUrl).origin;

/** The log lines a request wrote (by its request id), once they are all there. */
function linesOf(id: string): string[] {
  return t.logs.lines.filter((l) => l.includes(id));
}

async function signinsTotal(): Promise<number> {
  const text = await (await fetch(`${t.managementUrl}/metrics`)).text();
  return [...text.matchAll(/^signins_total\{[^}]*\} (\d+)$/gm)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  );
}

it('a batch of 940 calls is refused whole, in one small log line', async () => {
  const paths = Array.from({ length: 940 }, () => 'account.sessions').join(',');
  const res = await fetch(`${t.url}${API}/${paths}?batch=1`);
  expect(res.status).toBe(400);
  const body = (await res.json()) as
    { error?: { message: string } }[] | { error?: { message: string } };
  expect(JSON.stringify(body)).toContain('Batch call exceeds maximum size');
  const id = res.headers.get('x-request-id') ?? '';
  await new Promise((r) => setTimeout(r, 50));
  const lines = linesOf(id);
  // The access line and the refusal: never one per call, and never the 16 kB URL.
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(lines.join('\n').length).toBeLessThan(3_000);
  expect(lines.join('\n')).toContain('characters]');
});

it('ten refused calls in one batch write one refusal line', async () => {
  const paths = Array.from({ length: 10 }, () => 'account.sessions').join(',');
  const res = await fetch(`${t.url}${API}/${paths}?batch=1`);
  expect(res.status).toBe(401);
  const id = res.headers.get('x-request-id') ?? '';
  await new Promise((r) => setTimeout(r, 50));
  expect(linesOf(id).filter((l) => l.includes('api call refused'))).toHaveLength(1);
});

/** A POST batch of log.signinEvent calls, as the browser's client sends mutations. */
async function signinEvents(n: number, cookie?: string): Promise<Response> {
  const input = Object.fromEntries(
    Array.from({ length: n }, (_, i) => [String(i), encodeHexJson({ b: 'psa' })]),
  );
  return fetch(
    `${t.url}${API}/${Array.from({ length: n }, () => 'log.signinEvent').join(',')}?batch=1`,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-collectors-csrf': '1',
        origin: origin(),
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify(input),
    },
  );
}

it('1,000 forged sign-in events are refused whole; without a session, none counts', async () => {
  const before = await signinsTotal();
  expect((await signinEvents(1000)).status).toBe(400);
  const anonymous = await signinEvents(5);
  expect(anonymous.status).toBe(200);
  expect(JSON.stringify(await anonymous.json())).toContain('"recorded":false');
  expect(await signinsTotal()).toBe(before);
});

it('a live session’s events count, up to the per-session limit', async () => {
  const browser = new Browser();
  await signInVia(t, browser, 'b=collectors');
  const cookie = await browser.jar.getCookieString(t.url);
  const before = await signinsTotal();
  const res = await signinEvents(5, cookie);
  expect(res.status).toBe(429);
  // RATE_LIMIT_SIGNIN_SESSION=3/60: three counted, the rest refused.
  expect((await signinsTotal()) - before).toBe(3);
});
