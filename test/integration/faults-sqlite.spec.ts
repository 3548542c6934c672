import Database from 'better-sqlite3';
import * as path from 'node:path';
import { SESSION_STORE } from '../../src/store/session-store';
import { Browser, BrowserResponse } from '../support/browser';
import {
  ProcessApp,
  buildApp,
  eventually,
  removeBuild,
  startProcessApp,
} from '../support/process-app';
import { jarCookie, pageText, throughIdp } from '../support/signin-journey';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Issue 7 item 6: the SQLite session file refuses writes in the middle of a sign-in. We run as root,
 * which ignores file permissions, and may not mount a small filesystem, so two real refusals stand in:
 * - another process holds the file's write lock (SQLITE_BUSY), with the service as a child process;
 * - the file is full (SQLITE_FULL): the service's own connection is capped at its current size with
 *   `PRAGMA max_page_count` (a per-connection setting, so it must be that connection) and the free
 *   pages are used up.
 * Either way the sign-in fails with the error page, nothing is half-written (no session record without
 * its cookie, no cookie without its record), the process lives on and works again afterwards.
 */

const htmlGet = (browser: Browser, url: string): Promise<BrowserResponse> =>
  browser.request(url, { headers: { accept: 'text/html' } });

function expectUnavailablePage(page: BrowserResponse): void {
  expect(page.status).toBe(503);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  // Not even the binding cookie's removal: the failed landing changes nothing in the browser.
  expect(page.headers.getSetCookie()).toEqual([]);
  const text = pageText(page.body);
  expect(text).toContain('The service is busy right now. Please try again shortly.');
  expect(text).toContain(`Reference: ${page.headers.get('x-request-id')}`);
}

function countRows(db: Database.Database, prefix: string): number {
  return db
    .prepare<[string], { n: number }>('SELECT count(*) AS n FROM kv WHERE key LIKE ?')
    .get(`${prefix}%`)!.n;
}

describe('the SQLite file is locked by another process (issue 7 item 6)', () => {
  let main: string;
  let app: ProcessApp | undefined;
  let locker: Database.Database | undefined;
  beforeAll(() => {
    main = buildApp();
  }, 180_000);
  afterAll(async () => {
    locker?.close();
    await app?.kill();
    removeBuild(main);
  });

  it('a landing fails with the error page, consumes nothing, and the same link works once the lock is gone', async () => {
    app = await startProcessApp(main);
    const file = path.join(app.dataDir, 'sessions.sqlite');
    const browser = new Browser();
    const callback = await throughIdp(browser, await browser.get(`${app.url}/signin`));

    locker = new Database(file);
    locker.exec('BEGIN EXCLUSIVE');
    const started = Date.now();
    const failed = await htmlGet(browser, callback.href);
    const took = Date.now() - started;
    expectUnavailablePage(failed);
    expect(took).toBeLessThan(3_000);
    // The failed landing wrote nothing and took nothing: no session, the login state still there.
    expect(countRows(locker, 'session:')).toBe(0);
    expect(countRows(locker, 'login:')).toBe(1);
    expect(await jarCookie(browser, app.url, 'sessionId')).toBeUndefined();
    // The process keeps answering while the file stays locked, though the once-a-second write of
    // the rate-limit counters (the landing counted one more hit) cannot get through meanwhile.
    await eventually('the counter write fails', () =>
      Promise.resolve(
        app!
          .logs()
          .some((l) => String(l.msg).startsWith('rate-limit counters could not be written')),
      ),
    );
    // A sign-in that starts meanwhile cannot store its login state: the error page, within the
    // store's 1 s wait for the lock.
    const blocked = Date.now();
    expectUnavailablePage(await htmlGet(new Browser(), `${app.url}/signin`));
    expect(Date.now() - blocked).toBeLessThan(3_000);
    for (let i = 0; i < 5; i++) {
      const health = Date.now();
      expect((await fetch(`${app.managementUrl}/healthz`)).status).toBe(200);
      expect(Date.now() - health).toBeLessThan(1_000);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(app.exited).toBe(false);

    locker.exec('ROLLBACK');
    locker.close();
    locker = undefined;
    // "Try again" is the same link: the sign-in completes.
    const landed = await htmlGet(browser, callback.href);
    expect(landed.status).toBe(302);
    expect(await jarCookie(browser, app.url, 'sessionId')).toMatch(/^[\w-]{43}$/);
    expect((await browser.get(`${app.url}/collection`)).status).toBe(200);

    const id = failed.headers.get('x-request-id');
    await eventually('the failure is logged', () =>
      Promise.resolve(app!.logs().some((l) => l.correlationId === id && l.level === 50)),
    );
    const lines = app.logs().filter((l) => l.correlationId === id && l.level === 50);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      status: 503,
      error: 'ServiceUnavailable',
      msg: 'request failed: the session store (sqlite) refused the operation: SQLITE_BUSY',
    });
    // The background write's trouble was logged once, and its recovery once.
    await eventually('the counters are written again', () =>
      Promise.resolve(
        app!.logs().some((l) => l.msg === 'rate-limit counters are written to the file again'),
      ),
    );
    expect(
      app
        .logs()
        .filter((l) => String(l.msg).startsWith('rate-limit counters could not be written')),
    ).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'rate-limit counters could not be written: database is locked (SQLITE_BUSY)',
      }),
    ]);
    expect(app.output()).not.toMatch(/unhandled|uncaught/i);
  }, 120_000);
});

