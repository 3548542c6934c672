import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { LOCALES_DIR } from '../../src/config/project-paths';
import { Browser, BrowserResponse } from '../support/browser';
import {
  jarCookie,
  locationOf,
  pageDataOf,
  pageText,
  signedOutLanding,
  throughBrandGrant,
  throughIdp,
  throughIdpLogout,
  signOutFromThisSite,
} from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 14 item 2: the collector's language follows them (§1, §2 locale path rule, §5 locale order).
 * Each journey starts at a brand's link that names a language (lang, l, or the Japan brand), goes
 * through the embedded IdP's steps with a cookie jar, and checks the language on every page this
 * service shows afterwards: the IdP's steps, the landing at /fr-CA/collection, the shell's own links
 * (sessions, sign-out, try again), an error page of the journey, and the logout landing (item 8).
 */
const t = useTestApp({
  RATE_LIMIT_SIGNIN: '100000/60',
  RATE_LIMIT_SIGNIN_SESSION: '100000/60',
});
let base: string;

beforeAll(() => {
  base = t.config.http.publicUrl;
}, 30_000);

type Messages = Record<string, unknown>;
const messages = new Map<string, Messages>();
/** A text of locales/{locale}/common.json, as the pages must show it. */
function text(locale: string, key: string): string {
  let tree = messages.get(locale);
  if (!tree) {
    tree = JSON.parse(readFileSync(path.join(LOCALES_DIR, locale, 'common.json'), 'utf8'));
    messages.set(locale, tree as Messages);
  }
  const value = key.split('.').reduce<unknown>((node, part) => (node as Messages)?.[part], tree);
  if (typeof value !== 'string') throw new Error(`no text ${locale} ${key}`);
  return value;
}

const htmlLang = (res: BrowserResponse) => /<html[^>]*\blang="([^"]+)"/.exec(res.body)?.[1];
const hrefs = (res: BrowserResponse) =>
  [...res.body.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => (m[1] ?? '').replace(/&amp;/g, '&'));

/**
 * The IdP's logout, confirmed; the landing URL. The IdP's page is in `locale` (the sign-out sends
 * ui_locales, RP-Initiated Logout 1.0 §2).
 */
async function idpLogoutIn(browser: Browser, endSession: URL, locale: string): Promise<URL> {
  expect(endSession.searchParams.get('ui_locales')).toBe(locale);
  const { page, landing } = await throughIdpLogout(browser, endSession);
  expect(htmlLang(page)).toBe(locale);
  expect(pageText(page.body)).toContain(text(locale, 'idp.signingOutHeading'));
  return landing;
}

describe('a collector who signs in in a language stays in it, page after page', () => {
  it.each([
    ['lang=fr-CA', 'fr-CA'],
    ['l=ja-JP', 'ja-JP'],
    ['lang=en-CA', 'en-CA'],
    ['lang=fr_ca (normalised)', 'fr-CA'],
  ])(
    '%s: IdP steps, /%s/collection, sessions, sign-out and the logout landing',
    async (query, locale) => {
      const browser = new Browser();
      // The brand's link.
      const start = await browser.get(`${t.url}/signin?${query.split(' ')[0]}`);
      const authorize = locationOf(start);
      expect(authorize.searchParams.get('ui_locales')).toBe(locale);

      // The IdP's first step speaks it.
      const emailStep = await browser.follow(start);
      expect(emailStep.status).toBe(200);
      expect(htmlLang(emailStep)).toBe(locale);
      expect(pageText(emailStep.body)).toContain(text(locale, 'signin.steps.EmailCheck.title'));

      // The landing: /collection by the §2 path rule.
      const callback = await throughIdp(browser, start);
      const landing = await browser.get(callback.href);
      expect(locationOf(landing).href).toBe(`${base}/${locale}/collection`);
      const collection = await browser.get(`${t.url}/${locale}/collection`);
      expect(collection.status).toBe(200);
      expect(htmlLang(collection)).toBe(locale);
      expect(pageDataOf(collection.body).locale).toBe(locale);
      expect(pageText(collection.body)).toContain(text(locale, 'collection.title'));

      // The shell's own links keep the language.
      const links = hrefs(collection);
      expect(links).toContain(`/${locale}/account/sessions`);
      const signOut = `/logout/collectorsid?b=collectors&lang=${locale}`;
      expect(links).toContain(signOut);
      const sessions = await browser.get(`${t.url}/${locale}/account/sessions`);
      expect(sessions.status).toBe(200);
      expect(htmlLang(sessions)).toBe(locale);
      expect(pageText(sessions.body)).toContain(text(locale, 'sessions.title'));

      // Sign-out: the landing page speaks it, and goes on to the sign-in page in it.
      const out = await signOutFromThisSite(browser, `${t.url}${signOut}`);
      const landed = await idpLogoutIn(browser, locationOf(out), locale);
      const signedOut = await browser.get(landed.href);
      expect(htmlLang(signedOut)).toBe(locale);
      expect(pageText(signedOut.body)).toContain(text(locale, 'signedOut.title'));
      const onward = signedOutLanding(signedOut);
      expect(onward).toMatchObject({ locale, brand: 'collectors', signedOut: true });
      expect(onward.target).toBe(`/signin?b=collectors&lang=${locale}&signedOut=true`);

      // And the sign-in page it goes on to is the IdP's, in the language again.
      const again = await browser.get(`${t.url}${onward.target}`);
      expect(locationOf(again).searchParams.get('ui_locales')).toBe(locale);
    },
    60_000,
  );

  it('b=psajapan: the IdP steps and the logout landing are Japanese', async () => {
    const browser = new Browser();
    const start = await browser.get(`${t.url}/signin?b=psajapan`);
    const emailStep = await browser.follow(start);
    expect(htmlLang(emailStep)).toBe('ja-JP');
    expect(pageText(emailStep.body)).toContain(text('ja-JP', 'signin.steps.EmailCheck.title'));
    const callback = await throughIdp(browser, start);
    const brand = locationOf(await throughBrandGrant(browser, await browser.get(callback.href)));
    expect(brand.pathname).toBe('/demo/brand/psajapan');

    // The brand sends the collector to sign-out with its brand only (its page is this service's
    // demo brand page in local: a link there is a same-origin one).
    const out = await signOutFromThisSite(browser, `${t.url}/logout/collectorsid?b=psajapan`);
    const signedOut = await browser.get(
      (await idpLogoutIn(browser, locationOf(out), 'ja-JP')).href,
    );
    expect(htmlLang(signedOut)).toBe('ja-JP');
    expect(signedOutLanding(signedOut)).toMatchObject({
      locale: 'ja-JP',
      brand: 'psajapan',
      target: '/signin?b=psajapan&signedOut=true',
    });
  }, 60_000);

  it('en-US gets no prefix and no lang anywhere (§2: nothing for the default language)', async () => {
    const browser = new Browser();
    const start = await browser.get(`${t.url}/signin`);
    const landing = await browser.get((await throughIdp(browser, start)).href);
    expect(locationOf(landing).href).toBe(`${base}/collection`);
    const collection = await browser.get(`${t.url}/collection`);
    expect(htmlLang(collection)).toBe('en-US');
    const links = hrefs(collection);
    expect(links).toContain('/account/sessions');
    expect(links).toContain('/logout/collectorsid?b=collectors');
  }, 60_000);
});

