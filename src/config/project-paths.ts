import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The project root (the folder with package.json), found from this file whether it runs from src/
 * under ts-jest/swc or from dist/src after a build. locales/ and static assets are resolved from it.
 */
function findProjectRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'locales')))
      return dir;
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new Error(`no project root (package.json and locales/) above ${start}`);
    dir = parent;
  }
}

export const PROJECT_ROOT = findProjectRoot(__dirname);
export const LOCALES_DIR = path.join(PROJECT_ROOT, 'locales');
/** The browser bundle built by scripts/build-client.js (content-hashed files and manifest.json). */
export const CLIENT_DIST_DIR = path.join(PROJECT_ROOT, 'client/dist');
/** The brand files (client/public), as the build copies them beside their compressed copies. */
export const CLIENT_PUBLIC_BUILD_DIR = path.join(CLIENT_DIST_DIR, 'public');
/** The translation files (locales/), as the build copies them for the browser, compressed too. */
export const LOCALES_BUILD_DIR = path.join(CLIENT_DIST_DIR, 'locales');
