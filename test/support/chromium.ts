import * as fs from 'node:fs';
import { Browser, chromium } from 'playwright-core';
import LAUNCH from '../../scripts/chromium.json';

/** The browser a person runs (Debian's chromium): the back-forward cache test needs its full shell. */
export const CHROMIUM_PATH = LAUNCH.executablePath;
/**
 * Debian's chromium-headless-shell: the same Chromium build in the older headless mode, without the
 * browser's UI layers. Issue 34: the browser tier took 245 s in it against about 500 s in the full
 * browser (two workers, this 2-core machine), for the same pages and the same pictures but four:
 * the ja-JP error page's code is drawn in the plain `monospace` font, which the headless shell
 * resolves without the browser's per-script font settings.
 */
export const HEADLESS_SHELL_PATH = LAUNCH.headlessShellPath;

export const CHROMIUM_MISSING =
  'chromium is not installed: run `npm test` (it installs it) or `apt-get install -y chromium chromium-headless-shell`';

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser). `npm test` installs it
 * when missing (scripts/test-prerequisites.js); a missing binary fails loudly here, it is not skipped
 * (test/integration/test-prerequisites.spec.ts points `executablePath` at a path that does not exist).
 * Its paths and flags are scripts/chromium.json's, which bench/page.js launches with too. Tests run
 * the headless shell; a test that needs what only the full browser does (its back-forward cache)
 * gets the full browser.
 */
export async function launchChromium(
  options: {
    executablePath?: string;
    /**
     * Keeps Chromium's back-forward cache on (Playwright turns it off by default), for a test of a
     * page restored from it (§2, issue 16 item 2).
     */
    backForwardCache?: boolean;
  } = {},
): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const executablePath =
    options.executablePath ?? (options.backForwardCache ? CHROMIUM_PATH : HEADLESS_SHELL_PATH);
  if (!isExecutable(executablePath)) {
    throw new Error(`${CHROMIUM_MISSING} (no executable at ${executablePath})`);
  }
  const browser = await chromium.launch({
    executablePath,
    args: LAUNCH.args,
    ...(options.backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
  });
  return {
    browser,
    // launch() gives every run a fresh, throw-away profile of its own.
    close: () => browser.close(),
  };
}

/** Chromium for a test file or describe block: launched before its first test, closed after its last. */
export function useChromium(options: Parameters<typeof launchChromium>[0] = {}): {
  readonly browser: Browser;
} {
  let launched: Awaited<ReturnType<typeof launchChromium>> | undefined;
  beforeAll(async () => {
    launched = await launchChromium(options);
  }, 60_000);
  afterAll(async () => {
    await launched?.close();
  });
  return {
    get browser() {
      if (!launched) throw new Error('Chromium has not started (use it inside a test or a hook)');
      return launched.browser;
    },
  };
}
