import { REDACTED, redactUrl } from './redaction';

describe(redactUrl.name, () => {
  const table: [string, string][] = [
    ['/healthz', '/healthz'],
    [
      '/signin?b=psa&r=https%3A%2F%2Fwww.psacard.com',
      '/signin?b=psa&r=https%3A%2F%2Fwww.psacard.com',
    ],
    ['/collection?t=eyJhbGciOi.x.y', `/collection?t=${REDACTED}`],
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
    ['/cb?t=a&t=b', `/cb?t=${REDACTED}&t=${REDACTED}`],
    ['/cb?t=secret#frag', `/cb?t=${REDACTED}#frag`],
    ['/cb?%zz=bad-encoding&t=x', `/cb?%zz=bad-encoding&t=${REDACTED}`],
    ['/cb?t', '/cb?t'],
    ['/cb?password=hunter2&client_secret=s', `/cb?password=${REDACTED}&client_secret=${REDACTED}`],
  ];
  it.each(table)('%s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });
});
