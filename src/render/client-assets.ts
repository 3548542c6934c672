import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLIENT_DIST_DIR } from '../config/project-paths';
import { ROUTES } from '../shared/routes';

/** Where the content-hashed bundle is served (long-lived, immutable caching: see app.factory.ts). */

export interface ClientAssets {
  readonly script: string;
  readonly preload: readonly string[];
  readonly styles: readonly string[];
}

interface Manifest {
  readonly script: string;
  readonly preload: readonly string[];
  readonly styles: readonly string[];
}

/**
 * The bundle's file names from client/dist/manifest.json, read once. A missing bundle stops start-up
 * with the command that builds it, rather than serving pages whose script 404s.
 */
export function loadClientAssets(dir: string = CLIENT_DIST_DIR): ClientAssets {
  const file = path.join(dir, 'manifest.json');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch (error) {
    throw new Error(
      `the browser bundle is missing or unreadable (${file}): run \`npm run build:client\``,
      { cause: error },
    );
  }
  const url = (f: string) => `${ROUTES.assets}${f}`;
  return {
    script: url(manifest.script),
    preload: manifest.preload.map(url),
    styles: manifest.styles.map(url),
  };
}

/** Injection token for the loaded ClientAssets. */
export const CLIENT_ASSETS = Symbol('CLIENT_ASSETS');
