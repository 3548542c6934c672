import type { KoaContextWithOIDC } from 'oidc-provider';
import { SILENT_PARAM, keepOfflineAccess } from './embedded-idp';

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
