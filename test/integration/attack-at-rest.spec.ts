import Database from 'better-sqlite3';
import { createHash, generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { SIGNING_KEY_FILE } from '../../src/backchannel/service-signing-key';
import { Browser } from '../support/browser';
import { jarCookie, locationOf, throughBrandGrant, throughIdp } from '../support/signin-journey';
import { startTestApp, useTestApp } from '../support/test-app';
import { tempDataDir } from '../support/test-config';

/**
 * Issue 50 item 8, as someone with a copy of DATA_DIR, or a local account on the machine, would read
 * it: during a brand hop the login state held the new session's raw id (the `si` the brand receives,
 * and the browser's sessionId), the PKCE verifier and the nonce in plain text, still in the SQLite
 * write-ahead log after the hop; and the folder was 0755, the files 0644, so any local user could read
 * the sessions, the accounts and the embedded IdP's signing keys.
 */

/** The SQLite session store's files, as bytes: the database, its write-ahead log and shared memory. */
function storeBytes(file: string): string {
  return ['', '-wal', '-shm']
    .map((suffix) => `${file}${suffix}`)
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString('latin1'))
    .join('\n');
}

const s256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * Every run of 43 base64url characters in the bytes whose SHA-256 is `challenge`: the PKCE verifier
 * (RFC 7636 §4.2: the code_challenge is its S256) wherever it sits, inside a longer run or not.
 */
function verifiersFor(bytes: string, challenge: string): string[] {
  const found: string[] = [];
  for (const [run] of bytes.matchAll(/[A-Za-z0-9_-]{43,}/g))
    for (let i = 0; i + 43 <= run.length; i++)
      if (s256(run.slice(i, i + 43)) === challenge) found.push(run.slice(i, i + 43));
  return found;
}

/** What an attacker looks for: the secrets of one authorization request, and the session's id. */
interface Secrets {
  readonly nonce: string;
  readonly challenge: string;
  readonly sessionId?: string;
}

function readableIn(bytes: string, secrets: Secrets): string[] {
  return [
    ...(bytes.includes(secrets.nonce) ? ['nonce'] : []),
    ...(verifiersFor(bytes, secrets.challenge).length > 0 ? ['verifier'] : []),
    ...(secrets.sessionId && bytes.includes(secrets.sessionId) ? ['session id'] : []),
  ];
}

const authorization = (url: URL): Secrets => ({
  nonce: url.searchParams.get('nonce') ?? 'no nonce',
  challenge: url.searchParams.get('code_challenge') ?? 'no challenge',
});

describe('a brand hop leaves nothing readable in the session store', () => {
  const t = useTestApp();

  it('neither while the hop waits for its grant nor after: no raw session id, verifier or nonce', async () => {
    if (t.config.sessionStore.kind !== 'sqlite') throw new Error('expected SQLite');
    const file = t.config.sessionStore.file;
    const browser = new Browser();
    const start = await browser.get(`${t.url}/signin?b=psa`);
    const signin = authorization(locationOf(start));
    const callback = await throughIdp(browser, start);
    // The landing sends the browser back to the IdP for psa's own grant: the hop's login state is
    // written now, naming the session psa will receive (the browser's new sessionId).
    const landing = await browser.get(callback.href);
    const hopUrl = locationOf(landing);
    expect(hopUrl.searchParams.get('prompt')).toBe('none');
    const sessionId = (await jarCookie(browser, t.url, 'sessionId')) ?? '';
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const hop = { ...authorization(hopUrl), sessionId };
    expect(readableIn(storeBytes(file), hop)).toEqual([]);
    expect(readableIn(storeBytes(file), signin)).toEqual([]);

    const brand = await throughBrandGrant(browser, landing);
    expect(locationOf(brand).searchParams.get('si')).toBe(sessionId);
    // Taken and deleted: what the file and its log keep of it afterwards is as unreadable.
    expect(readableIn(storeBytes(file), hop)).toEqual([]);
    expect(readableIn(storeBytes(file), signin)).toEqual([]);
  }, 60_000);
});

describe('DATA_DIR is its owner’s alone', () => {
  const t = useTestApp();

  it('the folder is 0700 and every file in it 0600: sessions, accounts, keys, logs and shared memory', async () => {
    // The generated signing key and a signed-in session, so that every file exists.
    await request(t.url).get('/.well-known/jwks.json').expect(200);
    const browser = new Browser();
    const start = await browser.get(`${t.url}/signin?b=collectors`);
    await browser.get((await throughIdp(browser, start)).href);
    const dir = t.config.dataDir;
    const modes = Object.fromEntries(
      fs.readdirSync(dir).map((name) => [name, fs.statSync(path.join(dir, name)).mode & 0o777]),
    );
    for (const name of [
      'sessions.sqlite',
      'sessions.sqlite-wal',
      'sessions.sqlite-shm',
      'idp.sqlite',
      'idp.sqlite-wal',
      'idp-state.sqlite',
      'idp-state.sqlite-wal',
      SIGNING_KEY_FILE,
    ])
      expect([name, modes[name]]).toEqual([name, 0o600]);
    expect(Object.entries(modes).filter(([, mode]) => mode !== 0o600)).toEqual([]);
    expect((fs.statSync(dir).mode & 0o777).toString(8)).toBe('700');
  }, 60_000);
});

describe('a DATA_DIR an earlier version left readable', () => {
  it('is tightened at start, with a log line naming what changed', async () => {
    const dir = tempDataDir();
    fs.mkdirSync(dir, { recursive: true });
    fs.chmodSync(dir, 0o755);
    // An earlier version's files: a session database with its log, and the generated signing key.
    const db = new Database(path.join(dir, 'sessions.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE IF NOT EXISTS earlier (x)');
    db.close();
    const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      format: 'jwk',
    });
    fs.writeFileSync(path.join(dir, SIGNING_KEY_FILE), JSON.stringify(jwk));
    for (const name of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, name), 0o644);
    fs.writeFileSync(path.join(dir, 'sessions.sqlite-wal'), '', { mode: 0o644 });
    fs.chmodSync(path.join(dir, 'sessions.sqlite-wal'), 0o644);

    const t = await startTestApp({ DATA_DIR: dir });
    try {
      await request(t.url).get('/.well-known/jwks.json').expect(200);
      expect((fs.statSync(dir).mode & 0o777).toString(8)).toBe('700');
      for (const name of fs.readdirSync(dir))
        expect([name, (fs.statSync(path.join(dir, name)).mode & 0o777).toString(8)]).toEqual([
          name,
          '600',
        ]);
      const said = t.logs.records
        .map((r) => String(r.msg))
        .filter((msg) => msg.includes('made private'))
        .join('\n');
      expect(said).toContain(`${dir} 0755 → 0700`);
      expect(said).toContain(`${path.join(dir, 'sessions.sqlite')} 0644 → 0600`);
      expect(said).toContain(`${path.join(dir, 'sessions.sqlite-wal')} 0644 → 0600`);
      expect(said).toContain(`${path.join(dir, SIGNING_KEY_FILE)} 0644 → 0600`);
    } finally {
      await t.close();
    }
  }, 60_000);
});
