import { Browser } from '../support/browser';
import { ProcessApp, buildApp, removeBuild, startProcessApp } from '../support/process-app';
import { jarCookie, pageText, throughIdp } from '../support/signin-journey';

/**
 * Issue 7 item 6: kill -9 while collectors sign in. The SQLite store acknowledges a session only
 * once its record is in the file (WAL), and the landing sets the cookie only after that; so every
 * collector whose browser got the sessionId cookie back is still signed in after a restart on the same
 * DATA_DIR. Sign-ins cut off by the kill simply did not happen.
 */

const JOURNEYS = 16;
/** The kill comes when this many landings have answered; the rest are somewhere in their journey. */
const KILL_AFTER = 5;

let main: string;
const running: ProcessApp[] = [];
beforeAll(() => {
  main = buildApp();
}, 180_000);
afterAll(async () => {
  for (const app of running) await app.kill();
  removeBuild(main);
});

describe('kill -9 during sign-ins (issue 7 item 6)', () => {
  it('loses no session whose cookie reached the browser', async () => {
    const first = await startProcessApp(main);
    running.push(first);
    const signedIn: { browser: Browser; sessionId: string }[] = [];

    const journey = async (i: number): Promise<void> => {
      // Staggered, so that the kill finds journeys at every step.
      await new Promise((r) => setTimeout(r, i * 40));
      const browser = new Browser();
      const callback = await throughIdp(browser, await browser.get(`${first.url}/signin`));
      const landing = await browser.get(callback.href);
      const sessionId = await jarCookie(browser, first.url, 'sessionId');
      if (landing.status !== 302 || !sessionId)
        throw new Error(`landing answered ${landing.status}`);
      signedIn.push({ browser, sessionId });
      if (signedIn.length === KILL_AFTER) first.child.kill('SIGKILL');
    };
    const outcomes = await Promise.allSettled(
      Array.from({ length: JOURNEYS }, (_, i) => journey(i)),
    );
    expect(await first.exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(signedIn.length).toBeGreaterThanOrEqual(KILL_AFTER);
    // The kill did cut journeys off.
    expect(outcomes.filter((o) => o.status === 'rejected').length).toBeGreaterThan(0);

    const second = await startProcessApp(main, {
      DATA_DIR: first.dataDir,
      PORT: String(first.port),
    });
    running.push(second);
    expect((await fetch(`${second.managementUrl}/readyz`)).status).toBe(200);
    for (const { browser, sessionId } of signedIn) {
      const page = await browser.get(`${second.url}/collection`);
      expect(page.status).toBe(200);
      expect(pageText(page.body)).toMatch(/You are signed in with collector number \d+\./);
      // The same session, not a new one.
      expect(await jarCookie(browser, second.url, 'sessionId')).toBe(sessionId);
    }
  }, 120_000);
});
