import { Brand, DEFAULT_BRAND, isBrand } from '../../shared/brand';

/**
 * The authorization request's parameter that names the brand the collector came from: this
 * service's sign-in adds it to every authorization request (issue 14 item 3), registered with
 * oidc-provider as an extra parameter (embedded-idp.ts). An external IdP ignores it.
 */
export const BRAND_PARAM = 'brand';

/**
 * The brand whose logo, favicon and footer the IdP's pages show: the request's `brand` when it names
 * one of ours, exactly; otherwise (absent, unknown, repeated, no request at all) collectors. It is
 * untrusted input and only ever picks a row of the brand tables.
 */
export function journeyBrand(params: Readonly<Record<string, unknown>> | undefined): Brand {
  const value = params?.[BRAND_PARAM];
  return typeof value === 'string' && isBrand(value) ? value : DEFAULT_BRAND;
}
