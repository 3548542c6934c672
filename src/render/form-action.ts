import type { RedirectPolicy } from '../brand/redirect-policy';

/** CSP Level 3 §2.3.1 host-source, as an origin serialises it: scheme://host[:port], no wildcard. */
const HOST_SOURCE = /^https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::[0-9]{1,5})?$/;
/** CSP Level 3 §2.3.1 scheme-source without its colon (RFC 3986 §3.1 scheme). */
const SCHEME = /^[a-z][a-z0-9+.-]*$/;
/** Schemes that would allow every site (`https:`) or script (`javascript:`): never a source here. */
const NEVER_SCHEMES: ReadonlySet<string> = new Set([
  'http',
  'https',
  'ws',
  'wss',
  'javascript',
  'data',
  'blob',
  'filesystem',
  'file',
]);

/**
 * The sources of the pages' CSP `form-action` (docs/design.md "Headers"; docs/security.md, a form
 * post's redirect chain): this origin, then every origin and app scheme the one redirect policy
 * (src/brand/redirect-policy.ts) lets a redirect reach, and nothing else (no `*`, no `https:`).
 *
 * Why not `'self'` alone: CSP Level 3 §6.4.1 form-action is a navigation directive checked on the
 * navigation a form submission starts, and the navigation's redirects stay a form submission; whether
 * they are checked too is debated (w3c/webappsec-csp#8; MDN's form-action page warns of it), and
 * Chromium checks every one (its FormSubmissionThrottle, on start and on each redirect). So in
 * Chrome and Edge the password posted on the embedded IdP's step page answers
 * 303 → /oauth2/default/… → /handleloginredirect → … → 302 to the brand's tokenURL, and a brand on
 * another origin (or an app's `psacard://auth/callback?code=…`) ends the chain with a form-action
 * violation: the collector stays on the password page, and only a second visit (no form in its
 * chain) arrives. The same for the brand code redirect, whose sign-in is the same post.
 *
 * Exactly the policy's allowlist: a brand target outside it is refused before a Location is written,
 * so the CSP allows no more than the server would redirect to. Its origins hold every brand's baseURL
 * and tokenURL, the four service bases, in local and dev the brands' localURL, and the IdP's (this
 * origin when embedded; Okta's in external mode, where these pages post no form today, but a post's
 * chain through the IdP would need it). This origin is `'self'`; schemes are scheme-sources (`psacard:`).
 * What CSP cannot express is left out rather than written malformed: an origin with an IPv6 literal
 * (host-source has no such form), which the redirect policy alone then governs (a debt: no configured
 * brand has one).
 *
 * Pure and cheap, but called once at start (PageRenderer): the configuration does not change.
 */
export function formActionSources(policy: RedirectPolicy): readonly string[] {
  const origins = [...policy.allowedOrigins]
    .filter((origin) => origin !== policy.ownOrigin && HOST_SOURCE.test(origin))
    .sort();
  const schemes = [...policy.appSchemes]
    .map((scheme) => scheme.toLowerCase())
    .filter((scheme) => SCHEME.test(scheme) && !NEVER_SCHEMES.has(scheme))
    .sort()
    .map((scheme) => `${scheme}:`);
  return ["'self'", ...new Set(origins), ...new Set(schemes)];
}
