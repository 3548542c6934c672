import { freePort } from '../support/free-port';
import { cookieAttributes, setCookies } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 15 item 9, as an attacker on a sibling subdomain (or a plain-http page of the same host)
 * would try it: plant a `signinBinding` cookie of their own so that a victim's browser completes the
 * attacker's sign-in (login CSRF), or shadow the real one. Where the origin is https the bindings are
 * `__Host-` cookies (RFC 6265bis §4.1.3.2): Secure, host-only, Path=/, which no other host can set,
 * and the service reads only the prefixed name there.
 */
// An https public origin (as in qa and prod); the embedded IdP stays reachable over loopback.
const t = useTestApp(async () => {
  const port = await freePort();
  return {
    PORT: String(port),
    PUBLIC_URL: 'https://signin.example.test',
    IDP_ISSUER: `http://127.0.0.1:${port}/oauth2/default`,
  };
});

async function startSignin(): Promise<{ state: string; binding: string; header: string }> {
  const res = await fetch(`${t.url}/signin?b=psa`, { redirect: 'manual' });
  const header = setCookies(res).get('__Host-signinBinding') ?? '';
  const state = new URL(res.headers.get('location') ?? '').searchParams.get('state') ?? '';
  return { state, binding: header.split(';')[0]?.split('=')[1] ?? '', header };
}

/** The landing as the IdP would send the browser back, with the given Cookie header. */
async function land(state: string, cookie: string): Promise<string> {
  const res = await fetch(
    `${t.url}/handleloginredirect?state=${encodeURIComponent(state)}&error=access_denied`,
    { redirect: 'manual', headers: { cookie, accept: 'application/json' } },
  );
  return ((await res.json()) as { error: string }).error;
}

it('the sign-in binding is a __Host- cookie on an https origin: Secure, host-only, Path=/', async () => {
  const { header, binding } = await startSignin();
  expect(binding).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const attributes = cookieAttributes(header);
  expect(attributes.has('secure')).toBe(true);
  expect(attributes.has('httponly')).toBe(true);
  expect(attributes.get('path')).toBe('/');
  expect(attributes.has('domain')).toBe(false);
});

it('a planted plain signinBinding is not the binding: the landing refuses the state', async () => {
  const { state, binding } = await startSignin();
  // The right value under the name a sibling host could set: refused as from another browser.
  expect(await land(state, `signinBinding=${binding}`)).toBe('InvalidLoginState');
});

it('the __Host- cookie is: the same landing passes the state check', async () => {
  const { state, binding } = await startSignin();
  // Past the state check, the IdP's access_denied is what the collector is told.
  expect(await land(state, `__Host-signinBinding=${binding}`)).toBe('SigninFailed');
});
