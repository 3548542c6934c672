import type { BrowserContext, Cookie, Page } from 'playwright-core';
import {
  TEST_TIMEOUT_MS,
  documentStatusError,
  errorPagePath,
  seriousViolations,
  signedInCookies,
  until,
  waitForHydration,
  watchPage,
  useShellBrowser,
} from '../support/shell-browser';

/**
 * Issue 6 item 8 in Chromium: the server's error page (correlation id, try again) and the client's
 * render-error boundary (§8 "Unhandled render error"). The §2 shell rule's tests moved to
 * journey-pending-steps.spec.ts (issue 14 items 5 and 6), without the promptMfaSignin cookie and
 * storage values they injected.
 */
describe('shell error page and error boundary in Chromium', () => {
  const fixture = useShellBrowser({ signedIn: false });
  let context: BrowserContext;

  describe('the error page', () => {
    it(
      'shows the correlation id the server logged; its way on is not the failed address but one that works',
      async () => {
        context = await fixture.context();
        const page = await context.newPage();
        const watch = watchPage(page);
        const path = errorPagePath('en-US');
        await page.goto(`${fixture.shell.t.url}${path}`);
        await waitForHydration(page);
        const first = (await page.textContent('.correlation-id')) ?? '';
        const id = /[0-9a-f-]{36}/.exec(first)?.[0] ?? 'none';
        expect(fixture.shell.t.logs.text).toContain(id);
        expect(await page.textContent('#error-view-title')).toBeTruthy();

        // An unknown brand fails the same way every time: the button starts over at the sign-in
        // instead of loading the failed address again (issue 33).
        const action = page.locator('.error-view-actions a');
        expect(await action.textContent()).toBe('Start over');
        expect(await action.getAttribute('href')).toBe('/signin');
        expect(await watch.all(documentStatusError(page, 400))).toEqual([]);
        // Keyboard: the link is reachable and follows with Enter, to a page that works.
        await action.focus();
        const next = page.waitForResponse((r) => r.request().isNavigationRequest() && r.ok());
        await page.keyboard.press('Enter');
        await next;
        await page.waitForSelector('main h1');
        expect(await page.locator('#error-view-title').count()).toBe(0);
        expect(await page.locator('main input[name="email"]').count()).toBe(1);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'a page that does not exist: start over, in the language asked for; a signed-in collector goes on',
      async () => {
        context = await fixture.context({ cookies: await signedInCookies(fixture.shell.t) });
        const page = await context.newPage();
        const response = await page.goto(`${fixture.shell.t.url}/no/such/page?lang=fr-CA`);
        expect(response?.status()).toBe(404);
        await waitForHydration(page);
        const action = page.locator('.error-view-actions a');
        expect(await action.textContent()).toBe('Recommencer');
        expect(await action.getAttribute('href')).toBe('/signin?lang=fr-CA');
        await action.click();
        // A signed-in collector goes straight on, to their account page.
        await page.waitForURL((url) => url.pathname.endsWith('/collection'));
        expect(await page.locator('#error-view-title').count()).toBe(0);
      },
      TEST_TIMEOUT_MS,
    );

    it.each([
      [390, 844],
      [1280, 800],
    ])(
      'is a centred card like /unauthredirect at %i px',
      async (width, height) => {
        context = await fixture.context({ viewport: { width, height } });
        const page = await context.newPage();
        await page.goto(`${fixture.shell.t.url}/unauthredirect?error=Unauthorized`);
        const card = await page.$eval('main.signin-card', (el) => el.getBoundingClientRect().width);
        await page.goto(`${fixture.shell.t.url}${errorPagePath('en-US')}`);
        await waitForHydration(page);
        const view = await page.$eval('.error-view', (el) => {
          const box = el.getBoundingClientRect();
          const style = getComputedStyle(el);
          const button = el.querySelector('.error-view-actions a')?.getBoundingClientRect();
          return {
            width: box.width,
            centreOffset: Math.abs(box.left + box.width / 2 - window.innerWidth / 2),
            border: style.borderTopWidth,
            radius: style.borderTopLeftRadius,
            buttonFill: button ? button.width / box.width : 0,
          };
        });
        expect(Math.abs(view.width - card)).toBeLessThan(2);
        expect(view.centreOffset).toBeLessThan(2);
        expect(view.border).toBe('1px');
        expect(view.radius).toBe('12px');
        // The one way on spans the card, as "Sign in again" does on /unauthredirect.
        expect(view.buttonFill).toBeGreaterThan(0.8);
      },
      TEST_TIMEOUT_MS,
    );
  });

  describe('the render-error boundary', () => {
    // There is no way to make a production page throw while rendering, and the product has no
    // test hook. So the test alters the page's data on its way to the browser: the server rendered
    // the page normally, then the browser's render of the collection page meets a collector id that
    // cannot become text (an object without toString or valueOf) and throws inside the boundary.
    async function throwingCollection(cookies: Cookie[]): Promise<Page> {
      context = await fixture.context({ cookies });
      const page = await context.newPage();
      await page.route(`${fixture.shell.t.url}/collection`, async (route) => {
        const response = await route.fetch();
        // Every collector id in the data (the account state and, since issue 16 item 4, the
        // landing's account summary).
        const body = (await response.text()).replace(
          /"collectorsId":\d+/g,
          '"collectorsId":{"toString":1,"valueOf":1}',
        );
        await route.fulfill({ response, body });
      });
      return page;
    }

    it(
      'replaces the page with the error page, reports it, shows the returned id; try again renders afresh',
      async () => {
        const cookies = await signedInCookies(fixture.shell.t);
        const page = await throwingCollection(cookies);
        const watch = watchPage(page);
        const reported = page.waitForResponse((r) => r.url().includes('log.clientError'));
        await page.goto(`${fixture.shell.t.url}/collection`);
        await waitForHydration(page);
        expect((await reported).status()).toBe(200);
        await page.locator('main .correlation-id').waitFor();
        const text = (await page.textContent('main .correlation-id')) ?? '';
        const id = /[0-9a-f-]{36}/.exec(text)?.[0] ?? 'none';
        // The server logged the message and path under that id.
        const record = fixture.shell.t.logs.records.find((r) => r.correlationId === id);
        expect(record).toMatchObject({ msg: 'client error', path: '/collection' });
        expect(String(record?.clientMessage)).toMatch(/primitive/i);
        // Only the main content is replaced: header and footer stay, and they still work.
        expect(await page.locator('#account-summary-title').count()).toBe(0);
        expect(await page.locator('main #error-view-title').isVisible()).toBe(true);
        expect(await page.locator('header.site-header').isVisible()).toBe(true);
        expect(await page.locator('footer.site-footer').isVisible()).toBe(true);
        expect(await seriousViolations(page)).toEqual([]);

        // Try again (a button here) clears the error and renders the page again: it throws again, so
        // a new report and a new id.
        const again = page.waitForResponse((r) => r.url().includes('log.clientError'));
        await page.locator('main .error-view-actions button').click();
        expect((await again).status()).toBe(200);
        await until(
          async () => (await page.textContent('main .correlation-id')) ?? '',
          (now) => /[0-9a-f-]{36}/.test(now) && !now.includes(id),
        );
        expect(await watch.all()).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'shows a spinner until the id arrives, and an id of its own when the report fails',
      async () => {
        const cookies = await signedInCookies(fixture.shell.t);
        const page = await throwingCollection(cookies);
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/api/collectors-web/trpc/log.clientError**', async (route) => {
          await held;
          await route.abort('failed');
        });
        await page.goto(`${fixture.shell.t.url}/collection`);
        await waitForHydration(page);
        await page.locator('main .error-view .ui-spinner-status').waitFor();
        expect(await page.locator('main .correlation-id').count()).toBe(0);
        release();
        await page.locator('main .correlation-id').waitFor();
        expect(await page.textContent('main .correlation-id')).toMatch(/local-[0-9a-z]+/);
      },
      TEST_TIMEOUT_MS,
    );
  });
});
