import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { TOTP } from 'otpauth';
import { LOCALES_DIR } from '../../src/config/project-paths';
import { DEMO_PASSWORD, DEMO_TOTP_SECRET } from '../../src/idp/demo-users';
import type { LandingData } from '../../src/shared/landing';
import { Browser, BrowserResponse } from '../support/browser';
import { csrfOf, formActionOf } from '../support/signin-steps';
import { locationOf, pageDataOf, pageText, throughBrandGrant } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 16 item 4: the landing is the collector's account home. From the brand's link, through the
 * IdP's steps, to /collection: who is signed in (name, email, collector number, from the ID token and
 * userinfo), their second factors, their sessions (count, link), and the family's sites to continue
 * to, each in the collector's language.
 */
const t = useTestApp({
  RATE_LIMIT_SIGNIN: '100000/60',
  RATE_LIMIT_SIGNIN_SESSION: '100000/60',
});

function text(locale: string, key: string): string {
  const tree = JSON.parse(readFileSync(path.join(LOCALES_DIR, locale, 'common.json'), 'utf8'));
  const value = key.split('.').reduce<unknown>((n, p) => (n as Record<string, unknown>)?.[p], tree);
  if (typeof value !== 'string') throw new Error(`no text ${locale} ${key}`);
  return value;
}

/** Through the IdP's steps as a person would: email, password, an authenticator code if asked. */
async function signIn(browser: Browser, query: string, email: string): Promise<BrowserResponse> {
  let res = await browser.get(`${t.url}/signin?${query}`);
  for (let step = 0; step < 10; step++) {
    let landing: string | undefined;
    res = await browser.follow(res, (next) => {
      if (new URL(next).pathname !== '/handleloginredirect') return false;
      landing = next;
      return true;
    });
    if (landing) return browser.get(landing);
    const values: Record<string, string> = /name="password"/.test(res.body)
      ? { password: DEMO_PASSWORD }
      : /name="email"/.test(res.body)
        ? { email }
        : /name="code"/.test(res.body)
          ? {
              code: new TOTP({ secret: DEMO_TOTP_SECRET }).generate({
                timestamp: Date.now() + 30_000,
              }),
            }
          : {};
    res = await browser.post(formActionOf(res), { csrf: csrfOf(res), ...values, action: 'submit' });
  }
  throw new Error('no landing');
}

const landingOf = (res: BrowserResponse) => pageDataOf(res.body).props as unknown as LandingData;

it('fr-CA: who is signed in, no second factor yet, one session, the sites in French', async () => {
  const browser = new Browser();
  const landed = await signIn(browser, 'lang=fr-CA', 'collector@example.com');
  expect(locationOf(landed).pathname).toBe('/fr-CA/collection');
  const page = await browser.get(`${t.url}/fr-CA/collection`);
  const body = pageText(page.body);
  const landing = landingOf(page);

  expect(landing.account).toEqual({
    name: 'Casey Collector',
    email: 'collector@example.com',
    collectorsId: expect.any(Number),
    factors: [],
  });
  expect(body).toContain('Casey Collector');
  expect(body).toContain('collector@example.com');
  expect(body).toContain(String(landing.account.collectorsId));
  expect(body).toContain(text('fr-CA', 'collection.noFactors'));
  expect(landing.sessionCount).toBe(1);
  // One session: French's singular form (issue 33, plural forms).
  expect(body).toContain(text('fr-CA', 'collection.sessionCount.one').replace('{count}', '1'));
  expect(page.body).toContain('href="/fr-CA/account/sessions"');

  // The sites: each through this service's /signin for the brand, in French.
  expect(landing.continueTo.map((l) => l.brand)).toEqual([
    'psa',
    'pcgs',
    'enterprise',
    'powerpacks',
  ]);
  for (const link of landing.continueTo) {
    const url = new URL(link.href, t.url);
    expect(url.pathname).toBe('/signin');
    expect(url.searchParams.get('lang')).toBe('fr-CA');
  }
  const psa = new URL(landing.continueTo[0]?.href ?? '', t.url);
  expect(psa.searchParams.get('r')).toBe(`${t.config.services.grading}/fr-CA`);

  // Following one hands the session to the brand, and the landing then counts two sessions.
  const hop = await throughBrandGrant(
    browser,
    await browser.get(new URL(landing.continueTo[1]?.href ?? '', t.url).href),
  );
  expect(locationOf(hop).pathname).toBe('/demo/brand/pcgs');
  expect(locationOf(hop).searchParams.get('si')).toEqual(expect.any(String));
  expect(landingOf(await browser.get(`${t.url}/fr-CA/collection`)).sessionCount).toBe(2);
}, 60_000);

it('a collector with an authenticator app sees it listed', async () => {
  const browser = new Browser();
  await signIn(browser, '', 'totp@example.com');
  const page = await browser.get(`${t.url}/collection`);
  expect(landingOf(page).account).toMatchObject({ name: 'Taylor Totp', factors: ['totp'] });
  expect(pageText(page.body)).toContain(text('en-US', 'collection.factorNames.totp'));
}, 60_000);

it('ja-JP: the Japanese grading site is the first to continue to', async () => {
  const browser = new Browser();
  await signIn(browser, 'lang=ja-JP', 'japan@example.com');
  const landing = landingOf(await browser.get(`${t.url}/ja-JP/collection`));
  expect(landing.continueTo[0]).toMatchObject({ brand: 'psajapan', name: 'PSA Japan' });
}, 60_000);
