import type { Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';
import {
  MAX_SESSION_ID_CANDIDATES,
  ResponseCookies,
  sessionIdCandidates,
} from './response-cookies';

const cookiesFor = (publicUrl: string) =>
  new ResponseCookies({ http: { publicUrl } } as unknown as AppConfig);
const requestWith = (cookie?: string) => ({ headers: { cookie } }) as unknown as Request;

describe('ResponseCookies.read', () => {
  it('reads the service cookies by name; on https only the __Host- binding counts', () => {
    const header = 'sessionId=abc; signinBinding=planted; __Host-signinBinding=real';
    expect(cookiesFor('http://localhost:3333').read(requestWith(header))).toMatchObject({
      sessionId: 'abc',
      signinBinding: 'planted',
    });
    expect(cookiesFor('https://signin.collectors.com').read(requestWith(header))).toMatchObject({
      sessionId: 'abc',
      signinBinding: 'real',
    });
    expect(
      cookiesFor('https://signin.collectors.com').read(requestWith('signinBinding=planted'))
        .signinBinding,
    ).toBeUndefined();
  });

  it('parses a request once, and again only when its Cookie header changed', () => {
    const cookies = cookiesFor('http://localhost:3333');
    const req = requestWith('sessionId=one');
    const first = cookies.read(req);
    expect(cookies.read(req)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    req.headers.cookie = 'sessionId=two';
    expect(cookies.read(req).sessionId).toBe('two');
    // Another request with the same header is its own reading.
    expect(cookies.read(requestWith('sessionId=one'))).not.toBe(first);
  });
});

/** Session ids as this service makes them: 43 base64url characters. */
const id = (c: string) => c.repeat(43);

describe(sessionIdCandidates.name, () => {
  const http = { secure: false };
  const https = { secure: true };
  const table: [string, string, { secure: boolean }, string[]][] = [
    ['none', 'theme=dark', http, []],
    ['one', `sessionId=${id('a')}`, http, [id('a')]],
    // docs/security.md, a shadowed session cookie: a sibling's planted value comes first; every one
    // is a candidate, in order.
    ['several on http', `sessionId=${id('x')}; sessionId=${id('a')}`, http, [id('x'), id('a')]],
    ['the same one twice', `sessionId=${id('a')}; sessionId=${id('a')}`, http, [id('a')]],
    ['not an id of ours', `sessionId=planted; sessionId=${id('a')}`, http, [id('a')]],
    [
      'on https, __Host-sessionId alone when present',
      `sessionId=${id('x')}; __Host-sessionId=${id('a')}`,
      https,
      [id('a')],
    ],
    [
      'on https without it, the plain ones a browser may hold from before',
      `sessionId=${id('x')}; sessionId=${id('a')}`,
      https,
      [id('x'), id('a')],
    ],
    ['on http, __Host- means nothing', `__Host-sessionId=${id('a')}`, http, []],
  ];
  it.each(table)('%s', (_label, header, deployment, expected) => {
    expect(sessionIdCandidates(header, deployment)).toEqual(expected);
  });

  it(`tries at most ${MAX_SESSION_ID_CANDIDATES}`, () => {
    const header = ['b', 'c', 'd', 'e', 'f', 'g'].map((c) => `sessionId=${id(c)}`).join('; ');
    expect(sessionIdCandidates(header, { secure: false })).toHaveLength(MAX_SESSION_ID_CANDIDATES);
  });
});

describe('ResponseCookies writes', () => {
  const responseOf = () => {
    const headers: string[] = [];
    const res = {
      append: (_name: string, value: string) => headers.push(value.split(';')[0] ?? ''),
    } as unknown as Response;
    return { res, headers };
  };

  it('writes sessionId as __Host-sessionId on https and clears the plain copy of before', () => {
    const { res, headers } = responseOf();
    cookiesFor('https://signin.collectors.com').set(res, 'sessionId', id('a'));
    expect(headers).toEqual([`__Host-sessionId=${id('a')}`, 'sessionId=']);
  });

  it('writes the plain name on http://localhost, where __Host- is not allowed', () => {
    const { res, headers } = responseOf();
    cookiesFor('http://localhost:3333').set(res, 'sessionId', id('a'));
    expect(headers).toEqual([`sessionId=${id('a')}`]);
  });

  it('clears both names on https', () => {
    const { res, headers } = responseOf();
    cookiesFor('https://signin.collectors.com').clear(res, 'sessionId');
    expect(headers).toEqual(['__Host-sessionId=', 'sessionId=']);
  });
});
