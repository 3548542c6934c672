import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, BrowserContextOptions, Cookie, Page } from 'playwright-core';
import type { RawEnv } from '../../src/config/config.schema';
import type { Brand } from '../../src/shared/brand';
import { signedInSession } from './account-api';
import { launchChromium } from './chromium';
import { TestApp, startTestApp } from './test-app';

/**
 * Shared set-up for the browser tests of the signed-in shell (issue 6 item 8): the real app and
 * Debian's Chromium, signed-in cookies for a browser context, a watch on everything a page reports
 * (console errors, uncaught exceptions, CSP violations, DOM changes made by hydration), and axe.
 */

export const LOCALES = ['en-US', 'en-CA', 'fr-CA', 'ja-JP'] as const;
export const THEMES = ['light', 'dark'] as const;

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** The account API's path (every call the client makes goes under it). */
export const API_ROUTE = '**/api/collectors-web/trpc/**';

/** Generous per-test time: two cores shared with other jobs. */
export const TEST_TIMEOUT_MS = 120_000;

export interface ShellBrowser {
  readonly t: TestApp;
  readonly browser: Browser;
  close(): Promise<void>;
}

/** Starts the real app (APP_ENV local, as `npm start` runs it) and Chromium. */
export async function startShellBrowser(env: RawEnv = {}): Promise<ShellBrowser> {
  const t = await startTestApp(env);
  try {
    const { browser, close } = await launchChromium();
    return {
      t,
      browser,
      close: async () => {
        await close();
        await t.close();
      },
    };
  } catch (error) {
    await t.close();
    throw error;
  }
}

/**
 * A signed-in collector's cookies (see account-api.ts), ready for context.addCookies. The session
 * records `brand` (the collectors brand when absent), which picks the shell's account menu (§2).
 */
export async function signedInCookies(
  t: TestApp,
  email?: string,
  brand?: Brand,
): Promise<Cookie[]> {
  const start = brand ? `${t.url}/signin?b=${brand}` : undefined;
  const { cookie } = await signedInSession(t, email, undefined, start);
  return cookiesFor(t.url, cookie);
}

/** Cookies for the app's URL from a Cookie header ("a=1; b=2"). */
export function cookiesFor(url: string, header: string): Cookie[] {
  const { hostname } = new URL(url);
  return header
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf('=');
      return {
        name: part.slice(0, eq),
        value: part.slice(eq + 1),
        domain: hostname,
        path: '/',
        expires: -1,
        httpOnly: false,
        secure: false,
        sameSite: 'Lax' as const,
      };
    });
}

/**
 * Runs in every document before the page's own scripts: records CSP violations, and every DOM change
 * inside #root until hydration (plus the effects of its first commit) is over, so that a hydration
 * mismatch, which Preact repairs silently by rewriting text or nodes, becomes visible.
 */
function pageInstrumentation(): void {
  const w = window as unknown as {
    __csp: string[];
    __rootMutations: string[];
    __stopRootWatch?: () => void;
  };
  w.__csp = [];
  w.__rootMutations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    w.__csp.push(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'}`);
  });
  const label = (node: Node | null): string => {
    if (!node) return '?';
    if (node instanceof Element) {
      const id = node.id ? `#${node.id}` : '';
      const cls =
        typeof node.className === 'string' && node.className
          ? `.${node.className.split(' ')[0]}`
          : '';
      return `${node.tagName.toLowerCase()}${id}${cls}`;
    }
    return `${node.nodeName}(${(node.textContent ?? '').slice(0, 40)})`;
  };
  // The parser's own insertions are not hydration: recording starts when parsing ends, which is
  // before any module script runs (HTML's "the end": readiness interactive, then deferred scripts).
  let recording = false;
  const onMutations = (records: MutationRecord[]) => {
    if (!recording) return;
    const root = document.getElementById('root');
    for (const record of records) {
      if (!root || !root.contains(record.target)) continue;
      const what =
        record.type === 'childList'
          ? `+${[...record.addedNodes].map(label).join(',')} -${[...record.removedNodes].map(label).join(',')}`
          : record.type === 'attributes'
            ? `@${record.attributeName ?? ''}`
            : `text "${record.oldValue ?? ''}" -> "${record.target.textContent ?? ''}"`;
      w.__rootMutations.push(`${record.type} in ${label(record.target)}: ${what}`);
    }
  };
  const observer = new MutationObserver(onMutations);
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'interactive') return;
    observer.takeRecords();
    recording = true;
  });
  observer.observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
    characterDataOldValue: true,
    attributes: true,
  });
  w.__stopRootWatch = () => observer.disconnect();
}

/** Opens a browser context with the instrumentation, optional cookies, theme and storage. */
export async function newShellContext(
  shell: ShellBrowser,
  options: {
    readonly cookies?: readonly Cookie[];
    readonly theme?: 'light' | 'dark';
    readonly viewport?: { width: number; height: number };
    readonly userAgent?: string;
    /** localStorage entries set before the page's scripts run on the context's first page load. */
    readonly localStorage?: Readonly<Record<string, string>>;
    readonly context?: BrowserContextOptions;
  } = {},
): Promise<BrowserContext> {
  const context = await shell.browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
    ...options.context,
  });
  await context.addInitScript(pageInstrumentation);
  if (options.localStorage) {
    await context.addInitScript((entries: Record<string, string>) => {
      // Only before the first load of this origin in the context, so a test can watch it change.
      if (sessionStorage.getItem('__seeded') === '1') return;
      sessionStorage.setItem('__seeded', '1');
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, options.localStorage);
  }
  const cookies = [...(options.cookies ?? [])];
  if (options.theme) cookies.push(...cookiesFor(shell.t.url, `theme=${options.theme}`));
  if (cookies.length > 0) await context.addCookies(cookies);
  return context;
}

