import {
  CLIENT_SETTABLE_COOKIES,
  COOKIE_NAMES,
  COOKIE_POLICIES,
  CookieName,
  TOKEN_COOKIES,
  TOKEN_COOKIE_MAX_AGE,
  cookieOptionsFor,
  isAllowedCookieValue,
  isClientSettableCookie,
  isCookieName,
  secureFor,
} from './cookie-policy';
import { MAX_COOKIE_MAX_AGE, validateCookieWrite } from './cookie-validation';

describe('§9 constants', () => {
  it('the 864e4 of unknown unit is read as seconds: the token cookies live 100 days', () => {
    // As milliseconds it would be 2.4 hours, shorter than the refresh tokens the cookies carry.
    expect(TOKEN_COOKIE_MAX_AGE).toBe(864e4);
    expect(TOKEN_COOKIE_MAX_AGE).toBe(100 * 24 * 60 * 60);
  });
});

describe('COOKIE_POLICIES', () => {
  // §9 (and §3 for sessionCookie), read straight from the specification.
  const spec: [CookieName, number | undefined, string, string, boolean, boolean][] = [
    // name, maxAge (s), path, sameSite, httpOnly, credential
    ['accessToken', 8_640_000, '/', 'lax', true, true],
    ['refreshToken', 8_640_000, '/', 'lax', true, true],
    ['sessionId', 31_536_000, '/', 'lax', true, true],
    ['sessionCookie', undefined, '/', 'lax', true, true],
    ['theme', 3_155_695_200, '/', 'lax', false, false],
    ['QTM_SID', undefined, '/', 'lax', false, false],
    ['QTM_UID', 31_536_000, '/', 'lax', false, false],
    // Ours: binds a pending sign-in to the browser for the life of the login state.
    ['signinBinding', 600, '/', 'lax', true, true],
    // Ours: binds this origin's sessions to the browser that signed in, as long as sessionId lives.
    ['sessionBinding', 31_536_000, '/', 'lax', true, true],
  ];

  it.each(spec)(
    '%s: maxAge %s, path %s, SameSite %s, HttpOnly %s, credential %s',
    (name, maxAge, path, sameSite, httpOnly, credential) => {
      expect(COOKIE_POLICIES[name]).toMatchObject({ maxAge, path, sameSite, httpOnly, credential });
      expect(COOKIE_POLICIES[name].secure).toBe('except-localhost');
    },
  );

  it('covers exactly the cookies of the table', () => {
    expect(Object.keys(COOKIE_POLICIES).sort()).toEqual(spec.map(([name]) => name).sort());
    expect([...COOKIE_NAMES].sort()).toEqual(Object.keys(COOKIE_POLICIES).sort());
  });

  it('§4 Sign-out: the three token cookies are credentials and HttpOnly', () => {
    expect(TOKEN_COOKIES).toEqual(['accessToken', 'refreshToken', 'sessionId']);
    for (const name of TOKEN_COOKIES) {
      expect(COOKIE_POLICIES[name]).toMatchObject({ credential: true, httpOnly: true });
    }
  });

  it('cookie.setCookie may write only non-credential cookies', () => {
    expect([...CLIENT_SETTABLE_COOKIES].sort()).toEqual(['QTM_SID', 'QTM_UID', 'theme']);
    for (const name of CLIENT_SETTABLE_COOKIES)
      expect(COOKIE_POLICIES[name].credential).toBe(false);
    for (const name of COOKIE_NAMES) {
      expect(isClientSettableCookie(name)).toBe(!COOKIE_POLICIES[name].credential);
    }
  });

  it('every credential cookie is HttpOnly', () => {
    for (const name of COOKIE_NAMES) {
      if (COOKIE_POLICIES[name].credential) expect(COOKIE_POLICIES[name].httpOnly).toBe(true);
    }
  });

  it('the validation bound on Max-Age is the longest lifetime in the table (§9 theme)', () => {
    const longest = Math.max(...COOKIE_NAMES.map((n) => COOKIE_POLICIES[n].maxAge ?? 0));
    expect(MAX_COOKIE_MAX_AGE).toBe(longest);
  });

  it.each(COOKIE_NAMES.flatMap((name) => [[name, true] as const, [name, false] as const]))(
    'the policy of %s (secure %s) passes validation',
    (name, secure) => {
      expect(
        validateCookieWrite({ name, value: 'v', ...cookieOptionsFor(name, { secure }) }).ok,
      ).toBe(true);
    },
  );
});

describe(cookieOptionsFor.name, () => {
  it('returns the full options of a write, Secure from the deployment', () => {
    expect(cookieOptionsFor('accessToken', { secure: true })).toEqual({
      maxAge: 8_640_000,
      path: '/',
      sameSite: 'lax',
      httpOnly: true,
      secure: true,
    });
    expect(cookieOptionsFor('theme', { secure: false })).toEqual({
      maxAge: 3_155_695_200,
      path: '/',
      sameSite: 'lax',
      httpOnly: false,
      secure: false,
    });
  });

  it('leaves Max-Age out of a browser-session cookie', () => {
    expect(cookieOptionsFor('sessionCookie', { secure: true })).toEqual({
      path: '/',
      sameSite: 'lax',
      httpOnly: true,
      secure: true,
    });
    expect('maxAge' in cookieOptionsFor('sessionCookie', { secure: true })).toBe(false);
  });
});

describe(isCookieName.name, () => {
  it.each([
    ['accessToken', true],
    ['theme', true],
    ['QTM_UID', true],
    ['AccessToken', false],
    ['__proto__', false],
    ['toString', false],
    ['', false],
  ])('%s → %s', (name, expected) => {
    expect(isCookieName(name)).toBe(expected);
  });
});

describe(isAllowedCookieValue.name, () => {
  it.each([
    ['theme', 'light', true],
    ['theme', 'dark', true],
    ['theme', 'Dark', false],
    ['theme', 'blue', false],
    ['theme', '', false],
    ['QTM_SID', '3f2a9c0e1b7d4e5fa6b8c9d0e1f2a3b4', true],
    ['QTM_UID', 'user-123.abc_DEF', true],
    ['QTM_UID', '', false],
    ['QTM_UID', 'a'.repeat(129), false],
    ['QTM_SID', 'x&r=https://evil.com', false],
    ['accessToken', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln', true],
  ] as [CookieName, string, boolean][])('%s = %j → %s', (name, value, expected) => {
    expect(isAllowedCookieValue(name, value)).toBe(expected);
  });
});

describe(secureFor.name, () => {
  // §9 "secure except on localhost": only plain http on a loopback host drops Secure.
  const table: [string, boolean][] = [
    ['http://localhost:3333', false],
    ['http://localhost', false],
    ['http://LOCALHOST:3333/collection', false],
    ['http://127.0.0.1:3333', false],
    ['http://[::1]:3333', false],
    ['https://localhost:3333', true],
    ['https://signin.collectors.com', true],
    ['http://signin.collectors.com', true],
    ['http://localhost.evil.com', true],
    ['http://localhost.:3333', true],
    ['http://evil.com/localhost', true],
    ['http://localhost@evil.com', true],
    ['http://127.0.0.1.nip.io', true],
    ['http://10.0.0.1:3333', true],
    ['not a url', true],
    ['', true],
  ];
  it.each(table)('%s → %s', (url, expected) => {
    expect(secureFor(url)).toBe(expected);
  });
});
