import type { BrandConfig } from '../config/brand-directory';
import type { Brand } from '../shared/brand';
import { RedirectPolicy, SafeRedirectUrl, checkRedirectUrl } from '../brand/redirect-policy';
import { isLocalOverride } from '../brand/return-target';
import { AppError } from '../errors/app-error';
import type { AppEnv } from '../shared/environment';
import { localizeUrl } from '../shared/locale';
import { ROUTES } from '../shared/routes';
import type { JourneyContext } from './journey';

/** §4 step 5: the collectors and grading mobile apps get no session id. */
export const BRANDS_WITHOUT_SESSION: ReadonlySet<Brand> = new Set<Brand>([
  'collectorsmobile',
  'psamobile',
]);

/** §4 step 4: the auction brands, full and mobile. */
const AUCTION_BRANDS: ReadonlySet<Brand> = new Set<Brand>(['goldin', 'goldinmobile']);

/** §4 step 9: the local development target. */
export const LOCAL_COLLECTION_URL = 'http://localhost:3333/collection';

export interface AfterLoginInput {
  readonly env: AppEnv;
  readonly journey: JourneyContext;
  readonly brand: BrandConfig;
  readonly policy: RedirectPolicy;
  /** This service's origin, e.g. https://signin.collectors.com. */
  readonly publicUrl: string;
  /** §5: `fr` applies only where the calling flow allows it. */
  readonly allowForcedReturn: boolean;
}

export type AfterLoginDecision =
  /** §4 step 3: back to the sign-in path (the IdP's steps), then on with postWelcome set. */
  | { readonly kind: 'signin'; readonly reason: 'returnToSignIn' | 'welcome' }
  /** §4 step 4: the auction brand's own state URL. */
  | { readonly kind: 'auction'; readonly url: SafeRedirectUrl }
  /** §4 step 4 without a usable state: /unauthredirect?error=GoldinInvalidOktaSession. */
  | { readonly kind: 'unauthorized'; readonly error: 'GoldinInvalidOktaSession' }
  /** §4 steps 5-8: a redirect brand receives the session. */
  | {
      readonly kind: 'brand';
      readonly target: SafeRedirectUrl;
      readonly createSession: boolean;
      /** tokens-in-url: si, t, rt appended (§4 step 6); handoff-code: si and a one-time code. */
      readonly handoff: 'tokens-in-url' | 'handoff-code';
      /** §4 step 7: mobile brands leave no token cookies behind. */
      readonly clearTokenCookies: boolean;
      readonly returnUrl?: SafeRedirectUrl;
    }
  /** §4 step 9: no brand target. */
  | { readonly kind: 'return'; readonly url: SafeRedirectUrl; readonly createSession: true };

/**
 * §4 "After login", steps 3-9, as one pure decision. Steps 1 and 2 (the sign-in event, accepted
 * terms) are effects the caller performs first; so are creating the session and fetching tokens,
 * which this decision only asks for.
 */
export function decideAfterLogin(input: AfterLoginInput): AfterLoginDecision {
  const { journey: query, brand, policy, env } = input;

  // Step 3.
  if (query.returnToSignIn) return { kind: 'signin', reason: 'returnToSignIn' };
  if ((query.isNewAccount || query.isMigrated) && !query.postWelcome)
    return { kind: 'signin', reason: 'welcome' };

  // Step 4: the state is a URL of the auction site; like every caller-supplied URL it must pass the
  // redirect policy, and an unusable one counts as none.
  if (AUCTION_BRANDS.has(brand.brand)) {
    const state = query.state ? checkRedirectUrl(query.state, policy) : undefined;
    return state?.ok
      ? { kind: 'auction', url: state.url }
      : { kind: 'unauthorized', error: 'GoldinInvalidOktaSession' };
  }

  // §5: fr, where the flow allows it, wins over r. Both passed the policy at the door.
  const returnUrl = (input.allowForcedReturn ? query.fr : undefined) ?? query.r;
  const local = isLocalOverride(query.l, env);

  // Steps 5-8: every brand other than collectors and the auction brands is a redirect brand (§3).
  // Its target is the service's own configuration: one that does not pass the policy is §8's
  // "not a valid env URL" (a configuration fault), never a silent detour.
  if (brand.brand !== 'collectors') {
    const mobile = brand.clientType === 'mobile-app';
    return {
      kind: 'brand',
      target: ownTarget(local ? brand.localURL : brand.tokenURL, policy),
      createSession: !BRANDS_WITHOUT_SESSION.has(brand.brand),
      handoff: mobile ? 'handoff-code' : brand.handoff,
      clearTokenCookies: mobile,
      ...(returnUrl ? { returnUrl } : {}),
    };
  }

  // Step 9. /collection speaks the collector's language by the §2 locale path rule (`/fr-CA/collection`;
  // nothing for en-US), so the language of the sign-in is the landing's too (issue 14 item 2).
  const collection = localizeUrl(
    local ? LOCAL_COLLECTION_URL : `${input.publicUrl}${ROUTES.collection}`,
    query.locale,
    { style: 'path' },
  );
  if (local) return { kind: 'return', url: ownTarget(collection, policy), createSession: true };
  return {
    kind: 'return',
    url: returnUrl ?? ownTarget(collection, policy),
    createSession: true,
  };
}

/**
 * A target the service builds itself from configuration (§4 step 9). It goes through the policy like
 * any other Location; one it cannot build is §8's "not a valid env URL", a configuration fault.
 */
function ownTarget(url: string, policy: RedirectPolicy): SafeRedirectUrl {
  const checked = checkRedirectUrl(url, policy);
  if (!checked.ok) throw new AppError('InvalidRedirectUrl', `${url} is not a valid env URL`);
  return checked.url;
}
