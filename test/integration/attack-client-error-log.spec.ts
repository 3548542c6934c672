import { createApiClient } from '../../client/api/api-client';
import { useTestApp } from '../support/test-app';

/**
 * Issue 15 item 7, as an attacker (or a leaky page) would send it: log.clientError with a message and
 * a path full of secrets. None of them may reach the log (ASVS 5.0 16.2.5); the line says how many were
 * taken out. The call goes through the browser's own API client, over HTTP, to the real app.
 */
const t = useTestApp();

const JWT =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiIwMHUxIn0.c2lnbmF0dXJlLXZhbHVlLXNlY3JldA';
const SECRETS = [
  JWT,
  'bearer-secret-123',
  'cookie-secret-456',
  'si-secret',
  't-secret',
  'rt-secret',
  'refresh-secret-789',
  'hunter2-password',
  'fragment-secret',
];

it('a report full of secrets is logged without any of them, with a count', async () => {
  const api = createApiClient({
    baseUrl: t.url,
    locale: () => 'en-US',
    headers: () => ({ origin: new URL(t.config.http.publicUrl).origin }),
  });
  const message = [
    `Unhandled: token ${JWT}`,
    'Authorization: Bearer bearer-secret-123',
    'Cookie: sessionId=cookie-secret-456; theme=dark',
    'redirect to https://www.psacard.com/cb?si=si-secret&t=t-secret&rt=rt-secret&page=2',
    '{"refresh_token":"refresh-secret-789","expires_in":3600}',
    'form: email=a%40b.c&password=hunter2-password',
  ].join('\n');
  const { correlationId } = await api.log.clientError.mutate({
    message,
    path: '/collection?t=t-secret#access_token=fragment-secret',
  });
  const line = t.logs.records.find((r) => r.correlationId === correlationId);
  expect(line).toBeDefined();
  const logged = JSON.stringify(line);
  for (const secret of SECRETS) expect(logged).not.toContain(secret);
  expect(line).toMatchObject({ path: '/collection', msg: 'client error' });
  expect(String(line?.clientMessage)).toContain('Unhandled: token [Redacted]');
  expect(String(line?.clientMessage)).toContain('page=2');
  // JWT, the Authorization and Cookie lines, si, t, rt, the refresh token, the password; and the
  // path's query and fragment.
  expect(line?.redactions).toBe(9);
});

it('an ordinary report is logged as sent, with no count', async () => {
  const api = createApiClient({
    baseUrl: t.url,
    locale: () => 'en-US',
    headers: () => ({ origin: new URL(t.config.http.publicUrl).origin }),
  });
  const { correlationId } = await api.log.clientError.mutate({
    message: 'TypeError: cannot read properties of undefined (reading "rows")',
    path: '/account/sessions',
  });
  const line = t.logs.records.find((r) => r.correlationId === correlationId);
  expect(line).toMatchObject({
    clientMessage: 'TypeError: cannot read properties of undefined (reading "rows")',
    path: '/account/sessions',
  });
  expect(line).not.toHaveProperty('redactions');
});

it('issue 32 item 7: a token split across lines, or a long run after a secret’s name, leaves nothing of itself', async () => {
  const api = createApiClient({
    baseUrl: t.url,
    locale: () => 'en-US',
    headers: () => ({ origin: new URL(t.config.http.publicUrl).origin }),
  });
  const [header = '', payload = '', signature = ''] = JWT.split('.');
  const message = [
    `redirect to https://www.psacard.com/cb?t=${header.slice(0, 12)}`,
    `${header.slice(12)}.${payload}.${signature}&page=2`,
    `and ${header}`,
    `.${payload}.${signature}`,
    'refresh_token 8xLOxBtZp8QnZC0kE4ZrBg3aTq9wQ',
  ].join('\n');
  const { correlationId } = await api.log.clientError.mutate({ message, path: '/collection' });
  const line = t.logs.records.find((r) => r.correlationId === correlationId);
  const logged = String(line?.clientMessage);
  for (const part of [header.slice(12), payload, signature, '8xLOxBtZp8QnZC0kE4ZrBg3aTq9wQ'])
    expect(logged).not.toContain(part);
  expect(logged).toContain('page=2');
});