type ShellContextOptions = Parameters<typeof newShellContext>[1];

/** What a browser spec's hooks set up: the app and Chromium, a signed-in collector, its contexts. */
export interface ShellFixture {
  readonly shell: ShellBrowser;
  /** The signed-in collector's cookies (empty with `signedIn: false`). */
  readonly cookies: Cookie[];
  /** A new instrumented context (newShellContext), closed after the test that opened it. */
  context(options?: ShellContextOptions): Promise<BrowserContext>;
}

/**
 * Registers the hooks every shell spec needs: start the app and Chromium once (and sign a collector
 * in), close the contexts a test opened after it, close everything after the file.
 */
export function useShellBrowser(options: { signedIn?: boolean; env?: RawEnv } = {}): ShellFixture {
  let shell: ShellBrowser | undefined;
  let cookies: Cookie[] = [];
  const open: BrowserContext[] = [];
  beforeAll(async () => {
    shell = await startShellBrowser(options.env);
    if (options.signedIn !== false) cookies = await signedInCookies(shell.t);
  }, TEST_TIMEOUT_MS);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await shell?.close();
  });
  const started = (): ShellBrowser => {
    if (!shell) throw new Error('the shell browser has not started (use it inside a test)');
    return shell;
  };
  return {
    get shell() {
      return started();
    },
    get cookies() {
      return cookies;
    },
    async context(contextOptions) {
      const context = await newShellContext(started(), contextOptions);
      open.push(context);
      return context;
    },
  };
}

export { UNLIMITED_SIGNINS } from './test-config';

/** Opens the collectors' site's sign-in in `locale` and waits for the embedded IdP's first step. */
export async function openSigninStep(page: Page, url: string, locale: string): Promise<void> {
  const lang = locale === 'en-US' ? '' : `&lang=${locale}`;
  await page.goto(`${url}/signin?b=collectors${lang}`);
  await page.waitForURL(/\/idp\/signin\//);
}

/** Posts a sign-in step's form with the button of `action`, and waits for the page it leads to. */
export async function pressStepAction(page: Page, action = 'submit'): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click(`button[value="${action}"]`)]);
}

/** A console error and where it came from. */
export interface ConsoleError {
  readonly text: string;
  readonly url: string;
}

/**
 * Attaches listeners for console errors and uncaught exceptions to a page; all() adds the CSP
 * violations the instrumentation recorded and returns one line per problem, leaving out console
 * errors `expected` accepts (e.g. the error page's own 400, which Chromium reports as a failed load).
 */
export function watchPage(page: Page) {
  const consoleErrors: ConsoleError[] = [];
  const pageErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error')
      consoleErrors.push({ text: message.text(), url: message.location().url });
  });
  page.on('pageerror', (error) => pageErrors.push(String(error.stack ?? error)));
  return {
    consoleErrors,
    pageErrors,
    async all(expected: (error: ConsoleError) => boolean = () => false): Promise<string[]> {
      const csp = await page.evaluate(
        () => (window as unknown as { __csp?: string[] }).__csp ?? ['instrumentation missing'],
      );
      return [
        ...consoleErrors.filter((e) => !expected(e)).map((e) => `console: ${e.text} (${e.url})`),
        ...pageErrors.map((e) => `pageerror: ${e}`),
        ...csp.map((e) => `csp: ${e}`),
      ];
    },
  };
}

/** Chromium's console report of the document's own HTTP error status (the error page's 400). */
export function documentStatusError(page: Page, status: number) {
  return (error: ConsoleError): boolean =>
    error.url === page.url() &&
    error.text.startsWith(
      `Failed to load resource: the server responded with a status of ${status}`,
    );
}

/**
 * Waits until Preact has hydrated #root (the root element then carries Preact's __k, its rendered
 * children) and the first commit's effects have run: effects run after a frame, or after 100 ms when
 * frames are not drawn, so two frames and a short timer later they are done.
 */
export async function waitForHydration(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(
    () => {
      const root = document.getElementById('root');
      return root !== null && '__k' in root && root.__k !== undefined;
    },
    undefined,
    { timeout },
  );
  await settle(page);
}

/** Lets pending effects, frames and short timers run (not a wait for any particular condition). */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            setTimeout(resolve, 150);
          }),
        );
      }),
  );
}

/** The DOM changes hydration made inside #root (none when the server's markup matched). */
export async function hydrationMutations(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __rootMutations: string[]; __stopRootWatch?: () => void };
    w.__stopRootWatch?.();
    return w.__rootMutations;
  });
}

/**
 * axe-core's serious and critical WCAG 2.0/2.1 A and AA violations, one line each.
 *
 * Every rule of those tags runs on the whole page, as before; two settings only cut the overhead
 * around them (issue 34 item 1), measured on /collection at 3.0 s a check before and 0.75 s after:
 * axe runs in the page itself (legacy mode; the default opens a blank page to merge per-frame
 * results, injecting axe's 550 kB a second time, which only cross-origin frames need, and our pages
 * have no frames), and it reports node details for violations only, the one result read here.
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] });
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** The id of the focused element, or its tag and class when it has none. */
export function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return '';
    return el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}.${el.className}`;
  });
}

/** Polls `check` from Node (not from the page, whose timers a test may have frozen). */
export async function until<T>(
  check: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms: ${String(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The error page the server renders for an unknown brand, in a locale. */
export function errorPagePath(locale: string): string {
  return `/signin?b=nosuchbrand&lang=${encodeURIComponent(locale)}`;
}
