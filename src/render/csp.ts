/**
 * The Content-Security-Policy of a hydrated page (docs/design.md "Headers"): scripts only from this origin
 * and only with this response's nonce; styles from this origin (no inline style attributes: views
 * use classes); no plugins, no framing, no <base>; forms only to this origin, or, on pages whose form
 * posts may end at a brand, to `formAction`: formActionSources (./form-action.ts) of the redirect
 * policy, since Chromium holds a form post's whole redirect chain to this directive (docs/design.md
 * "Headers").
 */
export function pageCsp(
  nonce: string,
  options: { readonly https: boolean; readonly formAction?: readonly string[] },
): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    options.formAction ? `form-action ${options.formAction.join(' ')}` : "form-action 'self'",
    // Only when served over https: on http://localhost it would send sub-resources to https.
    ...(options.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}
