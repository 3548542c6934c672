import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  PRIVATE_FILE_MODE,
  PRIVATE_FOLDER_MODE,
  describeChanges,
  privateDatabase,
  privateFile,
  privateFolder,
} from './private-files';

/**
 * docs/security.md, secrets at rest: DATA_DIR and the files of ours in it are their owner's alone.
 */
describe('private files', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'private-files-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

  it('makes a missing folder, and its missing parents, 0700 whatever the umask', () => {
    const dir = path.join(root, 'a', 'data');
    expect(privateFolder(dir)).toEqual([]);
    expect(modeOf(dir)).toBe(PRIVATE_FOLDER_MODE);
    expect(modeOf(path.join(root, 'a'))).toBe(PRIVATE_FOLDER_MODE);
  });

  it.each([
    ['a folder others can read', 0o755, [{ from: 0o755, to: 0o700 }]],
    ['a folder its group can write', 0o770, [{ from: 0o770, to: 0o700 }]],
    ['a private folder', 0o700, []],
    ['a folder narrower than private', 0o500, []],
  ])('%s (%s)', (_name, mode, changes) => {
    const dir = path.join(root, 'data');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, mode);
    expect(privateFolder(dir)).toEqual(changes.map((c) => ({ path: dir, ...c })));
    expect(modeOf(dir)).toBe(changes.length > 0 ? PRIVATE_FOLDER_MODE : mode);
  });

  it.each([
    ['a file others can read', 0o644, [{ from: 0o644, to: 0o600 }]],
    ['a file its group can write', 0o660, [{ from: 0o660, to: 0o600 }]],
    ['a private file', 0o600, []],
    ['a read-only private file', 0o400, []],
  ])('%s (%s)', (_name, mode, changes) => {
    const file = path.join(root, 'key.json');
    fs.writeFileSync(file, '{}');
    fs.chmodSync(file, mode);
    expect(privateFile(file)).toEqual(changes.map((c) => ({ path: file, ...c })));
    expect(modeOf(file)).toBe(changes.length > 0 ? PRIVATE_FILE_MODE : mode);
  });

  it('leaves a file that does not exist alone', () => {
    expect(privateFile(path.join(root, 'none'))).toEqual([]);
    expect(fs.existsSync(path.join(root, 'none'))).toBe(false);
  });

  it('creates a new database 0600, and tightens an old one with its log and shared memory', () => {
    const fresh = path.join(root, 'new', 'sessions.sqlite');
    expect(privateDatabase(fresh)).toEqual([]);
    expect(modeOf(fresh)).toBe(PRIVATE_FILE_MODE);
    expect(fs.statSync(fresh).size).toBe(0);

    const old = path.join(root, 'old', 'sessions.sqlite');
    fs.mkdirSync(path.dirname(old), { mode: 0o755 });
    fs.chmodSync(path.dirname(old), 0o755);
    for (const f of [old, `${old}-wal`, `${old}-shm`]) {
      fs.writeFileSync(f, 'x');
      fs.chmodSync(f, 0o644);
    }
    const changes = privateDatabase(old);
    expect(changes.map((c) => c.path)).toEqual([
      path.dirname(old),
      old,
      `${old}-wal`,
      `${old}-shm`,
    ]);
    for (const f of [old, `${old}-wal`, `${old}-shm`]) expect(modeOf(f)).toBe(PRIVATE_FILE_MODE);
    expect(fs.readFileSync(old, 'utf8')).toBe('x');
    expect(describeChanges(changes)).toBe(
      `${path.dirname(old)} 0755 → 0700, ${old} 0644 → 0600, ${old}-wal 0644 → 0600, ${old}-shm 0644 → 0600`,
    );
  });

  it('says so, and goes on, when a mode cannot be changed', () => {
    expect(describeChanges([{ path: '/data', from: 0o777, failed: 'EPERM' }])).toBe(
      '/data 0777 (not changed: EPERM)',
    );
  });
});
