import { scrubClientPath, scrubClientText } from './scrub-client-text';

const JWT =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiIwMHUxIiwiQ29sbGVjdG9yc0lkIjoxMDAwMDF9.c2lnbmF0dXJlLXZhbHVl';

describe(scrubClientText.name, () => {
  // [what the page sent, what the log keeps, how many secrets went]
  const table: [string, string, string, number][] = [
    // Issue 32 item 7: secrets split by line breaks, and long runs after a secret's name.
    [
      'a t whose token a line break splits',
      `cb?t=${JWT.slice(0, 20)}\n${JWT.slice(20)}&page=2`,
      'cb?t=[Redacted]&page=2',
      1,
    ],
    ['a line break right after t=', `cb?t=\n${JWT} end`, 'cb?t=[Redacted] end', 1],
    // docs/security.md, the offer key: the offer key of /signin/continue, in a URL a message
    // quotes.
    [
      'the offer key of the page that asks before a t signs in',
      'at https://signon.collectors.com/signin/continue?k=Qm9vLWhvby1vZmZlci1rZXktNDMtY2hhcmFjdGVycw&lang=fr-CA',
      'at https://signon.collectors.com/signin/continue?k=[Redacted]&lang=fr-CA',
      1,
    ],
    [
      'a JWT broken at its dots',
      `token ${JWT.split('.').join('\n.')} end`,
      'token [Redacted] end',
      1,
    ],
    [
      'a JWT broken inside its payload',
      `got ${JWT.slice(0, 60)}\r\n  ${JWT.slice(60)} end`,
      'got [Redacted] end',
      1,
    ],
    [
      'a base64url run after a secret’s name and a space',
      'refresh_token 8xLOxBtZp8QnZC0kE4ZrBg3aTq9wQ end',
      'refresh_token [Redacted] end',
      1,
    ],
    [
      'a base64url run after a secret’s name, split across lines',
      'sessionId:\n  8xLOxBtZp8QnZC0k\n  E4ZrBg3aTq9wQ',
      'sessionId:[Redacted]',
      1,
    ],
    [
      'a short word after a secret’s name stays',
      'password field is empty',
      'password field is empty',
      0,
    ],
    [
      'a plain message stays',
      'TypeError: x is undefined at Collection',
      'TypeError: x is undefined at Collection',
      0,
    ],
    ['a JWT anywhere', `failed with ${JWT} in state`, 'failed with [Redacted] in state', 1],
    [
      'a bearer token',
      'Authorization failed for Bearer abc.DEF-123_~+/=',
      'Authorization failed for Bearer [Redacted]',
      1,
    ],
    ['a Basic credential', 'sent basic dXNlcjpwYXNz', 'sent basic [Redacted]', 1],
    [
      'a Cookie header line',
      'headers: Cookie: sessionId=abc; sessionBinding=def\nnext line',
      'headers: Cookie: [Redacted]\nnext line',
      1,
    ],
    ['an Authorization header line', 'authorization: Token xyz', 'authorization: [Redacted]', 1],
    [
      'a URL with si, t and rt',
      'GET https://www.psacard.com/cb?si=S1&t=T2&rt=R3&page=2 failed',
      'GET https://www.psacard.com/cb?si=[Redacted]&t=[Redacted]&rt=[Redacted]&page=2 failed',
      3,
    ],
    [
      'a fragment with a token',
      'at /x#access_token=abc&token_type=Bearer',
      'at /x#access_token=[Redacted]&token_type=[Redacted]',
      2,
    ],
    [
      'refresh-token JSON',
      '{"refresh_token":"r-123","expires_in":3600}',
      '{"refresh_token":"[Redacted]","expires_in":3600}',
      1,
    ],
    ['JSON with a JWT value', `{"id_token":"${JWT}"}`, '{"id_token":"[Redacted]"}', 1],
    [
      'a JS object as printed',
      "{ password: 'hunter2', email: 'a@b.c' }",
      '{ password: "[Redacted]", email: \'a@b.c\' }',
      1,
    ],
    [
      'a form body',
      'email=a%40b.c&password=hunter2&action=submit',
      'email=a%40b.c&password=[Redacted]&action=submit',
      1,
    ],
    [
      'an API key',
      'x-api-key=k-1 and apiKey: "k-2"',
      'x-api-key=[Redacted] and apiKey: "[Redacted]"',
      2,
    ],
    ['a client secret', 'client_secret=s3cr3t', 'client_secret=[Redacted]', 1],
    [
      'keys that only look alike stay',
      'author=Ann&tab=vault&stats=1',
      'author=Ann&tab=vault&stats=1',
      0,
    ],
  ];
  it.each(table)('%s', (_name, input, expected, removed) => {
    expect(scrubClientText(input)).toEqual({ text: expected, removed });
  });
});

describe(scrubClientPath.name, () => {
  it.each([
    ['/collection', '/collection', 0],
    ['/collection?t=abc', '/collection', 1],
    ['/collection#access_token=abc', '/collection', 1],
    [`/cb/${JWT}`, '/cb/[Redacted]', 1],
  ])('%s', (path, text, removed) => {
    expect(scrubClientPath(path)).toEqual({ text, removed });
  });
});