describe('the pages of a language-prefixed address', () => {
  it('a signed-out visit to /fr-CA/collection goes to /signin in French, r keeping the prefix', async () => {
    const res = await new Browser().get(`${t.url}/fr-CA/collection`);
    const signin = locationOf(res);
    expect(signin.pathname).toBe('/signin');
    expect(signin.searchParams.get('r')).toBe(`${base}/fr-CA/collection`);
    expect(signin.searchParams.get('lang')).toBe('fr-CA');
  });

  it('/ja-JP/unauthredirect is the Japanese unauthorized page', async () => {
    const res = await new Browser().get(`${t.url}/ja-JP/unauthredirect?error=Unauthorized`);
    // A landing page, not a bare 401 without a challenge (issue 16 item 6, RFC 9110 §15.5.2).
    expect(res.status).toBe(200);
    expect(htmlLang(res)).toBe('ja-JP');
    expect(pageText(res.body)).toContain(text('ja-JP', 'unauth.title'));
  });

  it.each([
    ['/fr-CA/signin', 'a route that takes no prefix'],
    ['/fr-CA/collectionx', 'a path that only starts like a page'],
    ['/de-DE/collection', 'an unsupported language'],
  ])('%s is not a page (%s)', async (url) => {
    const res = await new Browser().get(`${t.url}${url}`);
    expect(res.status).toBe(404);
  });

  it.each([
    ['/fr-CA/signin', 'fr-CA'],
    ['/ja-JP/nosuchpage', 'ja-JP'],
    ['/de-DE/collection', 'en-US'],
  ])("%s: the 404 page speaks the prefix's language (%s)", async (url, locale) => {
    const res = await new Browser({ accept: 'text/html' }).get(`${t.url}${url}`);
    expect(res.status).toBe(404);
    expect(htmlLang(res)).toBe(locale);
  });
});

describe('an error of the journey speaks its language and shows its brand', () => {
  it('the IdP answers an error at the landing: the error page is French, for pcgs, with its reference', async () => {
    // A browser navigating says it wants HTML (the error page; API callers get JSON).
    const browser = new Browser({ accept: 'text/html' });
    const start = await browser.get(`${t.url}/signin?b=pcgs&lang=fr-CA`);
    const state = locationOf(start).searchParams.get('state') ?? '';
    expect(await jarCookie(browser, t.url, 'signinBinding')).toBeDefined();
    // What the IdP's redirect looks like when the collector cancels (RFC 6749 §4.1.2.1).
    const landing = await browser.get(
      `${t.url}/handleloginredirect?state=${encodeURIComponent(state)}&error=access_denied`,
    );
    expect(landing.status).toBe(400);
    expect(htmlLang(landing)).toBe('fr-CA');
    expect(pageText(landing.body)).toContain(text('fr-CA', 'errors.SigninFailed'));
    const data = pageDataOf(landing.body);
    expect(data).toMatchObject({ page: 'error', locale: 'fr-CA', brand: 'pcgs' });
    expect(landing.body).toContain(landing.headers.get('x-request-id') ?? 'no request id');
    // Try again starts the same journey over: the landing's state is single-use.
    expect(data.props?.retryHref).toBe('/signin?b=pcgs&lang=fr-CA');
    const again = await browser.get(`${t.url}${String(data.props?.retryHref)}`);
    expect(locationOf(again).searchParams.get('ui_locales')).toBe('fr-CA');
  });
});
