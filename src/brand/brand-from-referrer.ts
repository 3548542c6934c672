import { BRANDS, Brand } from '../shared/brand';
import type { BrandDirectory } from '../config/brand-directory';

/**
 * When two brands share a site (psa and grading live on the grading base), the more specific code
 * wins: the brand whose base path matches the longest, then this order.
 */
const PREFERENCE: readonly Brand[] = [...BRANDS.filter((b) => b !== 'grading'), 'grading'];

/**
 * §2 "b: the brand derived from the referring host, if known". Mobile apps have no web referrer,
 * so only web brands take part. An unparseable or unknown referrer gives undefined.
 */
export function brandFromReferrer(referrer: unknown, directory: BrandDirectory): Brand | undefined {
  if (typeof referrer !== 'string' || referrer.length === 0 || referrer.length > 4096)
    return undefined;
  let ref: URL;
  try {
    ref = new URL(referrer);
  } catch {
    return undefined;
  }
  let best: { brand: Brand; length: number } | undefined;
  for (const brand of PREFERENCE) {
    const config = directory[brand];
    if (config.clientType === 'mobile-app') continue;
    let base: URL;
    try {
      base = new URL(config.baseURL);
    } catch {
      continue;
    }
    if (base.origin !== ref.origin) continue;
    const basePath = base.pathname.replace(/\/$/, '');
    const matches =
      basePath === '' || ref.pathname === basePath || ref.pathname.startsWith(`${basePath}/`);
    if (matches && (best === undefined || basePath.length > best.length)) {
      best = { brand, length: basePath.length };
    }
  }
  return best?.brand;
}
