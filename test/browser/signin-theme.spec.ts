import type { BrowserContext, Page } from 'playwright-core';
import { luminance } from '../support/contrast';
import {
  type ShellBrowser,
  TEST_TIMEOUT_MS,
  newShellContext,
  startShellBrowser,
} from '../support/shell-browser';
import { Browser } from '../support/browser';
import { locationOf, signInVia } from '../support/signin-journey';

/**
 * Issue 33: the embedded IdP's pages follow the shell's theme cookie (§4 Other) on the whole page, not
 * just inside the frame: <html> carries the theme's class as on the shell's pages, so the canvas
 * around the frame, the body and the scrollbar (the root's color-scheme) are dark with theme=dark and
 * light without the cookie. A sign-in step, the IdP's message page (an expired sign-in) and error
 * page, and the service's own message pages alike.
 */
describe('the theme of the IdP pages’ whole document (issue 33)', () => {
  let shell: ShellBrowser;
  const open: BrowserContext[] = [];

  beforeAll(async () => {
    shell = await startShellBrowser();
  }, TEST_TIMEOUT_MS);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await shell?.close();
  });

  async function newPage(theme?: 'dark'): Promise<Page> {
    const context = await newShellContext(shell, theme ? { theme } : {});
    open.push(context);
    return context.newPage();
  }

  /** The root's classes and colour scheme, and the backgrounds of <html> and <body>. */
  const documentLook = (page: Page) =>
    page.evaluate(() => {
      const root = getComputedStyle(document.documentElement);
      return {
        htmlClass: document.documentElement.className,
        colorScheme: root.colorScheme,
        html: root.backgroundColor,
        body: getComputedStyle(document.body).backgroundColor,
      };
    });

  const pages = {
    'a sign-in step': async (page: Page) => {
      await page.goto(`${shell.t.url}/signin?b=collectors`);
      await page.waitForURL(/\/idp\/signin\//);
      expect(await page.locator('#field-email').count()).toBe(1);
    },
    'the expired sign-in message page': async (page: Page) => {
      // An interaction the IdP does not know: the "sign-in page expired" message.
      const response = await page.goto(`${shell.t.url}/idp/signin/no-such-interaction`);
      expect(response?.status()).toBe(400);
      expect(await page.locator('[role="alert"]').count()).toBe(1);
    },
    '/unauthredirect (a message page of the service)': async (page: Page) => {
      await page.goto(`${shell.t.url}/unauthredirect?error=Unauthorized&b=psa`);
      expect(await page.locator('.message-action').count()).toBe(1);
    },
    'the page that asks before a `t` signs in': async (page: Page) => {
      const { landing } = await signInVia(shell.t, new Browser(), 'b=psa');
      const t = locationOf(landing).searchParams.get('t') ?? '';
      // Opened from nowhere (Sec-Fetch-Site: none): the service asks first.
      await page.goto(`${shell.t.url}/signin?b=psa&t=${encodeURIComponent(t)}`);
      expect(new URL(page.url()).pathname).toBe('/signin/continue');
    },
    "the IdP's own error page": async (page: Page) => {
      const response = await page.goto(
        `${shell.t.url}/oauth2/default/v1/authorize?client_id=no-such-client&response_type=code`,
      );
      expect(response?.status()).toBeGreaterThanOrEqual(400);
      expect(await page.locator('h1').count()).toBe(1);
    },
  } as const;

  describe.each(Object.keys(pages) as (keyof typeof pages)[])('%s', (name) => {
    it(
      'is dark with the theme=dark cookie',
      async () => {
        const page = await newPage('dark');
        await pages[name](page);
        const look = await documentLook(page);
        expect(look.htmlClass.split(' ')).toContain('theme-dark');
        expect(look.colorScheme).toBe('dark');
        expect(luminance(look.body)).toBeLessThan(0.05);
        expect(luminance(look.html)).toBeLessThan(0.05);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'is light without the cookie',
      async () => {
        const page = await newPage();
        await pages[name](page);
        const look = await documentLook(page);
        expect(look.htmlClass.split(' ')).toContain('theme-light');
        expect(look.colorScheme).toBe('light');
        expect(luminance(look.body)).toBeGreaterThan(0.8);
        expect(luminance(look.html)).toBeGreaterThan(0.8);
      },
      TEST_TIMEOUT_MS,
    );
  });
});
