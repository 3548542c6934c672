/**
 * Whether a /signin request may change a stored consent (§3 acceptedTermsAndConditions): a GET that
 * changes state is a cross-site request forgery waiting to happen (an image tag on any page could
 * record that a signed-in collector accepted the terms). So the value is taken only from a top-level
 * navigation that came from a site allowed to send collectors here (issue 15 item 10): this service,
 * a brand origin of the redirect policy, or the IdP (after its terms step).
 *
 * Evidence, in the order browsers give it (W3C Fetch Metadata; RFC 9110 §10.1.3 Referer):
 * - `Sec-Fetch-Mode` other than `navigate`, or `Sec-Fetch-Dest` other than `document`: refused (a
 *   fetch, an image, a frame);
 * - `Sec-Fetch-Site: same-origin` or `none` (typed, bookmarked): taken;
 * - otherwise the Referer's origin must be an allowed one. No evidence at all is refused: the flag
 *   is then ignored (logged), never the sign-in.
 */
export interface ConsentRequest {
  readonly secFetchMode?: string;
  readonly secFetchDest?: string;
  readonly secFetchSite?: string;
  readonly referer?: string;
}

export type ConsentRefusal = 'not-a-navigation' | 'unknown-origin';

export function consentRefusal(
  request: ConsentRequest,
  allowedOrigins: ReadonlySet<string>,
): ConsentRefusal | undefined {
  const { secFetchMode, secFetchDest, secFetchSite, referer } = request;
  if (secFetchMode !== undefined && secFetchMode !== 'navigate') return 'not-a-navigation';
  if (secFetchDest !== undefined && secFetchDest !== 'document') return 'not-a-navigation';
  if (secFetchSite === 'same-origin' || secFetchSite === 'none') return undefined;
  let origin: string | undefined;
  try {
    origin = referer ? new URL(referer).origin : undefined;
  } catch {
    origin = undefined;
  }
  return origin !== undefined && allowedOrigins.has(origin) ? undefined : 'unknown-origin';
}
