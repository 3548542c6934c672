import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLIENT_DIST_DIR } from '../config/project-paths';
import { ROUTES } from '../shared/routes';

/** Where the content-hashed bundle is served (long-lived, immutable caching: see app.factory.ts). */

export interface ClientAssets {
  readonly script: string;
  /** The chunks the script imports statically, preloaded beside it (after the page's content). */
  readonly preload: readonly string[];
  /**
   * The shell pages' first-paint rules (client/styles/critical.css, built), inlined in their <head>
   * under the response's CSP nonce (issue 18 item 5): no stylesheet request stands before the paint.
   */
  readonly criticalCss: string;
  /** The plain pages' (sign-in steps, messages): the shell's critical rules and signin.css. */
  readonly pageCriticalCss: string;
  /**
   * The app nudge's rules (client/styles/nudge.css), inlined after the critical rules of a page a
   * phone asks for, where the server draws the nudge; a desktop's page goes without them.
   */
  readonly nudgeCss: string;
  /**
   * What only the script shows (toasts, the app nudge): preloaded after a shell page's content, and
   * applied by the script (client/shell/deferred-styles.ts).
   */
  readonly deferredStyles: readonly string[];
}

interface Manifest {
  readonly script: string;
  readonly preload: readonly string[];
  readonly styles: {
    readonly critical: string;
    readonly 'critical-page': string;
    readonly deferred: string;
    readonly nudge: string;
  };
}

/**
 * The bundle's file names from client/dist/manifest.json, and the inline stylesheets' text, read once.
 * A missing bundle stops start-up with the command that builds it, rather than serving pages whose
 * script 404s.
 */
export function loadClientAssets(dir: string = CLIENT_DIST_DIR): ClientAssets {
  const file = path.join(dir, 'manifest.json');
  let manifest: Manifest;
  let criticalCss: string;
  let pageCriticalCss: string;
  let nudgeCss: string;
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    criticalCss = inlineCss(fs.readFileSync(path.join(dir, manifest.styles.critical), 'utf8'));
    pageCriticalCss = inlineCss(
      fs.readFileSync(path.join(dir, manifest.styles['critical-page']), 'utf8'),
    );
    nudgeCss = inlineCss(fs.readFileSync(path.join(dir, manifest.styles.nudge), 'utf8'));
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
    criticalCss,
    pageCriticalCss,
    nudgeCss,
    deferredStyles: [url(manifest.styles.deferred)],
  };
}

/**
 * A built stylesheet as the text of a <style> element: without its source-map comment (the map's
 * relative URL would resolve against the page), and refused if it could close the element.
 */
export function inlineCss(css: string): string {
  const text = css.replace(/\/\*# sourceMappingURL=[^*]*\*\/\s*$/, '').trim();
  if (/<\/style/i.test(text)) throw new Error('a stylesheet to inline contains </style');
  return text;
}

/** Injection token for the loaded ClientAssets. */
export const CLIENT_ASSETS = Symbol('CLIENT_ASSETS');
