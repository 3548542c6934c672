import type { KoaContextWithOIDC } from 'oidc-provider';
import { AppError } from '../../errors/app-error';
import { PROVIDER_PAGES } from './provider-pages';

function fakeContext(requestId?: string) {
  const headers: Record<string, string> = {};
  const ctx = {
    status: 400,
    type: '',
    body: '',
    req: { id: requestId },
    set: (name: string, value: string) => {
      headers[name] = value;
    },
  };
  return { ctx, headers, as: ctx as unknown as KoaContextWithOIDC };
}

describe('PROVIDER_PAGES.renderError', () => {
  it('names the OAuth error and the reference, escaped, and is never stored', async () => {
    const { ctx, headers, as } = fakeContext('req-1234abcd');
    await PROVIDER_PAGES.renderError(as, { error: 'invalid_request<script>' }, new Error('x'));
    expect(ctx.status).toBe(400);
    expect(headers['Cache-Control']).toBe('no-store');
    expect(ctx.body).toContain('<code>invalid_request&#60;script&#62;</code>');
    expect(ctx.body).not.toContain('<script>');
    expect(ctx.body).toContain('Reference: <code>req-1234abcd</code>');
    expect(ctx.body).toContain('Go back to the site you came from');
  });

  it('answers 503 and says to retry when its state store is down', async () => {
    const { ctx, as } = fakeContext('req-5678efgh');
    const outage = new AppError('ServiceUnavailable', 'the embedded IdP state store is down');
    await PROVIDER_PAGES.renderError(as, { error: 'server_error' }, outage);
    expect(ctx.status).toBe(503);
    expect(ctx.body).toContain('briefly unavailable');
    expect(ctx.body).not.toContain('state store is down');
  });

  it('leaves the reference out when the request has no id', async () => {
    const { ctx, as } = fakeContext();
    await PROVIDER_PAGES.renderError(as, { error: 'server_error' }, new Error('x'));
    expect(ctx.body).not.toContain('Reference');
  });
});
