import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeJwt } from 'jose';
import { AccountFlags, AccountStore } from '../../src/idp/accounts/account-store';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { Sessions, type SessionRecord } from '../../src/session/sessions';
import type { Locale } from '../../src/shared/locale';
import type { ShellData } from '../../views/shell/shell-data';
import { Browser, BrowserResponse } from '../support/browser';
import { RoundRobinProxy } from '../support/round-robin-proxy';
import {
  jarCookie,
  locationOf,
  pageDataOf,
  pageText,
  throughBrandGrant,
  throughIdp,
  throughIdpLogout,
  signOutFromThisSite,
} from '../support/signin-journey';
import { csrfOf, formActionOf, signinText, stepTitle } from '../support/signin-steps';
import { TestApp, startTestApp, useTestApp } from '../support/test-app';

/**
 * Issue 14 items 5, 6 and 10 as journeys over HTTP with a cookie jar, from the brand's link to the
 * final page, on the real app with its embedded IdP and SQLite:
 *
 * - 5: a collector the IdP knows, sent back to it for a pending step (§4 After login step 3; §2
 *   shell rule), is shown that step directly: no prompt=login, no password;
 * - 6: "Not now" on PromptSetupMfa becomes promptMfaSignin=false in the session (and in the page data
 *   for the browser's storage, §3), and the shell stops sending the collector to set up a factor;
 * - 10: migrating@example.com gets through (the IdP completes the migration), and against an IdP
 *   that does not show pending steps the service never makes the same trip twice in a row: the
 *   second time it shows a localized page that says what is pending and what to do.
 *
 * A step becomes pending for a signed-in collector the way it does in production: the account
 * changes at the IdP (an administrator, a policy) and the service learns it from the ID token of its
 * next refresh. The apps here issue 30-second access tokens, inside the refresh margin, so every read
 * of a session refreshes it.
 */

const LONG = 120_000;
const FAST_REFRESH = {
  IDP_ACCESS_TOKEN_TTL_SECONDS: '30',
  RATE_LIMIT_SIGNIN: '100000/60',
  RATE_LIMIT_SIGNIN_SESSION: '100000/60',
};

type Mark = 'psa' | 'pcgs' | 'collectors';

/** A locale's common.json text at a dotted key. */
function common(locale: Locale, key: string): string {
  const file = path.join(__dirname, '../../locales', locale, 'common.json');
  const all = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const value = key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], all);
  if (typeof value !== 'string') throw new Error(`no common.${key} in ${locale}`);
  return value;
}

/** The brand a page shows (issue 14 item 3): its favicon. */
function faviconOf(page: BrowserResponse): string | undefined {
  return /<link rel="icon" href="([^"]+)"/.exec(page.body)?.[1];
}

const favicon = (mark: Mark) => `/static/brand/favicon-${mark}.svg`;

/** Follows redirects to a page, or stops where the IdP sends the browser to this service. */
async function untilPageOrLanding(
  browser: Browser,
  res: BrowserResponse,
): Promise<{ page: BrowserResponse; landing?: URL }> {
  let landing: URL | undefined;
  const page = await browser.follow(res, (next) => {
    if (new URL(next).pathname !== '/handleloginredirect') return false;
    landing = new URL(next);
    return true;
  });
  return landing ? { page, landing } : { page };
}

/** Posts an IdP step's form (its csrf plus `values`) and follows on. */
async function post(
  browser: Browser,
  page: BrowserResponse,
  values: Record<string, string>,
  action = 'submit',
): Promise<{ page: BrowserResponse; landing?: URL }> {
  const res = await browser.post(formActionOf(page), { csrf: csrfOf(page), ...values, action });
  return untilPageOrLanding(browser, res);
}

