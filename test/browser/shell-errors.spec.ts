import type { BrowserContext, Cookie, Page } from 'playwright-core';
import {
  TEST_TIMEOUT_MS,
  cookiesFor,
  documentStatusError,
  errorPagePath,
  hydrationMutations,
  seriousViolations,
  settle,
  signedInCookies,
  until,
  waitForHydration,
  watchPage,
  useShellBrowser,
} from '../support/shell-browser';

/**
 * Issue 6 item 8 in Chromium: the server's error page (correlation id, try again), the client's
 * render-error boundary (§8 "Unhandled render error"), and the §2 shell rule as the browser applies
 * it with the promptMfaSignin flag of localStorage.
 */
describe('shell error page, error boundary and shell rule in Chromium', () => {
  const fixture = useShellBrowser({ signedIn: false });
  let context: BrowserContext;

  describe('the error page', () => {
    it(
      'shows the correlation id the server logged; try again loads the address again',
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

        // Keyboard: the try-again link is reachable and follows with Enter.
        const retry = page.locator('.error-view-actions a');
        await retry.focus();
        const reloaded = page.waitForResponse((r) => r.url() === `${fixture.shell.t.url}${path}`);
        await page.keyboard.press('Enter');
        expect((await reloaded).status()).toBe(400);
        await waitForHydration(page);
        const second = (await page.textContent('.correlation-id')) ?? '';
        expect(second).not.toBe(first);
        expect(await watch.all(documentStatusError(page, 400))).toEqual([]);
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
        const body = (await response.text()).replace(
          /"collectorsId":\d+/,
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

  describe('the §2 shell rule in the browser', () => {
    /** /signin answers with a stub, so the test sees where the browser was sent and stops there. */
    async function stubSignin(page: Page): Promise<void> {
      await page.route(
        (url) => url.pathname === '/signin',
        (route) =>
          route.fulfill({
            status: 200,
            contentType: 'text/html',
            body: '<!doctype html><title>signin</title>',
          }),
      );
    }

    /**
     * Navigates to `path` and returns where the server's answer sends the browser. A redirect the
     * browser follows is not routed again, so the answer is fetched without following and a stub
     * ends the navigation there.
     */
    async function serverRedirect(page: Page, path: string): Promise<URL | undefined> {
      let location: string | undefined;
      await page.route(
        (url) => url.pathname === new URL(path, fixture.shell.t.url).pathname,
        async (route) => {
          const response = await route.fetch({ maxRedirects: 0 });
          location = response.headers().location;
          await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html>' });
        },
      );
      await page.goto(`${fixture.shell.t.url}${path}`);
      return location === undefined ? undefined : new URL(location, fixture.shell.t.url);
    }

    async function mfaSetupContext(localStorage: Record<string, string>) {
      const session = await signedInCookies(fixture.shell.t, 'mfa-setup@example.com');
      // The server applies the rule with a promptMfaSignin cookie when there is one; 'false' there
      // lets it render the page, so what happens next is the browser's own decision.
      context = await fixture.context({
        cookies: [
          ...session,
          ...cookiesFor(
            fixture.shell.t.url,
            'promptMfaSignin=false; QTM_SID=3f2a9c0e1b7d4e5fa6b8c9d0e1f2a3b4',
          ),
        ],
        localStorage,
      });
      const page = await context.newPage();
      await stubSignin(page);
      return page;
    }

    it(
      'second-factor set-up pending and promptMfaSignin not "false": the page is replaced by /signin?r=...',
      async () => {
        const page = await mfaSetupContext({ promptMfaSignin: 'true' });
        const rendered = page.waitForResponse(
          (r) => r.url() === `${fixture.shell.t.url}/collection`,
        );
        const leaving = page.waitForRequest((r) => new URL(r.url()).pathname === '/signin');
        await page.goto(`${fixture.shell.t.url}/collection`);
        expect((await rendered).status()).toBe(200);
        const target = new URL((await leaving).url());
        expect(target.searchParams.get('r')).toBe(`${fixture.shell.t.url}/collection`);
        expect(target.searchParams.get('QTM_SID')).toBe('3f2a9c0e1b7d4e5fa6b8c9d0e1f2a3b4');
        await page.waitForURL((url) => url.pathname === '/signin');
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'the same with no flag stored at all',
      async () => {
        const page = await mfaSetupContext({});
        const leaving = page.waitForRequest((r) => new URL(r.url()).pathname === '/signin');
        await page.goto(`${fixture.shell.t.url}/collection?lang=fr-CA`);
        expect(new URL((await leaving).url()).searchParams.get('r')).toBe(
          `${fixture.shell.t.url}/collection?lang=fr-CA`,
        );
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'second-factor set-up pending and promptMfaSignin "false": the page stays',
      async () => {
        const page = await mfaSetupContext({ promptMfaSignin: 'false' });
        const requests: string[] = [];
        page.on('request', (r) => requests.push(new URL(r.url()).pathname));
        await page.goto(`${fixture.shell.t.url}/collection`);
        await waitForHydration(page);
        await settle(page);
        expect(new URL(page.url()).pathname).toBe('/collection');
        expect(await page.locator('#account-summary-title').isVisible()).toBe(true);
        expect(requests).not.toContain('/signin');
        expect(await hydrationMutations(page)).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'the redirect carries b, the brand of the referring site',
      async () => {
        const page = await mfaSetupContext({});
        const leaving = page.waitForRequest((r) => new URL(r.url()).pathname === '/signin');
        await page.goto(`${fixture.shell.t.url}/collection`, {
          referer: `${fixture.shell.t.config.brands.pcgs.baseURL}/somewhere`,
        });
        expect(new URL((await leaving).url()).searchParams.get('b')).toBe('pcgs');
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'a survey pending but the collector came from a brand the survey is not for: the page stays',
      async () => {
        const session = await signedInCookies(fixture.shell.t, 'survey@example.com');
        context = await fixture.context({ cookies: session });
        const page = await context.newPage();
        await stubSignin(page);
        const requests: string[] = [];
        page.on('request', (r) => requests.push(new URL(r.url()).pathname));
        await page.goto(`${fixture.shell.t.url}/collection`, {
          referer: `${fixture.shell.t.config.brands.pcgs.baseURL}/somewhere`,
        });
        await waitForHydration(page);
        expect(new URL(page.url()).pathname).toBe('/collection');
        expect(await page.locator('#account-summary-title').isVisible()).toBe(true);
        expect(requests).not.toContain('/signin');
      },
      TEST_TIMEOUT_MS,
    );

    // The server applies the same rule before rendering when it can (no promptMfaSignin cookie
    // saying 'false'): the browser gets the redirect as the answer to its request.
    it.each([
      ['second-factor set-up pending, no promptMfaSignin cookie', 'mfa-setup@example.com'],
      ['a survey pending and no referring brand', 'survey@example.com'],
      ['nobody signed in', undefined],
    ])(
      '%s: the browser is sent to /signin?r=...',
      async (_case, email) => {
        const cookies = email ? await signedInCookies(fixture.shell.t, email) : [];
        context = await fixture.context({ cookies });
        const page = await context.newPage();
        const target = await serverRedirect(page, '/collection');
        expect(target?.pathname).toBe('/signin');
        expect(target?.searchParams.get('r')).toBe(`${fixture.shell.t.url}/collection`);
        expect(target?.searchParams.has('b')).toBe(false);
      },
      TEST_TIMEOUT_MS,
    );
  });
});
