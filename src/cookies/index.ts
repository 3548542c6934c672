// The public surface of the cookie layer (docs/design.md "Style": index.ts is the only public surface).
export * from './cookie-policy';
export * from './cookie-validation';
export * from './cookie-header';
export { isCookieNameToken, isCookieOctets, isCookieValue } from './cookie-grammar';
