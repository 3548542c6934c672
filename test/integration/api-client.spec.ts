import { createApiClient, withCursor } from '../../client/api/api-client';
import { NETWORK_MESSAGES } from '../../client/api/network-fetch';
import { freePort } from '../support/free-port';
import { SignedIn, signedInSession } from '../support/account-api';
import { useTestApp } from '../support/test-app';

interface Sent {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
}

/**
 * The browser's account API client (client/api/api-client.ts) against the real app: the same module
 * the bundle runs, here with Node's fetch and the session cookie a browser would send.
 */
describe('account API client (issue 5: the browser client)', () => {
  const t = useTestApp();
  let collector: SignedIn;
  beforeAll(async () => {
    collector = await signedInSession(t);
  }, 60_000);

  function client(options: { cookie?: string; ssr?: boolean; onUnauthorized?: () => void } = {}) {
    const sent: Sent[] = [];
    const api = createApiClient({
      baseUrl: t.url,
      locale: () => 'fr-CA',
      ...(options.ssr ? { ssr: true } : {}),
      ...(options.onUnauthorized ? { onUnauthorized: options.onUnauthorized } : {}),
      headers: () => ({
        ...(options.cookie ? { cookie: options.cookie } : {}),
        origin: new URL(t.config.http.publicUrl).origin,
      }),
      fetch: (input, init) => {
        sent.push({
          url: input instanceof Request ? input.url : input instanceof URL ? input.href : input,
          method: init?.method ?? 'GET',
          headers: Object.fromEntries(new Headers(init?.headers).entries()),
        });
        return fetch(input, init);
      },
    });
    return { api, sent };
  }

  it('batches queries into one GET with the locale and CSRF headers', async () => {
    const { api, sent } = client({ cookie: collector.cookie });
    const [a, b] = await Promise.all([api.account.status.query(), api.account.status.query()]);
    expect(a).toMatchObject({ isSignedIn: true });
    expect(b).toEqual(a);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('GET');
    expect(new URL(sent[0]?.url ?? '').pathname).toBe(
      '/api/collectors-web/trpc/account.status,account.status',
    );
    expect(sent[0]?.headers['x-locale']).toBe('fr-CA');
    expect(sent[0]?.headers['x-collectors-csrf']).toBe('1');
    expect(sent[0]?.headers['x-ssr']).toBeUndefined();
  });

  it('sends mutations by POST with hex inputs, and cookie.setCookie alone even beside others', async () => {
    const { api, sent } = client({ cookie: collector.cookie });
    await Promise.all([
      api.cookie.setCookie.mutate({ cookieName: 'theme', value: 'dark' }),
      api.log.clientError.mutate({ message: 'm', path: '/collection' }),
      api.log.signinEvent.mutate({ b: 'psa' }),
    ]);
    const paths = sent.map((s) => `${s.method} ${new URL(s.url).pathname}`).sort();
    expect(paths).toEqual([
      'POST /api/collectors-web/trpc/cookie.setCookie',
      'POST /api/collectors-web/trpc/log.clientError,log.signinEvent',
    ]);
  });

  it('sends a call marked skipBatch on its own', async () => {
    const { api, sent } = client({ cookie: collector.cookie });
    await Promise.all([
      api.account.status.query(undefined, { context: { skipBatch: true } }),
      api.account.status.query(),
    ]);
    expect(sent.map((s) => new URL(s.url).pathname).sort()).toEqual([
      '/api/collectors-web/trpc/account.status',
      '/api/collectors-web/trpc/account.status',
    ]);
    expect(sent.some((s) => new URL(s.url).searchParams.get('batch') === '1')).toBe(true);
    expect(sent.some((s) => new URL(s.url).searchParams.get('batch') === null)).toBe(true);
  });

  it('marks server-side calls with x-ssr', async () => {
    const { api, sent } = client({ cookie: collector.cookie, ssr: true });
    await api.account.status.query();
    expect(sent[0]?.headers['x-ssr']).toBe('1');
  });

  it('reports UNAUTHORIZED (§8) except for log.signinEvent', async () => {
    let redirects = 0;
    const { api } = client({ onUnauthorized: () => (redirects += 1) });
    await expect(
      api.account.updateAccountInfoPartial.mutate({ acceptedTermsAndConditions: true }),
    ).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
    expect(redirects).toBe(1);
    await api.log.signinEvent.mutate({ b: 'psa' });
    expect(redirects).toBe(1);
  });

  it("names an unreachable service 'Network request failed'", async () => {
    const port = await freePort();
    const api = createApiClient({ baseUrl: `http://127.0.0.1:${port}`, locale: () => 'en-US' });
    await expect(api.account.status.query()).rejects.toThrow(NETWORK_MESSAGES.failed);
  });

  it('adds the cursor of a paginated call to its input (§7)', () => {
    expect(withCursor({ limit: 10 }, undefined)).toEqual({ limit: 10 });
    expect(withCursor({ limit: 10 }, null)).toEqual({ limit: 10 });
    expect(withCursor({ limit: 10 }, 'c2')).toEqual({ limit: 10, cursor: 'c2' });
  });
});
