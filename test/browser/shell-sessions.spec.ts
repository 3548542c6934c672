import type { Cookie } from 'playwright-core';
import { signedInSession } from '../support/account-api';
import { commonText } from '../support/signin-steps';
import {
  API_ROUTE,
  PHONE,
  TEST_TIMEOUT_MS,
  cookiesFor,
  hydrationMutations,
  seriousViolations,
  until,
  useShellBrowser,
  waitForHydration,
  watchPage,
} from '../support/shell-browser';

/**
 * Issue 7 item 3 in Chromium: the session management page lists the collector's sessions, 'Sign out
 * this session' ends another one (its row goes, a success toast says so, that session is signed out),
 * and 'Sign out everywhere' ends the others and signs this browser out too.
 */
describe('session management in Chromium', () => {
  // Each test signs its own collectors in (several sessions of one account).
  const fixture = useShellBrowser({ signedIn: false });

  const signedIn = async (): Promise<{ cookie: string; cookies: Cookie[] }> => {
    const { cookie } = await signedInSession(fixture.shell.t);
    return { cookie, cookies: cookiesFor(fixture.shell.t.url, cookie) };
  };
  const live = async (cookie: string) =>
    (await fetch(`${fixture.shell.t.url}/collection`, { headers: { cookie }, redirect: 'manual' }))
      .status === 200;
  /** Two sessions of one collector, and /account/sessions open (hydrated, watched) in the second. */
  const openSessionsPage = async () => {
    const other = await signedIn();
    const mine = await signedIn();
    const context = await fixture.context({ cookies: mine.cookies });
    const page = await context.newPage();
    const errors = watchPage(page);
    await page.goto(`${fixture.shell.t.url}/account/sessions`);
    await waitForHydration(page);
    return { other, mine, context, page, errors };
  };

  it(
    'Sign out this session ends the other session, with the keyboard',
    async () => {
      const { other, mine, page, errors } = await openSessionsPage();
      expect(await seriousViolations(page)).toEqual([]);
      const rows = page.locator('.session-item');
      const before = await rows.count();
      expect(before).toBeGreaterThanOrEqual(2);
      expect(await page.locator('.session-item .session-current').count()).toBe(1);

      const otherRow = page.locator('.session-item:not(:has(.session-current))').first();
      await otherRow.locator('button').focus();
      await page.keyboard.press('Enter');
      await until(
        () => rows.count(),
        (n) => n === before - 1,
      );
      await page.locator('.toast-region [data-variant="success"]').waitFor();
      expect(await page.locator('.toast-region').innerText()).toContain(
        'That session is signed out.',
      );
      // The other session (the only other row) has ended; this one goes on.
      expect(await live(other.cookie)).toBe(false);
      expect(await live(mine.cookie)).toBe(true);
      // Nowhere else to sign out of now: the page says so, and 'Sign out everywhere' goes (issue 33).
      await page.locator('.sessions-none').waitFor();
      expect(await page.getByRole('button', { name: 'Sign out everywhere' }).count()).toBe(0);
      expect(await errors.all()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'Sign out everywhere ends every other session, then signs this browser out',
    async () => {
      const { other, mine, context, page } = await openSessionsPage();
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/account/sessions'), {
        timeout: 30_000,
      });
      expect(await live(other.cookie)).toBe(false);
      expect(await live(mine.cookie)).toBe(false);
      const jar = await context.cookies(fixture.shell.t.url);
      expect(jar.find((c) => c.name === 'sessionId')).toBeUndefined();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "signed in only here: it says so, and offers no 'Sign out everywhere'",
    async () => {
      const only = await signedIn();
      const context = await fixture.context({ cookies: only.cookies });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}/account/sessions`);
      await waitForHydration(page);
      expect(await page.locator('.session-item').count()).toBe(1);
      expect(await page.textContent('.sessions-none')).toBe('You are not signed in anywhere else.');
      expect(await page.getByRole('button', { name: 'Sign out everywhere' }).count()).toBe(0);
      expect(await page.locator('.sessions-actions').count()).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  it.each([
    ['en-US', 'America/Los_Angeles'],
    ['fr-CA', 'America/Toronto'],
    ['ja-JP', 'Asia/Tokyo'],
  ] as const)(
    "%s in %s: the times are in the collector's zone and the locale's format, one line at 390 px",
    async (locale, timezoneId) => {
      const { cookies } = await signedIn();
      const context = await fixture.context({ cookies, viewport: PHONE, context: { timezoneId } });
      const page = await context.newPage();
      const errors = watchPage(page);
      await page.goto(`${fixture.shell.t.url}/account/sessions?lang=${locale}`);
      await waitForHydration(page);
      const times = await page.$$eval('.session-facts time', (elements) =>
        elements.map((el) => ({
          iso: el.getAttribute('datetime') ?? '',
          text: el.textContent ?? '',
          lines: el.getClientRects().length,
        })),
      );
      expect(times.length).toBeGreaterThanOrEqual(2);
      for (const time of times) {
        // What a clock on the collector's wall says, the way their language writes it.
        const expected = new Intl.DateTimeFormat(locale, {
          month: 'short',
          day: 'numeric',
          hour: 'numeric',
          minute: '2-digit',
          timeZone: timezoneId,
        }).format(new Date(time.iso));
        // (Chromium's ICU and Node's may differ in the kind of space before AM/PM.)
        expect(time.text.replace(/\s/g, ' ')).toBe(expected.replace(/\s/g, ' '));
        expect(time.text).not.toContain('UTC');
        expect(time.lines).toBe(1);
      }
      // Hydration kept the server's markup; only the times changed after it, to the local ones.
      const mutations = await hydrationMutations(page);
      expect(
        mutations.filter((m) => !/^characterData in #text\(.*\): text ".*UTC" -> /.test(m)),
      ).toEqual([]);
      expect(await errors.all()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
  // Issue 52 item 4: a network failure on the sessions page used to show two danger toasts, the
  // network's in English and the page's in the page's language.
  it.each(['fr-CA', 'ja-JP'] as const)(
    '%s: one network failure shows one danger toast, in the page language, with no "×" icon',
    async (locale) => {
      await signedIn();
      const mine = await signedIn();
      const context = await fixture.context({ cookies: mine.cookies });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}/account/sessions?lang=${locale}`);
      await waitForHydration(page);
      await page.route(API_ROUTE, (route) => route.abort('internetdisconnected'));
      await page.locator('.session-item:not(:has(.session-current)) button').first().click();
      const toasts = page.locator('.toast-region [data-toast-id]');
      await toasts.first().waitFor();
      // Whatever else could still arrive has had its chance: the button is usable again.
      await page.locator('.session-item button:not([disabled])').first().waitFor();
      expect(await toasts.count()).toBe(1);
      expect(await toasts.getAttribute('data-variant')).toBe('danger');
      expect(await toasts.locator('.toast-message').textContent()).toBe(
        commonText(locale, 'sessions.failed'),
      );
      expect(await page.locator('.toast-region').innerText()).not.toContain('Network request');
      // The variant icon is not a second "×" beside the close button.
      const icon = await toasts.evaluate((el) => getComputedStyle(el, '::before').content);
      expect(icon).not.toMatch(/[×✕✖x]/);
      expect(await seriousViolations(page)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
