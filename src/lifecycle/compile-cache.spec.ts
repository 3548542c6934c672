import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { privateCacheDir } from './compile-cache';

/** Cached code is run at the next start: the cache folder must be this user's alone. */
describe('the compile cache folder', () => {
  let tmp: string;
  const uid = process.getuid!();
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-cache-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('is made for this user, readable by no one else', () => {
    const dir = privateCacheDir(tmp, uid);
    expect(dir).toBe(path.join(tmp, `collectors-signon-compile-cache-${uid}`));
    expect(fs.statSync(dir!).mode & 0o777).toBe(0o700);
    // A second start finds it and uses it.
    expect(privateCacheDir(tmp, uid)).toBe(dir);
  });

  it('is refused when another user could have planted code in it', () => {
    const dir = path.join(tmp, `collectors-signon-compile-cache-${uid}`);
    fs.mkdirSync(dir, { mode: 0o777 });
    fs.chmodSync(dir, 0o777);
    expect(privateCacheDir(tmp, uid)).toBeUndefined();
  });

  it('is refused when it belongs to another user', () => {
    const dir = privateCacheDir(tmp, uid)!;
    expect(privateCacheDir(tmp, uid + 1)).toBeUndefined();
    expect(fs.existsSync(dir)).toBe(true);
  });

  it('is refused when the name is taken by a link or a file', () => {
    fs.symlinkSync(tmp, path.join(tmp, `collectors-signon-compile-cache-${uid}`));
    expect(privateCacheDir(tmp, uid)).toBeUndefined();
    fs.writeFileSync(path.join(tmp, `collectors-signon-compile-cache-${uid + 2}`), '');
    expect(privateCacheDir(tmp, uid + 2)).toBeUndefined();
  });

  it('is undefined, not a crash, when the temporary folder cannot be written', () => {
    expect(privateCacheDir('/proc/no-such-folder', uid)).toBeUndefined();
  });
});
