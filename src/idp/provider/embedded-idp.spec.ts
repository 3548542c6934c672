import type { KoaContextWithOIDC } from 'oidc-provider';
import { SILENT_PARAM, keepOfflineAccess, ownEndpointsFetch } from './embedded-idp';

function ctxFor(
  query: Record<string, string>,
  path = '/v1/authorize',
  method = 'GET',
): KoaContextWithOIDC {
  return { method, path, query: { ...query } } as unknown as KoaContextWithOIDC;
}

describe(keepOfflineAccess.name, () => {
  const known = new Set(['collectors-signon']);
  const table: [string, Record<string, string>, Record<string, string | undefined>][] = [
    [
      'adds consent for offline_access',
      { client_id: 'collectors-signon', scope: 'openid offline_access' },
      { prompt: 'consent', [SILENT_PARAM]: undefined },
    ],
    [
      'keeps other prompts',
      { client_id: 'collectors-signon', scope: 'openid offline_access', prompt: 'login' },
      { prompt: 'login consent' },
    ],
    [
      'turns prompt=none into a silent consent',
      { client_id: 'collectors-signon', scope: 'openid offline_access', prompt: 'none' },
      { prompt: 'consent', [SILENT_PARAM]: 'true' },
    ],
    [
      'drops a caller-supplied silent flag',
      { client_id: 'collectors-signon', scope: 'openid offline_access', [SILENT_PARAM]: 'true' },
      { prompt: 'consent', [SILENT_PARAM]: undefined },
    ],
    [
      'leaves requests without offline_access alone',
      { client_id: 'collectors-signon', scope: 'openid', prompt: 'none' },
      { prompt: 'none' },
    ],
    [
      'leaves unknown clients alone',
      { client_id: 'someone', scope: 'openid offline_access' },
      { prompt: undefined },
    ],
  ];
  it.each(table)('%s', (_name, query, expected) => {
    const ctx = ctxFor(query);
    keepOfflineAccess(ctx, known);
    expect(ctx.query).toMatchObject(
      Object.fromEntries(Object.entries(expected).filter(([, v]) => v !== undefined)),
    );
    for (const [k, v] of Object.entries(expected))
      if (v === undefined) expect(ctx.query[k]).toBeUndefined();
  });

  it('only touches GET authorization requests', () => {
    const post = ctxFor(
      { client_id: 'collectors-signon', scope: 'openid offline_access' },
      '/v1/authorize',
      'POST',
    );
    keepOfflineAccess(post, known);
    expect(post.query.prompt).toBeUndefined();
    const token = ctxFor(
      { client_id: 'collectors-signon', scope: 'openid offline_access' },
      '/v1/token',
    );
    keepOfflineAccess(token, known);
    expect(token.query.prompt).toBeUndefined();
  });
});

// Issue 15 item 2: the IdP's back-channel logout reaches this service on loopback in a real process.
describe(ownEndpointsFetch.name, () => {
  const own = 'http://localhost:3333/backchannel-logout';
  const dispatcher = { ssrf: 'protected' };
  const seen: (RequestInit | undefined)[] = [];
  const fetch = ownEndpointsFetch(new Set([own]), (_input, init) => {
    seen.push(init);
    return Promise.resolve(new Response(null, { status: 200 }));
  });
  const init = () => ({ method: 'POST', dispatcher }) as RequestInit;

  it.each([
    ['our own back-channel URI, as a string', own, false],
    ['our own back-channel URI, as a URL', new URL(own), false],
    ['another path of the same origin', 'http://localhost:3333/backchannel-logout/x', true],
    ['another origin', 'http://127.0.0.1:3333/backchannel-logout', true],
    ['a brand', 'https://psa.example/backchannel-logout', true],
  ])('%s (%s): keeps the SSRF dispatcher: %s', async (_label, url, kept) => {
    seen.length = 0;
    await fetch(url, init());
    expect(seen[0]).toMatchObject({ method: 'POST' });
    expect('dispatcher' in (seen[0] ?? {})).toBe(kept);
  });
});
