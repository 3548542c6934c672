import type { Brand } from './brand';

/**
 * What /collection shows (issue 16 item 4), as the server puts it in the page data and
 * views/pages/CollectionPage.tsx reads it. Browser-safe: types only.
 */

/**
 * Who is signed in: the collector's name, email, collector number and verified second factors, from
 * the ID token's claims and the IdP's userinfo (src/session/account-summaries.ts).
 */
export interface AccountSummary {
  readonly name?: string;
  readonly email?: string;
  readonly collectorsId?: number;
  readonly factors: readonly ('totp' | 'sms' | 'email')[];
}

/** A brand site the collector can continue to, signed in (src/shell/landing.ts). */
export interface ContinueLink {
  readonly brand: Brand;
  readonly name: string;
  readonly href: string;
}

export interface LandingData {
  readonly account: AccountSummary;
  readonly sessionCount: number;
  readonly continueTo: readonly ContinueLink[];
}
