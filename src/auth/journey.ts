import { Brand } from '../shared/brand';
import { parseBrandParam } from '../shared/brand-query';
import {
  RedirectPolicy,
  RedirectRejection,
  SafeRedirectUrl,
  checkRedirectUrl,
} from '../brand/redirect-policy';
import { Locale, resolveLocale } from '../shared/locale';
import { SIGNED_OUT_QUERY } from '../shared/signed-out-notice';

/**
 * The journey context: what the collector arrived at /signin with (§3 "Sign-in redirect query
 * parameters"), validated once at the door by parseSigninQuery. The login state carries it through
 * the IdP round trip (login-states.ts), and the after-login decision, the landing and the pages read
 * it; no later step reads the raw query again.
 */
export interface JourneyContext {
  /** §3 b, lower-cased; collectors when absent. */
  readonly brand: Brand;
  /** §5 r: the return URL; it passed the redirect policy, so it is never checked again. */
  readonly r?: SafeRedirectUrl;
  /** §5 fr: the forced return URL, used only where the flow allows it; it passed the policy too. */
  readonly fr?: SafeRedirectUrl;
  /** `l`: the local flag ('true') or a locale. */
  readonly l?: string;
  /** §4 step 4: the auction brand's return state, a URL checked by the policy where it is used. */
  readonly state?: string;
  /** An access token handed over by a brand (§4 App start); verified before any use. */
  readonly t?: string;
  readonly isNewAccount: boolean;
  readonly isMigrated: boolean;
  readonly postWelcome: boolean;
  readonly returnToSignIn: boolean;
  readonly acceptedTermsAndConditions?: boolean;
  /** The sign-in follows a sign-out of ours: the first step says so (signed-out-notice.ts). */
  readonly signedOut?: boolean;
  /** §5 locale order: l, then lang, then the brand (psajapan gives ja-JP), else en-US. */
  readonly locale: Locale;
}

export interface QueryProblem {
  readonly param: string;
  /** `InvalidBrand` for b, `BadRequest` for a malformed flag or value. */
  readonly code: 'InvalidBrand' | 'BadRequest';
  readonly message: string;
}

const MAX_PARAM_LENGTH = 4096;
/**
 * docs/security.md, unauthenticated writes: the most a journey may hold as a login state keeps it
 * (its JSON, UTF-8): r, fr and state at the redirect policy's 2,048 characters each still fit.
 * login-state-budget.ts says why.
 */
export const MAX_JOURNEY_BYTES = 7168;

/** The journey's size as a login state keeps it. */
export function journeyBytes(journey: JourneyContext): number {
  return Buffer.byteLength(JSON.stringify(journey), 'utf8');
}
const FLAGS = ['isNewAccount', 'isMigrated', 'postWelcome', 'returnToSignIn'] as const;

/** Query values as Express parses them: a string, an array (repeated), or an object (a[b]=c). */
type RawQuery = Readonly<Record<string, unknown>>;

function single(raw: RawQuery, name: string, problems: QueryProblem[]): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    problems.push({
      param: name,
      code: 'BadRequest',
      message: `${name} must be given once, as text`,
    });
    return undefined;
  }
  if (value.length > MAX_PARAM_LENGTH) {
    problems.push({
      param: name,
      code: 'BadRequest',
      message: `${name} is longer than ${MAX_PARAM_LENGTH} characters`,
    });
    return undefined;
  }
  return value;
}

/** 'true' / 'false' / absent. Anything else is a mistake worth reporting rather than guessing. */
function flag(raw: RawQuery, name: string, problems: QueryProblem[]): boolean | undefined {
  const value = single(raw, name, problems);
  if (value === undefined || value === '') return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  problems.push({ param: name, code: 'BadRequest', message: `${name} must be true or false` });
  return undefined;
}

/**
 * §3/§5: validates the /signin query once, at the door. Every problem is reported (the error page
 * lists them); nothing is half-accepted. Unknown parameters (analytics, campaign tags) are ignored.
 */
/** A return URL that did not pass (§5): dropped from the journey, reported for the log. */
export interface DroppedReturnUrl {
  readonly param: 'r' | 'fr';
  readonly reason: RedirectRejection | 'repeated' | 'not-text';
  /** What was sent, as text (for the log line, which redacts it). */
  readonly value: string;
}

/**
 * §5 "r is used only when it passes a safe-parse": a return URL that does not is dropped, never an
 * error page, so one slightly-off link from a brand does not stop the collectors who follow it
 * (§4 step 9: "the return URL if valid, else /collection"). Repeated or nested values count as unusable
 * too. The rest of the query is strict: a bad brand or a malformed flag is the error page.
 */
function returnUrls(
  raw: RawQuery,
  policy: RedirectPolicy,
): { urls: Partial<Record<'r' | 'fr', SafeRedirectUrl>>; dropped: DroppedReturnUrl[] } {
  const urls: Partial<Record<'r' | 'fr', SafeRedirectUrl>> = {};
  const dropped: DroppedReturnUrl[] = [];
  for (const param of ['r', 'fr'] as const) {
    const value = raw[param];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') {
      const reason = Array.isArray(value) ? 'repeated' : 'not-text';
      dropped.push({ param, reason, value: Array.isArray(value) ? value.join(',') : '' });
      continue;
    }
    const decision = checkRedirectUrl(value, policy);
    if (decision.ok) urls[param] = decision.url;
    else dropped.push({ param, reason: decision.reason, value });
  }
  return { urls, dropped };
}

export function parseSigninQuery(
  raw: RawQuery,
  policy: RedirectPolicy,
):
  | { ok: true; journey: JourneyContext; dropped: readonly DroppedReturnUrl[] }
  | { ok: false; problems: QueryProblem[]; brand?: Brand; locale: Locale } {
  const problems: QueryProblem[] = [];
  const b = parseBrandParam(raw.b);
  if (!b.ok) problems.push({ param: 'b', code: 'InvalidBrand', message: b.message });
  const brand = b.ok ? b.brand : undefined;
  const { urls, dropped } = returnUrls(raw, policy);
  const l = single(raw, 'l', problems);
  const locale = resolveLocale({
    l,
    lang: single(raw, 'lang', problems),
    ...(brand ? { brand } : {}),
  });
  const state = single(raw, 'state', problems);
  const t = single(raw, 't', problems);
  const flags = Object.fromEntries(
    FLAGS.map((f) => [f, flag(raw, f, problems) ?? false]),
  ) as Record<(typeof FLAGS)[number], boolean>;
  const accepted = flag(raw, 'acceptedTermsAndConditions', problems);
  const signedOut = flag(raw, SIGNED_OUT_QUERY, problems);
  if (problems.length > 0 || !brand)
    return { ok: false, problems, ...(brand ? { brand } : {}), locale };
  const journey: JourneyContext = {
    brand,
    ...urls,
    ...(l ? { l } : {}),
    ...(state ? { state } : {}),
    ...(t ? { t } : {}),
    ...flags,
    ...(accepted !== undefined ? { acceptedTermsAndConditions: accepted } : {}),
    ...(signedOut ? { signedOut } : {}),
    locale,
  };
  // docs/security.md, unauthenticated writes: anyone may make a sign-in keep its journey for 10
  // minutes; it is bounded.
  const bytes = journeyBytes(journey);
  if (bytes > MAX_JOURNEY_BYTES)
    return {
      ok: false,
      problems: [
        {
          param: 'query',
          code: 'BadRequest',
          message: `the sign-in link carries ${bytes} bytes to keep, more than ${MAX_JOURNEY_BYTES}`,
        },
      ],
      brand,
      locale,
    };
  return { ok: true, dropped, journey };
}
