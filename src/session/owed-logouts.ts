import { Brand, isRedirectBrand } from '../shared/brand';
import type { SessionRecord } from './sessions';

/** A back-channel logout a brand is owed when a session ends: whom, and the `sid` it knows. */
export interface OwedLogout {
  readonly brand: Brand;
  /**
   * The `si` the brand received for this session (§4 step 6), so that it ends exactly that one. None
   * where it received no session (the apps §4 step 5 leaves without one): `sub` alone names the
   * collector then.
   */
  readonly sid?: string;
}

/**
 * docs/brand-contract.md §7, OIDC Back-Channel Logout 1.0 §2.3 and §2.4: which brands a session's
 * ending must tell. Only those that received something from it: the brand the session was handed to
 * as `si`, and each brand that received a grant recorded in it (an app's tokens, which come with no
 * session of their own). A session nobody was handed (the collector's own at this service) owes
 * nothing, and a grant handed over before brands had clients of their own (a bare refresh token)
 * names no brand, so owes nothing either.
 */
export function owedLogouts(record: Pick<SessionRecord, 'brand' | 'tokens'>): OwedLogout[] {
  const owed = new Map<Brand, OwedLogout>();
  const { handedAs, handedOver = [] } = record.tokens;
  if (handedAs !== undefined && isRedirectBrand(record.brand)) {
    owed.set(record.brand, { brand: record.brand, sid: handedAs });
  }
  for (const grant of handedOver) {
    if (typeof grant === 'string' || owed.has(grant.brand)) continue;
    owed.set(grant.brand, { brand: grant.brand });
  }
  return [...owed.values()];
}
