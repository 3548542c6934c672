/**
 * The IdP endpoints this service calls itself (docs/okta.md "Rate limits"): each is its own bucket
 * at Okta, so a rate limit on one blocks only that one. The keys endpoint and the browser's
 * redirects (authorize, logout) are not among them.
 */
export const IDP_ENDPOINTS = ['discovery', 'token', 'userinfo', 'revocation'] as const;
export type IdpEndpoint = (typeof IDP_ENDPOINTS)[number];

/**
 * The longest an endpoint is held back, whatever the IdP says: Okta's buckets are one-minute
 * windows, so a Reset further ahead than this is a clock gone wrong or a bug, and obeying it would
 * be an outage of this service's own making (docs/okta.md "Rate limits").
 */
export const MAX_BLOCK_SECONDS = 300;
/** How long to hold back when a 429 names no time, or none that can be read: one Okta window. */
export const DEFAULT_BLOCK_SECONDS = 60;
/** The shortest hold: a Reset already past (clocks apart) must not let the next call go at once. */
export const MIN_BLOCK_SECONDS = 1;

/** The headers of a 429 that say when to come back. */
export interface RateLimitHeaders {
  /** Okta: when the bucket refills, in epoch seconds (by Okta's clock). */
  readonly 'x-rate-limit-reset'?: string | null;
  /** RFC 9110 §10.2.3: delay-seconds or an HTTP-date. */
  readonly 'retry-after'?: string | null;
  /** RFC 9110 §6.6.1: the IdP's clock when it answered, to read Okta's Reset against. */
  readonly date?: string | null;
}

const DIGITS = /^\d{1,15}$/;
/** An HTTP-date starts with the day's name (RFC 9110 §5.6.7); "-5" is none, though JS parses it. */
const HTTP_DATE = /^[A-Za-z]{3},? /;

/**
 * Until when (epoch ms) an endpoint that answered 429 gets no call, from the answer's headers:
 * - `X-Rate-Limit-Reset` is read against the answer's own `Date` when it has one, so a clock here
 *   that differs from Okta's does not shorten or stretch the wait;
 * - `Retry-After` in seconds or as an HTTP-date (RFC 9110 §10.2.3);
 * - both: the later; neither (or nothing readable): DEFAULT_BLOCK_SECONDS;
 * - always at least MIN_BLOCK_SECONDS and at most MAX_BLOCK_SECONDS ahead.
 */
export function blockedUntil(headers: RateLimitHeaders, nowMs: number): number {
  const delays: number[] = [];
  const reset = headers['x-rate-limit-reset']?.trim();
  if (reset && DIGITS.test(reset)) {
    const said = Date.parse(headers.date ?? '');
    const theirNow = Number.isNaN(said) ? nowMs : said;
    delays.push(Number(reset) * 1000 - theirNow);
  }
  const retryAfter = headers['retry-after']?.trim();
  if (retryAfter && DIGITS.test(retryAfter)) delays.push(Number(retryAfter) * 1000);
  else if (retryAfter && HTTP_DATE.test(retryAfter) && !Number.isNaN(Date.parse(retryAfter)))
    delays.push(Date.parse(retryAfter) - nowMs);
  const delay = delays.length > 0 ? Math.max(...delays) : DEFAULT_BLOCK_SECONDS * 1000;
  const bounded = Math.min(Math.max(delay, MIN_BLOCK_SECONDS * 1000), MAX_BLOCK_SECONDS * 1000);
  return nowMs + bounded;
}

/**
 * A call to an IdP endpoint that is rate-limited: the IdP answered 429 (`local` false), or this
 * service did not make the call because the endpoint is held back until `until` (`local` true).
 * Either way the IdP is up and nothing was decided about the collector.
 */
export class IdpRateLimited extends Error {
  constructor(
    readonly endpoint: IdpEndpoint,
    /** Epoch ms. */
    readonly until: number,
    readonly local: boolean,
  ) {
    super(
      `the IdP's ${endpoint} endpoint is rate-limited until ${new Date(until).toISOString()}` +
        (local ? ' (call not made)' : ''),
    );
    this.name = 'IdpRateLimited';
  }
}

/**
 * The rate limit behind an error, if any: openid-client wraps what its fetch threw in errors of its
 * own, so the chain of causes is walked (a few links at most).
 */
export function rateLimitOf(error: unknown): IdpRateLimited | undefined {
  let link: unknown = error;
  for (let depth = 0; depth < 5 && link !== undefined && link !== null; depth++) {
    if (link instanceof IdpRateLimited) return link;
    link = (link as { cause?: unknown }).cause;
  }
  return undefined;
}
