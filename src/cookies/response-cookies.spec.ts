import type { Request } from 'express';
import type { AppConfig } from '../config/app-config';
import { ResponseCookies } from './response-cookies';

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
