import type * as OidcProvider from 'oidc-provider';

/**
 * Jest's stand-in for src/idp/provider/load-oidc-provider.ts (jest.config.js `moduleNameMapper`):
 * Jest's vm context cannot run a real `import()`, so oidc-provider comes through Jest's module system
 * (compiled to CommonJS like the other ESM-only packages). The product's own loader runs in the
 * start-up tests, which start the compiled service.
 */
export function loadOidcProvider(): Promise<typeof OidcProvider> {
  return import('oidc-provider');
}
