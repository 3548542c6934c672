/**
 * The Content-Security-Policy of a hydrated page (docs/design.md "Headers"): scripts only from this origin
 * and only with this response's nonce; styles from this origin (no inline style attributes: views
 * use classes); no plugins, no framing, no <base>, forms only to this origin.
 */
export function pageCsp(nonce: string, options: { readonly https: boolean }): string {
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
    "form-action 'self'",
    // Only when served over https: on http://localhost it would send sub-resources to https.
    ...(options.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}