/** An IdP step page: the step, in the collector's language, in the brand's frame. */
function expectIdpStep(
  page: BrowserResponse,
  expected: { step: string; locale: Locale; mark: Mark; knownCollector?: boolean },
): void {
  expect(page.status).toBe(200);
  expect(new URL(page.url).pathname).toMatch(/^\/idp\/signin\//);
  expect(page.body).toContain(`<html lang="${expected.locale}"`);
  expect(stepTitle(page)).toBe(signinText(expected.locale, `steps.${expected.step}.title`));
  expect(faviconOf(page)).toBe(favicon(expected.mark));
  // Issue 14 item 5: a collector the IdP knows is never asked for a password or an email again.
  if (expected.knownCollector) {
    expect(page.body).not.toMatch(/name="password"/);
    expect(page.body).not.toMatch(/name="email"/);
  }
}

/** The redirect of a trip to the IdP for a pending step: no prompt=login, the step named. */
function expectPendingTrip(
  res: BrowserResponse,
  expected: { t: { config: TestApp['config'] }; step: string; brand: string; locale: Locale },
): URL {
  const authorize = locationOf(res);
  expect(`${authorize.origin}${authorize.pathname}`).toBe(
    `${expected.t.config.idp.issuer}/v1/authorize`,
  );
  expect(authorize.searchParams.has('prompt')).toBe(false);
  expect(authorize.searchParams.get('pending_step')).toBe(expected.step);
  expect(authorize.searchParams.get('brand')).toBe(expected.brand);
  expect(authorize.searchParams.get('ui_locales')).toBe(expected.locale);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  return authorize;
}

/** The times this service sent the browser to the IdP's authorization endpoint. */
function tripsToIdp(browser: Browser): BrowserResponse[] {
  return browser.history.filter((r) => {
    const location = r.headers.get('location');
    return (
      location !== null &&
      !new URL(r.url).pathname.startsWith('/idp/') &&
      !new URL(r.url).pathname.startsWith('/oauth2/') &&
      new URL(location, r.url).pathname === '/oauth2/default/v1/authorize'
    );
  });
}

/** The session the browser holds at `origin`, as the store has it. */
async function sessionOf(
  t: TestApp,
  browser: Browser,
  origin: string,
): Promise<SessionRecord | undefined> {
  const id = await jarCookie(browser, origin, 'sessionId');
  return id ? t.app.get(Sessions).get(id) : undefined;
}

/** The ID token's claims of a session. */
function idClaims(record: SessionRecord | undefined): Record<string, unknown> {
  return record?.tokens.idToken ? decodeJwt(record.tokens.idToken) : {};
}

/** A shell page the collector may see: 200, the brand and language asked for, signed in. */
function expectShellPage(
  page: BrowserResponse,
  expected: { locale: Locale; mark: Mark },
): ShellData {
  expect(page.status).toBe(200);
  expect(page.body).toContain(`<html lang="${expected.locale}"`);
  expect(faviconOf(page)).toBe(favicon(expected.mark));
  const data = pageDataOf(page.body);
  expect(data.account?.isSignedIn).toBe(true);
  expect(data.locale).toBe(expected.locale);
  return data;
}

/** A new collector at the IdP (as its administrators would create one), with nothing pending. */
async function newCollector(t: TestApp, locale: Locale): Promise<{ id: string; email: string }> {
  const email = `pending-${randomUUID()}@example.com`;
  const account = await t.app.get(AccountStore).createAccount({
    email,
    password: DEMO_PASSWORD,
    locale,
    givenName: 'Pat',
    familyName: 'Pending',
    acceptedTerms: true,
    flags: { emailVerified: true },
  });
  return { id: account.id, email };
}

/**
 * Signs `email` in from the brand's link (email and password at the IdP) and follows the landing to
 * the shell page it leads to; returns that page.
 */
async function signInToShell(
  t: TestApp,
  browser: Browser,
  origin: string,
  query: string,
  email: string,
): Promise<BrowserResponse> {
  const start = await browser.get(`${origin}/signin?${query}`);
  expect(locationOf(start).searchParams.has('pending_step')).toBe(false);
  const callback = await throughIdp(browser, start, '/handleloginredirect', { email });
  const landing = await browser.get(callback.href);
  expect(landing.status).toBe(302);
  expect(await jarCookie(browser, origin, 'sessionId')).toEqual(expect.any(String));
  return browser.follow(landing);
}

describe('pending steps over HTTP, with the embedded IdP (issue 14 items 5, 6, 10)', () => {
  const t = useTestApp(FAST_REFRESH);

  describe('item 5: §4 After login step 3 goes back to the IdP without a second password', () => {
    it.each([
      ['isNewAccount=true', 'welcome'],
      ['isMigrated=true', 'welcome'],
      ['returnToSignIn=true', 'returnToSignIn'],
    ])(
      '/signin?b=psa&lang=fr-CA&%s: the IdP shows what is pending (no password), then the brand',
      async (flag, step) => {
        const browser = new Browser();
        const start = await browser.get(`${t.url}/signin?b=psa&lang=fr-CA&${flag}`);
        // The first trip is a sign-in: nothing is pending yet.
        expect(locationOf(start).searchParams.has('pending_step')).toBe(false);
        let next = await untilPageOrLanding(browser, start);
        expectIdpStep(next.page, { step: 'EmailCheck', locale: 'fr-CA', mark: 'psa' });
        next = await post(browser, next.page, { email: 'collector@example.com' });
        expectIdpStep(next.page, { step: 'EnterPassword', locale: 'fr-CA', mark: 'psa' });
        next = await post(browser, next.page, { password: DEMO_PASSWORD });
        expect(next.landing).toBeDefined();
        const landing = await browser.get(next.landing?.href ?? '');
        // Back to the IdP for the step, which is named, and never with prompt=login.
        const authorize = expectPendingTrip(landing, { t, step, brand: 'psa', locale: 'fr-CA' });
        // No session at this origin until the journey finishes.
        expect(await jarCookie(browser, t.url, 'sessionId')).toBeUndefined();

        next = await untilPageOrLanding(browser, await browser.get(authorize.href));
        if (step === 'welcome') {
          expectIdpStep(next.page, {
            step: 'WelcomeCollectors',
            locale: 'fr-CA',
            mark: 'psa',
            knownCollector: true,
          });
          next = await post(browser, next.page, {});
          expectIdpStep(next.page, {
            step: 'EnterNameInfo',
            locale: 'fr-CA',
            mark: 'psa',
            knownCollector: true,
          });
          // The name the account has, to confirm.
          expect(next.page.body).toContain('value="Casey"');
          next = await post(browser, next.page, { givenName: 'Casey', familyName: 'Collector' });
        }
        // returnToSignIn with nothing pending at the IdP: straight back, no page at all.
        expect(next.landing).toBeDefined();
        const finished = locationOf(
          await throughBrandGrant(browser, await browser.get(next.landing?.href ?? '')),
        );
        expect(`${finished.origin}${finished.pathname}`).toBe(
          `${t.config.http.publicUrl}/demo/brand/psa`,
        );
        const si = finished.searchParams.get('si') ?? '';
        const session = await t.app.get(Sessions).get(si);
        expect(session?.brand).toBe('psa');
        expect(session?.askedIdpFor).toBeUndefined();
        expect(pageText((await browser.get(finished.href)).body)).toContain('Signed in');
        // One password in the whole journey.
        const passwordPages = browser.history.filter((r) => /name="password"/.test(r.body));
        expect(passwordPages).toHaveLength(1);
      },
      LONG,
    );
  });

  describe('the way out of the name step, for a collector the IdP knows (issue 52 item 16)', () => {
    it(
      '"Use a different email" ends the pending welcome: whoever signs in next is the one signed in',
      async () => {
        const other = await newCollector(t, 'en-US');
        const browser = new Browser();
        const start = await browser.get(`${t.url}/signin?b=psa&isMigrated=true`);
        let next = await untilPageOrLanding(browser, start);
        next = await post(browser, next.page, { email: 'collector@example.com' });
        next = await post(browser, next.page, { password: DEMO_PASSWORD });
        const landing = await browser.get(next.landing?.href ?? '');
        const authorize = expectPendingTrip(landing, {
          t,
          step: 'welcome',
          brand: 'psa',
          locale: 'en-US',
        });
        next = await untilPageOrLanding(browser, await browser.get(authorize.href));
        next = await post(browser, next.page, {});
        expectIdpStep(next.page, {
          step: 'EnterNameInfo',
          locale: 'en-US',
          mark: 'psa',
          knownCollector: true,
        });
        next = await post(browser, next.page, {}, 'back');
        expectIdpStep(next.page, { step: 'EmailCheck', locale: 'en-US', mark: 'psa' });
        next = await post(browser, next.page, { email: other.email });
        expectIdpStep(next.page, { step: 'EnterPassword', locale: 'en-US', mark: 'psa' });
        next = await post(browser, next.page, { password: DEMO_PASSWORD });
        // Another account than the IdP session's: oidc-provider ends that session first, with the
        // form a browser posts by itself, then goes on with the authorization.
        expect(new URL(next.page.url).pathname).toMatch(/\/v1\/authorize\//);
        expect(next.page.body).toContain('/v1/logout/confirm');
        // It ends at the brand, signed in as the collector who signed in last.
        const landed = await browser.follow(await browser.submit(next.page, {}, 'yes'));
        const finished = new URL(landed.url);
        expect(`${finished.origin}${finished.pathname}`).toBe(
          `${t.config.http.publicUrl}/demo/brand/psa`,
        );
        const session = await t.app.get(Sessions).get(finished.searchParams.get('si') ?? '');
        expect(session?.sub).toBe(other.id);
      },
      LONG,
    );
  });

  describe('item 6: "Not now" on PromptSetupMfa is promptMfaSignin=false', () => {
    it(
      'mfa-setup@example.com from /signin?b=collectors&lang=en-CA: "Not now", then /collection stays; the session and the page data hold the flag',
      async () => {
        const browser = new Browser();
        const start = await browser.get(`${t.url}/signin?b=collectors&lang=en-CA`);
        let next = await untilPageOrLanding(browser, start);
        expectIdpStep(next.page, { step: 'EmailCheck', locale: 'en-CA', mark: 'collectors' });
        next = await post(browser, next.page, { email: 'mfa-setup@example.com' });
        next = await post(browser, next.page, { password: DEMO_PASSWORD });
        expectIdpStep(next.page, {
          step: 'SetupMfa.PromptSetupMfa',
          locale: 'en-CA',
          mark: 'collectors',
        });
        next = await post(browser, next.page, {}, 'skip');
        expect(next.landing).toBeDefined();
        const landing = await browser.get(next.landing?.href ?? '');
        const target = locationOf(landing);
        expect(target.pathname).toMatch(/\/collection$/);

        // The session holds the collector's choice, and the set-up is still required (§3).
        const record = await sessionOf(t, browser, t.url);
        expect(record?.promptMfaSignin).toBe(false);
        expect(idClaims(record)).toMatchObject({ setupMfa: true, promptMfaSignin: false });

        // The shell shows: the server's §2 rule reads the flag from the session, and the page data
        // has the browser store it (§3). Nothing wrote a promptMfaSignin cookie.
        const collection = await browser.get(target.href);
        const data = expectShellPage(collection, { locale: 'en-CA', mark: 'collectors' });
        expect(data.account?.setupMfa).toBe(true);
        expect(data.promptMfaSignin).toBe('false');
        expect((await browser.jar.getCookies(t.url)).some((c) => c.key === 'promptMfaSignin')).toBe(
          false,
        );
        // From then on: the shell again, and /signin with the live session goes straight on.
        expect((await browser.get(`${t.url}/collection`)).status).toBe(200);
        const again = await browser.get(`${t.url}/signin?b=collectors`);
        expect(locationOf(again).pathname).toMatch(/\/collection$/);
        expect((await sessionOf(t, browser, t.url))?.promptMfaSignin).toBe(false);
      },
      LONG,
    );
  });

  describe('item 5: a pending §2 step is shown directly by the IdP, then the collector lands', () => {
    const cases: [string, Partial<AccountFlags>, string, string][] = [
      [
        'a second factor became required',
        { mfaSetupRequired: true },
        'setup-mfa',
        'SetupMfa.PromptSetupMfa',
      ],
      ['a survey became due', { surveyPending: true }, 'survey', 'Survey'],
      ['the account is being migrated', { isMigrating: true }, 'migrating', 'WelcomeCollectors'],
    ];
    it.each(cases)(
      '%s: /collection -> /signin -> the IdP shows the step directly, no password -> /collection',
      async (_case, flags, step, firstPage) => {
        const browser = new Browser();
        const { id, email } = await newCollector(t, 'fr-CA');
        const shell = await signInToShell(t, browser, t.url, 'b=collectors&lang=fr-CA', email);
        expectShellPage(shell, { locale: 'fr-CA', mark: 'collectors' });
        const shellUrl = shell.url;

        await t.app.get(AccountStore).setFlags(id, flags);
        // The next visit refreshes the session, whose new ID token says what is pending (§2).
        const kept = await browser.get(shellUrl);
        expect(kept.status).toBe(302);
        const signin = locationOf(kept);
        expect(signin.pathname).toBe('/signin');
        expect(signin.searchParams.get('r')).toBe(shellUrl);
        const authorize = expectPendingTrip(await browser.get(signin.href), {
          t,
          step,
          brand: 'collectors',
          locale: 'fr-CA',
        });
        let next = await untilPageOrLanding(browser, await browser.get(authorize.href));
        expectIdpStep(next.page, {
          step: firstPage,
          locale: 'fr-CA',
          mark: 'collectors',
          knownCollector: true,
        });
        if (step === 'setup-mfa') next = await post(browser, next.page, {}, 'skip');
        if (step === 'survey') next = await post(browser, next.page, { interest: 'coins' });
        if (step === 'migrating') {
          next = await post(browser, next.page, {});
          expectIdpStep(next.page, {
            step: 'EnterNameInfo',
            locale: 'fr-CA',
            mark: 'collectors',
            knownCollector: true,
          });
          next = await post(browser, next.page, { givenName: 'Pat', familyName: 'Pending' });
        }
        expect(next.landing).toBeDefined();
        const landing = await browser.get(next.landing?.href ?? '');
        expect(locationOf(landing).href).toBe(shellUrl);
        const record = await sessionOf(t, browser, t.url);
        expect(record?.askedIdpFor).toBe(step);
        const landed = expectShellPage(await browser.get(shellUrl), {
          locale: 'fr-CA',
          mark: 'collectors',
        });
        expect(landed.account).toMatchObject({ isMigrating: false, showSurvey: false });
        if (step === 'setup-mfa') expect(landed.promptMfaSignin).toBe('false');
        // One password in the whole journey: the first sign-in's.
        expect(browser.history.filter((r) => /name="password"/.test(r.body))).toHaveLength(1);
      },
      LONG,
    );
  });

  describe('item 10: migrating@example.com gets through', () => {
    it(
      'from /signin?b=collectors&lang=fr-CA: the IdP completes the migration (welcome, name) and the collector lands on /collection',
      async () => {
        const browser = new Browser();
        const start = await browser.get(`${t.url}/signin?b=collectors&lang=fr-CA`);
        let next = await untilPageOrLanding(browser, start);
        expectIdpStep(next.page, { step: 'EmailCheck', locale: 'fr-CA', mark: 'collectors' });
        next = await post(browser, next.page, { email: 'migrating@example.com' });
        expectIdpStep(next.page, { step: 'EnterPassword', locale: 'fr-CA', mark: 'collectors' });
        next = await post(browser, next.page, { password: DEMO_PASSWORD });
        expectIdpStep(next.page, {
          step: 'WelcomeCollectors',
          locale: 'fr-CA',
          mark: 'collectors',
        });
        next = await post(browser, next.page, {});
        expectIdpStep(next.page, { step: 'EnterNameInfo', locale: 'fr-CA', mark: 'collectors' });
        expect(next.page.body).toContain('value="Maxime"');
        next = await post(browser, next.page, { givenName: 'Maxime', familyName: 'Migration' });
        expect(next.landing).toBeDefined();

        const landing = await browser.get(next.landing?.href ?? '');
        const target = locationOf(landing);
        expect(target.pathname).toMatch(/\/collection$/);
        const record = await sessionOf(t, browser, t.url);
        expect(idClaims(record)).toMatchObject({ isMigrating: false });
        const collection = await browser.get(target.href);
        const data = expectShellPage(collection, { locale: 'fr-CA', mark: 'collectors' });
        expect(data.account?.isMigrating).toBe(false);
        // Once: the journey went to the IdP a single time.
        expect(tripsToIdp(browser)).toHaveLength(1);
      },
      LONG,
    );
  });
});

describe('never the same trip twice in a row, whatever the IdP (issue 14 item 10)', () => {
  // An IdP that does not know `pending_step` (a gateway in front of the embedded one drops it): it
  // answers a trip for a pending step as any authorization request of a signed-in collector, at once.
  const proxy = new RoundRobinProxy();
  let t: TestApp;
  let origin: string;
  beforeAll(async () => {
    // The proxy takes its port before the app starts: a port only found free could go to the app.
    const port = await proxy.listen();
    origin = `http://localhost:${port}`;
    t = await startTestApp({ ...FAST_REFRESH, PUBLIC_URL: origin });
    proxy.backends = [t.url];
    proxy.rewrite = (url) => {
      const parsed = new URL(url, origin);
      if (parsed.pathname !== '/oauth2/default/v1/authorize') return url;
      parsed.searchParams.delete('pending_step');
      return `${parsed.pathname}${parsed.search}`;
    };
  }, 30_000);
  afterAll(async () => {
    await proxy.close();
    await t?.close();
  });

  const cases: [string, Partial<AccountFlags>, string, string][] = [
    ['the account is being migrated', { isMigrating: true }, 'migrating', 'migrating'],
    ['a second factor is required', { mfaSetupRequired: true }, 'setup-mfa', 'setupMfa'],
    ['a survey is due', { surveyPending: true }, 'survey', 'survey'],
  ];

  it.each(cases)(
    '%s: one trip to the IdP, then the pending-step page in all four locales, never a loop',
    async (_case, flags, step, key) => {
      const browser = new Browser();
      const { id, email } = await newCollector(t, 'ja-JP');
      const shell = await signInToShell(t, browser, origin, 'b=collectors&lang=ja-JP', email);
      expectShellPage(shell, { locale: 'ja-JP', mark: 'collectors' });
      const shellUrl = shell.url;
      await t.app.get(AccountStore).setFlags(id, flags);

      // The shell sends the collector to /signin; /signin sends them to the IdP for the step, once.
      const signin = locationOf(await browser.get(shellUrl));
      expect(signin.pathname).toBe('/signin');
      const authorize = expectPendingTrip(await browser.get(signin.href), {
        t,
        step,
        brand: 'collectors',
        locale: 'ja-JP',
      });
      // This IdP shows nothing and answers at once; the step is still pending.
      const back = await untilPageOrLanding(browser, await browser.get(authorize.href));
      expect(back.landing).toBeDefined();
      const landing = await browser.get(back.landing?.href ?? '');
      expect(locationOf(landing).href).toBe(shellUrl);
      expect((await sessionOf(t, browser, origin))?.askedIdpFor).toBe(step);
      const again = locationOf(await browser.get(shellUrl));
      expect(again.pathname).toBe('/signin');

      // The second time: no trip, a page that says what is pending and what to do.
      const page = await browser.get(again.href);
      expect(page.status).toBe(200);
      expect(page.headers.get('location')).toBeNull();
      expect(page.headers.get('cache-control')).toContain('no-store');
      expect(page.body).toContain('<html lang="ja-JP"');
      expect(faviconOf(page)).toBe(favicon('collectors'));
      const text = pageText(page.body);
      expect(text).toContain(common('ja-JP', `pendingStep.${key}.title`));
      expect(text).toContain(common('ja-JP', `pendingStep.${key}.body`));
      expect(text).toContain(common('ja-JP', 'pendingStep.whatToDo'));
      const action = new URL(
        /<a class="button primary[^"]*" href="([^"]+)"/
          .exec(page.body)?.[1]
          ?.replace(/&amp;/g, '&') ?? '',
        origin,
      );
      expect(action.pathname).toBe('/logout/collectorsid');
      expect(action.searchParams.get('b')).toBe('collectors');
      expect(action.searchParams.get('r')).toBe(shellUrl);
      expect(action.searchParams.get('lang')).toBe('ja-JP');
      // Asked again, the answer is the same page: never a loop, in every locale.
      for (const locale of ['en-US', 'en-CA', 'fr-CA', 'ja-JP'] as const) {
        const lang = locale === 'en-US' ? '' : `&lang=${locale}`;
        const shown = await browser.get(
          `${origin}/signin?b=collectors&r=${encodeURIComponent(shellUrl)}${lang}`,
        );
        expect(shown.status).toBe(200);
        expect(shown.body).toContain(`<html lang="${locale}"`);
        const words = pageText(shown.body);
        expect(words).toContain(common(locale, `pendingStep.${key}.title`));
        expect(words).toContain(common(locale, `pendingStep.${key}.body`));
        expect(words).toContain(common(locale, 'pendingStep.signOutAndIn'));
      }
      // The first sign-in's trip and the one for the step.
      expect(tripsToIdp(browser)).toHaveLength(2);
      // The collector is still signed in, in the brand their session records.
      expect((await sessionOf(t, browser, origin))?.brand).toBe('collectors');

      if (step !== 'migrating') return;
      // What to do works: signed out, the collector goes back where they were going, which starts a
      // new sign-in; this IdP shows what it has pending after the password, and the migration ends.
      // The page's link is followed from this service's page: a same-origin sign-out (issue 50 item 4).
      const endSession = locationOf(await signOutFromThisSite(browser, action.href));
      await confirmIdpLogout(browser, endSession);
      expect(await sessionOf(t, browser, origin)).toBeUndefined();
      const signinAgain = locationOf(await browser.get(shellUrl));
      const fresh = await browser.get(signinAgain.href);
      expect(locationOf(fresh).searchParams.has('pending_step')).toBe(false);
      let next = await untilPageOrLanding(browser, fresh);
      expectIdpStep(next.page, { step: 'EmailCheck', locale: 'ja-JP', mark: 'collectors' });
      next = await post(browser, next.page, { email });
      next = await post(browser, next.page, { password: DEMO_PASSWORD });
      expectIdpStep(next.page, { step: 'WelcomeCollectors', locale: 'ja-JP', mark: 'collectors' });
      next = await post(browser, next.page, {});
      next = await post(browser, next.page, { givenName: 'Pat', familyName: 'Pending' });
      expect(next.landing).toBeDefined();
      expect(locationOf(await browser.get(next.landing?.href ?? '')).href).toBe(shellUrl);
      const arrived = expectShellPage(await browser.get(shellUrl), {
        locale: 'ja-JP',
        mark: 'collectors',
      });
      expect(arrived.account?.isMigrating).toBe(false);
    },
    LONG,
  );
});

/** Confirms the IdP's logout page the way its auto-submitting form would; lands on this service. */
async function confirmIdpLogout(browser: Browser, endSession: URL): Promise<void> {
  const { page, landing } = await throughIdpLogout(browser, endSession);
  expect(page.status).toBe(200);
  // The landing finishes the sign-out in the browser; the test then goes on as its page would.
  expect((await browser.get(landing.href)).status).toBeLessThan(400);
}
