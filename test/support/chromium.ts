import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser). `npm test` installs it
 * when missing (scripts/test-prerequisites.js); a missing binary fails loudly here, it is not skipped.
 * The flags keep Chromium from reaching for the network this machine does not have.
 */
export async function launchChromium(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  if (
    !fs.existsSync(CHROMIUM_PATH) &&
    spawnSync('sh', ['-c', 'command -v chromium'], { stdio: 'ignore' }).status !== 0
  ) {
    throw new Error(
      'chromium is not installed: run `npm test` (it installs it) or `apt-get install -y chromium`',
    );
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    // launch() gives every run a fresh, throw-away profile of its own.
    close: () => browser.close(),
  };
}
