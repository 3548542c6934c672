/**
 * "You are signed out" on the sign-in page that follows a sign-out, as Google's and Auth0's say it.
 *
 * The logout landing sends the browser to `/signin?…&signedOut=true` (src/auth/signout.service.ts);
 * /signin keeps the flag in the journey and names it in the authorization request parameter below;
 * the embedded IdP shows a fixed, translated notice on the first step it renders, once
 * (src/idp/interaction/interaction.service.ts). The flag carries no text: anyone can set it, and all
 * it can do is show that one sentence in the page's language. An external IdP ignores it.
 */
export const SIGNED_OUT_QUERY = 'signedOut';
export const SIGNED_OUT_PARAM = 'signed_out';
