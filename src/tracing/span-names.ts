/**
 * The spans this service makes besides its HTTP ones (those are named by the HTTP semantic
 * conventions: `GET /signin` for a request, the method for a call out). A table, so that a trace
 * query or a test names the same strings as the code.
 */
export const SPANS = {
  /** OidcClient: one per operation at the IdP; the HTTP requests it makes are client spans inside. */
  idpExchangeCode: 'idp.exchange_code',
  idpRefresh: 'idp.refresh',
  idpUserinfo: 'idp.userinfo',
  idpRevoke: 'idp.revoke',
  /** The landing of a sign-in, in the trace its /signin started (src/auth, issue 17). */
  signinLanding: 'signin.landing',
  /** The same for the brand code redirect (§4). */
  brandSigninLanding: 'brand_signin.landing',
  /** One brand's back-channel logout delivery, with its retries (src/backchannel). */
  backchannelDelivery: 'backchannel.deliver',
} as const;

/** Attributes of our own, beside the semantic conventions' (which keep their standard names). */
export const ATTRIBUTES = {
  /** The request id: the correlation id of error pages and log lines. */
  requestId: 'signon.request_id',
  brand: 'signon.brand',
  /** Where a sign-in's landing sent the browser, without query or fragment (they carry tokens). */
  redirectTo: 'signon.redirect_to',
  /** The logout token's jti: the delivery record's key. */
  logoutJti: 'signon.backchannel.jti',
  deliveryAttempts: 'signon.backchannel.attempts',
  delivered: 'signon.backchannel.delivered',
} as const;
