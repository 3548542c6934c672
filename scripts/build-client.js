// `npm run build:client`: the browser bundle (docs/design.md "Browser"). esbuild bundles client/main.tsx
// and the stylesheets into content-hashed files under client/dist, with a manifest the server reads to
// write the <script>, <style> and <link> tags. In the browser, React is preact/compat: the server
// renders with React's renderToString and the client hydrates that markup with Preact, which keeps the
// first-load JavaScript inside issue 6's budget (React + ReactDOM alone are ~69 kB gzipped).
//
// Stylesheets (issue 18 item 5, first paint on a phone): `critical` (client/styles/critical.css) and
// `critical-page` (the same plus the sign-in pages' signin.css) are inlined by the server in each
// page's <head> under the CSP nonce, so nothing is requested before the first paint; `deferred` (what
// only the script shows) is preloaded after a shell page's content and applied by the script;
// `nudge` is inlined with the first-paint rules of a page a phone asks for (the nudge's banner);
// `consent` is loaded by the consent dialog's code when it first opens. They are built first, so the
// script can be given the consent stylesheet's hashed name.
'use strict';
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'client/dist');
/** Issue 6: the first-load JavaScript, gzipped, must stay within this budget. */
const FIRST_LOAD_BUDGET_BYTES = 75 * 1024;
/** Where the server serves client/dist (src/shared/routes.ts ROUTES.assets). */
const ASSETS_PREFIX = '/static/app/';

/** The stylesheets, by entry name (see the head of this file). */
const STYLESHEETS = {
  critical: 'client/styles/critical.css',
  'critical-page': 'client/styles/critical-page.css',
  deferred: 'client/styles/deferred.css',
  nudge: 'client/styles/nudge.css',
  consent: 'client/consent/consent-styles.css',
};

const COMMON = {
  absWorkingDir: ROOT,
  outdir: OUT,
  bundle: true,
  minify: true,
  sourcemap: 'linked',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  entryNames: '[name]-[hash]',
  assetNames: 'assets/[name]-[hash]',
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
};

async function build() {
  fs.rmSync(OUT, { recursive: true, force: true });
  const rel = (file) => path.relative(OUT, path.join(ROOT, file)).split(path.sep).join('/');
  const entryOf = (outputs, name, ext) =>
    Object.keys(outputs).find((f) => rel(f).startsWith(`${name}-`) && f.endsWith(ext));

  const css = await esbuild.build({ ...COMMON, entryPoints: STYLESHEETS });
  const styles = Object.fromEntries(
    Object.keys(STYLESHEETS).map((name) => {
      const file = entryOf(css.metafile.outputs, name, '.css');
      if (!file) throw new Error(`esbuild did not produce the ${name} stylesheet`);
      return [name, rel(file)];
    }),
  );

  const result = await esbuild.build({
    ...COMMON,
    entryPoints: { app: 'client/main.tsx' },
    splitting: true,
    format: 'esm',
    chunkNames: 'chunks/[name]-[hash]',
    jsx: 'automatic',
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
    define: {
      'process.env.NODE_ENV': '"production"',
      // client/consent/consent-styles.ts: the dialog's stylesheet, under the bundle's URL prefix.
      __CONSENT_STYLESHEET__: JSON.stringify(`${ASSETS_PREFIX}${styles.consent}`),
    },
  });

  const outputs = result.metafile.outputs;
  const appJs = entryOf(outputs, 'app', '.js');
  if (!appJs) throw new Error('esbuild did not produce the app script');
  // The script imports no CSS (a stylesheet imported from code would be bundled beside the entry and
  // block the first paint, dynamic imports' included): stylesheets are the entries above.
  if (outputs[appJs].cssBundle)
    throw new Error(`client code imports CSS (${outputs[appJs].cssBundle}): add it to STYLESHEETS`);

  // First load: the entry and every chunk it imports statically (dynamic imports load later).
  const firstLoad = new Set();
  const visit = (file) => {
    if (firstLoad.has(file)) return;
    firstLoad.add(file);
    for (const i of outputs[file].imports)
      if (i.kind === 'import-statement' && outputs[i.path]) visit(i.path);
  };
  visit(appJs);
  const gzipped = [...firstLoad].reduce(
    (sum, f) => sum + zlib.gzipSync(fs.readFileSync(path.join(ROOT, f)), { level: 9 }).length,
    0,
  );

  const manifest = {
    script: rel(appJs),
    preload: [...firstLoad].filter((f) => f !== appJs).map(rel),
    styles,
    firstLoadGzipBytes: gzipped,
  };
  fs.writeFileSync(path.join(OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const kb = (gzipped / 1024).toFixed(1);
  console.log(
    `client bundle: first-load JavaScript ${kb} kB gzipped (budget 75 kB), ${firstLoad.size} file(s)`,
  );
  if (gzipped > FIRST_LOAD_BUDGET_BYTES) {
    throw new Error(`first-load JavaScript is ${kb} kB gzipped, over the 75 kB budget`);
  }
  const inline = ['critical', 'critical-page'].map(
    (name) => `${name} ${(fs.statSync(path.join(OUT, styles[name])).size / 1024).toFixed(1)} kB`,
  );
  console.log(`inline first-paint styles: ${inline.join(', ')} (raw; compressed with the page)`);

  // Issue 18 item 1: every static asset also as brotli and gzip copies, made once here at the best
  // settings, so the server sends the best copy a request accepts without compressing per request.
  // The brand files (client/public) and the §9 translation files (locales) are copied beside the
  // bundle for that, and served from here.
  copyTree(path.join(ROOT, 'client/public'), path.join(OUT, 'public'));
  copyTree(path.join(ROOT, 'locales'), path.join(OUT, 'locales'));
  const copies = precompress(OUT);
  console.log(`static assets: ${copies} file(s) with brotli and gzip copies`);
}

function copyTree(from, to) {
  fs.cpSync(from, to, { recursive: true });
}

/** Files that are worth a compressed copy: text, not source maps or licence notes. */
const COMPRESSIBLE = /\.(js|css|json|svg|txt|html|xml|webmanifest)$/;
const SKIP = /(\.map|\.LEGAL\.txt)$/;

function precompress(dir) {
  let count = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      count += precompress(file);
      continue;
    }
    if (!COMPRESSIBLE.test(entry.name) || SKIP.test(entry.name)) continue;
    const body = fs.readFileSync(file);
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
    count += 1;
  }
  return count;
}

build().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});
