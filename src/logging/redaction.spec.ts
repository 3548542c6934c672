import { REDACTED, redactCallerUrl, redactUrl } from './redaction';

describe(redactUrl.name, () => {
  const table: [string, string][] = [
    ['/healthz', '/healthz'],
    [
      '/signin?b=psa&r=https%3A%2F%2Fwww.psacard.com',
      '/signin?b=psa&r=https%3A%2F%2Fwww.psacard.com',
    ],
    ['/collection?t=eyJhbGciOi.x.y', `/collection?t=${REDACTED}`],
    // docs/security.md, the offer key: the offer key of the page that asks before a cross-site `t`
    // signs in.
    [
      '/signin/continue?k=Qm9vLWhvby1vZmZlci1rZXktNDMtY2hhcmFjdGVycw',
      `/signin/continue?k=${REDACTED}`,
    ],
    ['/signin/continue?K=x&lang=fr-CA', `/signin/continue?K=${REDACTED}&lang=fr-CA`],
    [
      '/handleloginredirect?code=abc&state=xyz',
      `/handleloginredirect?code=${REDACTED}&state=${REDACTED}`,
    ],
    [
      'https://www.psacard.com/cb?si=1&t=2&rt=3&x=ok',
      `https://www.psacard.com/cb?si=${REDACTED}&t=${REDACTED}&rt=${REDACTED}&x=ok`,
    ],
    [
      '/cb?access_token=a&refresh_token=b&id_token=c',
      `/cb?access_token=${REDACTED}&refresh_token=${REDACTED}&id_token=${REDACTED}`,
    ],
    ['/cb?T=upper&Code=mixed', `/cb?T=${REDACTED}&Code=${REDACTED}`],
    ['/cb?%74=encoded-key', `/cb?%74=${REDACTED}`],
    ['/cb?%43ODE=encoded-upper', `/cb?%43ODE=${REDACTED}`],
    // A plus in a key is a space once decoded, so `id+token` is no key of ours.
    ['/cb?id+token=x&id_token=y', `/cb?id+token=x&id_token=${REDACTED}`],
    ['/cb?t=a&t=b', `/cb?t=${REDACTED}&t=${REDACTED}`],
    ['/cb?t=secret#frag', `/cb?t=${REDACTED}#frag`],
    ['/cb?%zz=bad-encoding&t=x', `/cb?%zz=bad-encoding&t=${REDACTED}`],
    ['/cb?t', '/cb?t'],
    ['/cb?password=hunter2&client_secret=s', `/cb?password=${REDACTED}&client_secret=${REDACTED}`],
    // A return URL's own query may carry a brand's tokens: it goes, the address stays readable.
    [
      '/signin?b=psa&r=https%3A%2F%2Fevil.example%2Fx%3Ftoken%3Dsecret%23frag',
      '/signin?b=psa&r=https%3A%2F%2Fevil.example%2Fx',
    ],
    [
      '/signin?fr=https%3A%2F%2Fu%3Ap%40www.psacard.com%2Fa%3Fsi%3D1',
      '/signin?fr=https%3A%2F%2Fwww.psacard.com%2Fa',
    ],
    ['/signin?r=%E0%A4%A', `/signin?r=${REDACTED}`],
  ];
  it.each(table)('%s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });
});

describe(redactCallerUrl.name, () => {
  it.each([
    ['https://evil.example/steal?token=secret#frag', 'https://evil.example/steal'],
    ['https://user:pass@www.psacard.com/x', 'https://www.psacard.com/x'],
    ['/orders?x=1', '/orders'],
    [`https://www.psacard.com/${'a'.repeat(300)}`, `https://www.psacard.com/${'a'.repeat(176)}…`],
  ])('%s', (input, expected) => {
    expect(redactCallerUrl(input)).toBe(expected);
  });
});