/** The service's own connection to its session file (found through the store, whatever wraps it). */
function sessionConnection(t: TestApp): Database.Database {
  const seen = new Set<unknown>();
  const search = (value: unknown, depth: number): Database.Database | undefined => {
    if (value instanceof Database) return value;
    if (depth === 0 || typeof value !== 'object' || value === null || seen.has(value))
      return undefined;
    seen.add(value);
    for (const inner of Object.values(value)) {
      const found = search(inner, depth - 1);
      if (found) return found;
    }
    return undefined;
  };
  const db = search(t.app.get(SESSION_STORE), 3);
  if (!db || t.config.sessionStore.kind !== 'sqlite' || db.name !== t.config.sessionStore.file)
    throw new Error('the session store has no SQLite connection to its file');
  return db;
}

/** Caps the file at its size and fills every free page; returns how to undo it. */
function fillUp(db: Database.Database): () => void {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const limit = db.pragma('max_page_count', { simple: true }) as number;
  db.pragma(`max_page_count = ${pages}`);
  const insert = db.prepare('INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?)');
  let n = 0;
  for (const size of [3000, 200, 10]) {
    try {
      for (;;) insert.run(`fault-filler:${n++}`, 'x'.repeat(size), Date.now() + 3_600_000);
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_FULL') throw error;
    }
  }
  return () => {
    db.prepare("DELETE FROM kv WHERE key LIKE 'fault-filler:%'").run();
    db.pragma(`max_page_count = ${limit}`);
  };
}

describe('the SQLite file is full (issue 7 item 6)', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
  });

  it('a landing fails with the error page and no session or cookie; after space is freed, sign-in works', async () => {
    t = await startTestApp();
    const db = sessionConnection(t);
    const browser = new Browser();
    const callback = await throughIdp(browser, await browser.get(`${t.url}/signin`));

    const undo = fillUp(db);
    const failed = await htmlGet(browser, callback.href);
    expectUnavailablePage(failed);
    expect(countRows(db, 'session:')).toBe(0);
    expect(await jarCookie(browser, t.url, 'sessionId')).toBeUndefined();
    const id = failed.headers.get('x-request-id');
    const lines = t.logs.records.filter((l) => l.correlationId === id && l.level === 50);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      status: 503,
      error: 'ServiceUnavailable',
      msg: 'request failed: the session store (sqlite) refused the operation: SQLITE_FULL',
      cause: 'database or disk is full (SQLITE_FULL)',
    });
    expect((await fetch(`${t.managementUrl}/healthz`)).status).toBe(200);

    undo();
    const again = new Browser();
    const landed = await htmlGet(
      again,
      (await throughIdp(again, await again.get(`${t.url}/signin`))).href,
    );
    expect(landed.status).toBe(302);
    expect((await again.get(`${t.url}/collection`)).status).toBe(200);
    expect(countRows(db, 'session:')).toBe(1);
    expect(t.logs.text).not.toMatch(/unhandled|uncaught/i);
  }, 60_000);
});
