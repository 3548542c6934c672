import { Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { RateLimit } from '../config/app-config';
import { bindingHashOf, matchesBinding } from '../session/browser-binding';
import type { Brand } from '../shared/brand';
import type { ServicePath } from '../shared/routes';
import { OneTimeStore, randomKey } from '../store/one-time-store';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { TokenVault } from '../store/token-vault';

/** How long the confirmation page's offer stands (docs/security.md, login CSRF through `t`). */
export const TOKEN_OFFER_TTL_SECONDS = 300;

/**
 * docs/security.md, one `t` flooding: how many offers one token may be given within an offer's
 * lifetime, on every instance together. A collector who follows the brand's link again, or presses
 * back and follows it, needs a few; past them the `t` is dropped without an offer. Each new offer
 * replaces the token's earlier one, so the store holds one whatever this allows; the limit bounds
 * the writes.
 */
export const OFFERS_PER_TOKEN: RateLimit = { limit: 10, windowSeconds: TOKEN_OFFER_TTL_SECONDS };

/**
 * The account a confirmation page names (docs/security.md, a look-alike account), all of it from
 * the verified token, since the IdP is asked nothing before the collector confirms
 * (docs/security.md, one `t` flooding):
 * - `login`: the access token's `sub`, the collector's login, their email address at Okta and at the
 *   embedded IdP alike (docs/brand-contract.md §5), shown whole;
 * - `spelledOut`: the login with its unusual characters written as code points, when it has any;
 * - `collectorsId`: the §3 CollectorsId, when the token carries it.
 * - `name`: the collector's name as the session that handed the token over knew it. It is not in an
 *   access token (neither IdP puts it there) and userinfo would be asking the IdP before the
 *   confirmation, so it comes from this service's own record of the hand-over (HandedTokens).
 */
export interface OfferedAccount {
  readonly name?: string;
  readonly login: string;
  /** The login spelled out, when it holds characters a reader cannot tell apart (spelledOut). */
  readonly spelledOut?: string;
  readonly collectorsId?: number;
}

/** What a cross-site `t` offers, as TokenParamSignin makes it. */
export interface NewTokenOffer {
  readonly token: string;
  /** handedTokenKey of the token: the one live offer and the counter are kept per token. */
  readonly tokenKey: string;
  readonly target: ServicePath;
  readonly brand: Brand;
  readonly account: OfferedAccount;
  readonly userAgent?: string;
  readonly locale?: string;
}

/**
 * A sign-in a cross-site `t` offers, kept server-side (sealed: it holds the token) under a one-time
 * key `k` that only the browser holding its binding cookie can use (docs/security.md, login CSRF
 * through `t`), with the CSRF token its page's form posts back (docs/security.md, the offer key).
 */
export interface TokenOffer extends NewTokenOffer {
  readonly bindingHash: string;
  readonly csrf: string;
}

/** Why a presented offer is not taken: unknown, expired, replaced or another browser's; or a forged form. */
export type OfferRefusal = 'no-offer' | 'csrf';

/** Where a token's one live offer is named (by the offer's store key: a hash, never `k`). */
const liveOfferKey = (tokenKey: string) => `token-offered:${tokenKey}`;

/** Two secrets of ours compared in constant time. */
function sameSecret(expected: string, received: unknown): boolean {
  if (typeof received !== 'string' || received.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(received));
}

/**
 * The offers of cross-site `t` sign-ins (issues 32 item 1, 50 items 1 and 7):
 * - at most one live offer per token (`jti`): a new offer of the same token replaces the earlier one
 *   (deleted, and no longer named as the token's live offer, so it is refused even where a race
 *   left its record), whichever browser it was for;
 * - an offer is this browser's only (the signinBinding cookie, checked before anything is taken, so
 *   another browser's attempt leaves it as it was), and its confirmation or refusal must carry the
 *   page's CSRF token;
 * - taken once, by the confirmation or by "Not you?".
 */
@Injectable()
export class TokenOffers {
  private readonly offers: OneTimeStore<TokenOffer>;

  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    vault: TokenVault,
  ) {
    this.offers = new OneTimeStore<TokenOffer>(
      store,
      'token-offer',
      TOKEN_OFFER_TTL_SECONDS,
      vault,
    );
  }

  /** Counts an offer of the token against OFFERS_PER_TOKEN: is it over? */
  async overLimit(tokenKey: string): Promise<boolean> {
    const { limit, windowSeconds } = OFFERS_PER_TOKEN;
    const hits = await this.store.increment(
      `ratelimit:token-offer:token:${tokenKey}`,
      windowSeconds,
    );
    return hits > limit;
  }

  /**
   * Keeps the offer as the token's one live offer, bound to a new browser binding: the key `k` for
   * the confirmation page's URL, and the binding for the signinBinding cookie.
   */
  async issue(offer: NewTokenOffer): Promise<{ readonly key: string; readonly binding: string }> {
    const binding = randomKey();
    const { key, write } = this.offers.prepare({
      ...offer,
      bindingHash: bindingHashOf(binding),
      csrf: randomKey(24),
    });
    const index = liveOfferKey(offer.tokenKey);
    const earlier = await this.store.get(index);
    await this.store.writeAll([
      ...(earlier !== undefined && earlier !== write.key
        ? [{ op: 'delete' as const, key: earlier }]
        : []),
      write,
      { op: 'set', key: index, value: write.key, ttlSeconds: TOKEN_OFFER_TTL_SECONDS },
    ]);
    return { key, binding };
  }

  /** The offer a confirmation page shows, if it is live and this browser's. */
  async shown(key: unknown, binding: unknown): Promise<TokenOffer | undefined> {
    if (typeof key !== 'string') return undefined;
    const offer = await this.offers.peek(key);
    if (!offer || !matchesBinding(offer.bindingHash, binding)) return undefined;
    const live = await this.store.get(liveOfferKey(offer.tokenKey));
    return live === this.offers.storeKey(key) ? offer : undefined;
  }

  /**
   * Takes the offer for its confirmation or refusal: only when it is live, this browser's and the
   * form's CSRF token is the page's. Every check comes before the take, so a refused attempt leaves
   * the collector's offer as it was.
   */
  async take(key: unknown, binding: unknown, csrf: unknown): Promise<TokenOffer | OfferRefusal> {
    const shown = await this.shown(key, binding);
    if (!shown || typeof key !== 'string') return 'no-offer';
    if (!sameSecret(shown.csrf, csrf)) return 'csrf';
    const offer = await this.offers.take(key);
    if (!offer) return 'no-offer';
    await this.store.deleteIfEquals(liveOfferKey(offer.tokenKey), this.offers.storeKey(key));
    return offer;
  }
}
