/**
 * Whether a sign-out may happen at once (docs/security.md, sign-out CSRF). GET /logout/collectorsid
 * ends the session here and, with `id_token_hint`, at the IdP: a link, an image or a redirect on
 * any site could do it for a signed-in collector (sign-out CSRF). That is the first step of a
 * chain: `t` acts only on a browser without a session here, so an attacker signs the victim out,
 * then into the attacker's account. So a sign-out goes ahead at once only when it evidently comes
 * from this service or a brand; anything else first shows a page of this service that asks, whose
 * form is posted back with a token bound to the browser (SignoutService.confirm).
 *
 * Evidence, in the order browsers give it (W3C Fetch Metadata; RFC 9110 §10.1.3 Referer):
 * - `Sec-Fetch-Site: same-origin`: a page of this service asked (its own sign-out links, the
 *   sessions page): at once. No page can forge the header, and no page of ours carries another's
 *   markup. Our pages send no Referer (Referrer-Policy: no-referrer), so this is how they are known.
 * - `Sec-Fetch-Mode` other than `navigate`, or `Sec-Fetch-Dest` other than `document` (an image, a
 *   fetch, a frame): asks, whatever the Referer, since a brand's page can show an image of anyone's.
 * - a Referer whose origin is a brand's (the redirect policy's origins): the brand's sign-out link,
 *   a top-level navigation from its site, which browsers send with its origin as the Referer by
 *   default (strict-origin-when-cross-origin): at once, with no extra click.
 * - otherwise (another site; a sibling subdomain, `same-site` but no brand; a link opened outside the
 *   browser, `none`: an email, an app; no Referer at all): asks.
 */
export interface SignoutNavigation {
  readonly secFetchSite?: string;
  readonly secFetchMode?: string;
  readonly secFetchDest?: string;
  readonly referer?: string;
}

/** Why a sign-out asks first: what the request lacked (logged, never shown). */
export type SignoutDoubt = 'not-a-navigation' | 'no-referrer' | 'foreign-referrer';

export function signoutDoubt(
  request: SignoutNavigation,
  brandOrigins: ReadonlySet<string>,
): SignoutDoubt | undefined {
  const { secFetchSite, secFetchMode, secFetchDest, referer } = request;
  if (secFetchSite === 'same-origin') return undefined;
  if (secFetchMode !== undefined && secFetchMode !== 'navigate') return 'not-a-navigation';
  if (secFetchDest !== undefined && secFetchDest !== 'document') return 'not-a-navigation';
  const origin = originOf(referer);
  if (origin === undefined) return 'no-referrer';
  return brandOrigins.has(origin) ? undefined : 'foreign-referrer';
}

/** What a browser says of where the confirmation's POST comes from. */
export interface ConfirmationPost {
  readonly secFetchSite?: string;
  readonly origin?: string;
}

/**
 * The confirmation is a form of this service's own page, so its POST is same-origin: docs/design.md
 * "CSRF", as the account API's mutations are checked, where the browser says (Fetch Metadata, Origin;
 * every current browser sends Origin on a POST). The token the form carries is checked after this
 * (SignoutService.confirm): it is what binds the POST to the page this browser was shown.
 */
export function confirmationRefusal(
  post: ConfirmationPost,
  ownOrigin: string,
): 'cross-site' | undefined {
  if (post.secFetchSite !== undefined && post.secFetchSite !== 'same-origin') return 'cross-site';
  if (post.origin !== undefined && post.origin !== ownOrigin) return 'cross-site';
  return undefined;
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
