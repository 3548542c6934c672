import { TRPCClientError } from '@trpc/client';
import { createApiClient } from '../../client/api/api-client';
import { useTestApp } from '../support/test-app';

/**
 * Issue 15 item 8, as an attacker would call cookie.setCookie over HTTP: a path that carries markup
 * or a quote, and SameSite=None without asking for Secure on an https deployment (which used to get
 * Secure added quietly). Each is BAD_REQUEST naming the field, and no Set-Cookie is sent.
 */
// An https public origin, as in qa and prod: the policy's cookies are Secure there.
const t = useTestApp({ PUBLIC_URL: 'https://signin.example.test' });

function api(seen: { setCookie: string[] }) {
  return createApiClient({
    baseUrl: t.url,
    locale: () => 'en-US',
    headers: () => ({ origin: 'https://signin.example.test' }),
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      seen.setCookie.push(...res.headers.getSetCookie());
      return res;
    },
  });
}

async function refusal(call: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof TRPCClientError)
      return { code: (error.data as { code?: unknown })?.code, message: error.message };
    throw error;
  }
  throw new Error('the write was accepted');
}

it.each([
  ['markup in the path', { path: '/"><script>alert(1)</script>' }, 'path:'],
  ['a backslash in the path', { path: '/a\\..\\b' }, 'path:'],
  ['a quote in the path', { path: '/a"b' }, 'path:'],
  ['SameSite=None without secure: true', { sameSite: 'none' as const }, 'sameSite:'],
])('%s: BAD_REQUEST naming the field, no cookie written', async (_name, extra, field) => {
  const seen = { setCookie: [] as string[] };
  const refused = await refusal(
    api(seen).cookie.setCookie.mutate({ cookieName: 'theme', value: 'dark', ...extra }),
  );
  expect(refused.code).toBe('BAD_REQUEST');
  expect(refused.message).toContain(field);
  expect(seen.setCookie).toEqual([]);
});

it('SameSite=None with secure: true is written as asked', async () => {
  const seen = { setCookie: [] as string[] };
  await api(seen).cookie.setCookie.mutate({
    cookieName: 'theme',
    value: 'dark',
    sameSite: 'none',
    secure: true,
  });
  expect(seen.setCookie).toHaveLength(1);
  expect(seen.setCookie[0]).toMatch(/^theme=dark;/);
  expect(seen.setCookie[0]).toContain('; Secure');
  expect(seen.setCookie[0]).toContain('; SameSite=None');
});
