import * as fs from 'node:fs';
import { dirname } from 'node:path';

/**
 * DATA_DIR holds sessions, the collectors' accounts and the embedded IdP's signing keys
 * (docs/security.md, secrets at rest): nobody but the service's own user may read it. Its folder is
 * 0700 and every file of ours in it 0600, however the process's umask would have made them (SQLite
 * creates a database 0644, Node a folder 0755 with the usual 022). Folders and files an earlier
 * version left readable are tightened when they are next opened, and the caller logs what changed.
 */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The files SQLite keeps beside a database: its write-ahead log, shared memory and journal. */
export const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'] as const;

/** What making a path private did: its mode before and after, or why it could not be changed. */
export type PrivacyChange =
  | { readonly path: string; readonly from: number; readonly to: number }
  | { readonly path: string; readonly from: number; readonly failed: string };

const isWide = (mode: number) => (mode & 0o077) !== 0;
const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

/** Takes group and other access away from `path` (when it exists and has any); what it changed. */
function tighten(path: string, to: number): PrivacyChange[] {
  let mode: number;
  try {
    mode = fs.statSync(path).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  if (!isWide(mode)) return [];
  try {
    fs.chmodSync(path, to);
    return [{ path, from: mode & 0o777, to }];
  } catch (error) {
    // A folder the service does not own (a volume mounted by root, say) stays as it is: said, not fatal.
    return [{ path, from: mode & 0o777, failed: (error as NodeJS.ErrnoException).code ?? 'error' }];
  }
}

/** The folder, made 0700 (with any parents it needs) or tightened to it. */
export function privateFolder(dir: string): PrivacyChange[] {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  return tighten(dir, PRIVATE_FOLDER_MODE);
}

/** A file of ours, tightened to 0600 when it exists. */
export function privateFile(file: string): PrivacyChange[] {
  return tighten(file, PRIVATE_FILE_MODE);
}

/**
 * A SQLite database and its companions, private before SQLite opens it: the folder 0700, the files
 * tightened to 0600, and a database that does not exist yet created empty with 0600 (SQLite takes an
 * empty file as a new database, and gives its -wal and -shm files the database file's mode).
 */
export function privateDatabase(file: string): PrivacyChange[] {
  const changes = privateFolder(dirname(file));
  for (const path of [file, ...SQLITE_COMPANIONS.map((suffix) => `${file}${suffix}`)])
    changes.push(...privateFile(path));
  fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_RDWR, PRIVATE_FILE_MODE));
  return changes;
}

/** One log line's words for what changed, e.g. `/data 0755 → 0700, /data/x.sqlite 0644 → 0600`. */
export function describeChanges(changes: readonly PrivacyChange[]): string {
  return changes
    .map((change) =>
      'to' in change
        ? `${change.path} ${octal(change.from)} → ${octal(change.to)}`
        : `${change.path} ${octal(change.from)} (not changed: ${change.failed})`,
    )
    .join(', ');
}
