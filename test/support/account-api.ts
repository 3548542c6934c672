import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { Browser } from './browser';
import { EMAIL, jarCookie } from './signin-journey';
import { csrfOf, formActionOf } from './signin-steps';
import type { TestApp } from './test-app';

/** A collector signed in to the service: the Cookie header a browser would send, and its session id. */
export interface SignedIn {
  readonly cookie: string;
  readonly sessionId: string;
}

/**
 * Signs `email` in through /signin and the embedded IdP's steps, as a browser without JavaScript
 * does, and returns the service's cookies once the landing has answered. Optional steps (second-factor
 * set-up prompt, survey) are skipped, so the ID token still carries their flags.
 */
export async function signedInSession(
  t: TestApp,
  email = EMAIL,
  browser = new Browser(),
  start = `${t.url}/signin?b=collectors`,
): Promise<SignedIn & { landing: string }> {
  let res = await browser.get(start);
  for (let step = 0; step < 12; step++) {
    let landing: string | undefined;
    res = await browser.follow(res, (next) => {
      if (new URL(next).pathname !== '/handleloginredirect') return false;
      landing = next;
      return true;
    });
    if (landing !== undefined) {
      const landed = await browser.get(landing);
      const sessionId = await jarCookie(browser, t.url, 'sessionId');
      if (!sessionId) throw new Error(`no session for ${email} after the landing`);
      return {
        cookie: await browser.jar.getCookieString(t.url),
        sessionId,
        landing: landed.headers.get('location') ?? '',
      };
    }
    if (res.status !== 200)
      throw new Error(`the IdP answered ${res.status} on ${res.url}\n${res.body.slice(0, 1500)}`);
    const buttons = [...res.body.matchAll(/<button\b[^>]*>/g)].map(([tag]) => tag);
    const offers = (value: string) =>
      buttons.some((tag) => tag.includes('name="action"') && tag.includes(`value="${value}"`));
    // The steps a collector may meet on the way (issue 14 items 5, 10): password, email, a step
    // that can be put off, the name step of a welcome or migration, a page with only Continue.
    const form: Record<string, string> = /name="password"/.test(res.body)
      ? { password: DEMO_PASSWORD, action: 'submit' }
      : /name="email"/.test(res.body)
        ? { email, action: 'submit' }
        : offers('skip')
          ? { action: 'skip' }
          : /name="givenName"/.test(res.body)
            ? { givenName: 'Test', familyName: 'Collector', action: 'submit' }
            : !/<input(?![^>]*type="hidden")/.test(res.body) && offers('submit')
              ? { action: 'submit' }
              : {};
    if (Object.keys(form).length === 0)
      throw new Error(`an IdP page without a known form: ${res.url}\n${res.body.slice(0, 1500)}`);
    res = await browser.post(formActionOf(res), { csrf: csrfOf(res), ...form });
  }
  throw new Error(`the IdP did not send ${email} back`);
}
