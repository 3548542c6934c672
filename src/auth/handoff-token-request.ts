import { createHash, timingSafeEqual } from 'node:crypto';
import type { BrandClient } from '../config/app-config';
import type { BodyBytes } from '../http/read-body-bytes';
import type { Brand } from '../shared/brand';
import { TOKEN_PROBLEM_MESSAGES } from '../token/token-verifier';

/**
 * The rules of the handoff exchange's token request (POST /api/handoff/token), as one pure function
 * of the request and the brands' client credentials: RFC 6749 §4.1.3 (the access token request),
 * §2.3 (client authentication), §3.2 (the token endpoint) and §5.2 (its errors). The code itself is
 * looked up, once, by HandoffExchange only after this function accepted the request, so a request it
 * refuses changes nothing.
 */

/** A token request is a few hundred bytes; 16 KiB leaves room for any honest client. */
export const TOKEN_REQUEST_MAX_BYTES = 16 * 1024;

/** RFC 6749 §5.2 error codes this endpoint answers with. */
export type TokenErrorCode =
  'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type';

/**
 * A refusal in the RFC 6749 §5.2 format. 401 only for invalid_client without client_secret_post:
 * the response then carries `WWW-Authenticate: Basic` (§5.2: MUST when the client used the
 * Authorization header, MAY to say which scheme is supported when it sent no authentication).
 */
export interface TokenError {
  readonly status: 400 | 401;
  readonly error: TokenErrorCode;
  /** RFC 6749 §5.2: printable ASCII without `"` or `\`; never echoes the input. */
  readonly description: string;
}

/** The request as HandoffExchange's caller read it: two headers and the body's bytes. */
export interface TokenRequestInput {
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: BodyBytes;
}

export type TokenRequestReading =
  | { readonly ok: true; readonly brand: Brand; readonly code: string }
  | { readonly ok: false; readonly error: TokenError };

type BrandClients = Partial<Record<Brand, BrandClient>>;

/** The parameters this endpoint knows; every other one is ignored (RFC 6749 §3.2). */
const PARAMETERS = ['grant_type', 'code', 'redirect_uri', 'client_id', 'client_secret'] as const;
type Parameter = (typeof PARAMETERS)[number];
type Parameters = Partial<Record<Parameter, string>>;

/** The encodings of a body: the standard form, and the older JSON object kept as an alias. */
type Encoding = 'form' | 'json';

const AUTHORIZATION_MAX_LENGTH = 1024;

const refused = (
  error: TokenErrorCode,
  description: string,
  status: 400 | 401 = 400,
): { ok: false; error: TokenError } => ({ ok: false, error: { status, error, description } });

const CLIENT_FAILED = 'client authentication failed';

/**
 * Reads a token request, in the order that tells an unauthenticated caller the least: a request too
 * malformed to say who sent it (its body, a repeated parameter, two authentication methods) is
 * invalid_request; then the client must authenticate (invalid_client); only then the grant
 * (unsupported_grant_type, or invalid_request for a missing grant_type or code).
 *
 * - The body is `application/x-www-form-urlencoded` in UTF-8 (RFC 6749 §4.1.3, Appendix B) with
 *   `grant_type=authorization_code` and `code`. The older JSON object (`{"code": "..."}`) stays an
 *   alias, for the brands that already call it so: there `grant_type` may be left out, and every
 *   parameter given must be a string.
 * - `redirect_uri` is accepted and ignored. RFC 6749 §4.1.3 requires it only when the authorization
 *   request carried one, and there was no authorization request: the handoff redirect went to the
 *   brand's configured token URL or app callback, chosen by this service, never by the caller. The
 *   code is bound to the brand instead, and only that brand's credentials redeem it. Libraries such
 *   as openid-client send the callback URL they were given, so checking it would refuse them for
 *   nothing.
 * - A parameter without a value counts as absent (§3.1); a known one given twice is invalid_request
 *   (§3.2); unknown ones are ignored (§3.2).
 * - Client authentication is `client_secret_basic` (§2.3.1: id and secret form-urlencoded, then
 *   Basic) or `client_secret_post` (`client_id` and `client_secret` in the body), never both
 *   (§2.3). With Basic, a `client_id` in the body must name the same client.
 */
export function readTokenRequest(
  request: TokenRequestInput,
  clients: BrandClients,
): TokenRequestReading {
  const body = parametersOf(request.body, request.contentType);
  if (!body.ok) return body;
  const { encoding, parameters } = body;
  const client = authenticateClient(request.authorization, parameters, clients);
  if (!client.ok) return client;
  const grantType = parameters.grant_type ?? (encoding === 'json' ? 'authorization_code' : '');
  if (grantType === '') return refused('invalid_request', 'grant_type is required');
  if (grantType !== 'authorization_code')
    return refused('unsupported_grant_type', 'the only grant_type here is authorization_code');
  // The code is what stands for the access token here: without one, §8's message for a call that
  // needs a token and has none.
  if (parameters.code === undefined)
    return refused('invalid_request', TOKEN_PROBLEM_MESSAGES.missing);
  return { ok: true, brand: client.brand, code: parameters.code };
}

/** The known parameters of the body, or why the body cannot be read. */
function parametersOf(
  body: BodyBytes,
  contentType: string | undefined,
): { ok: true; encoding: Encoding; parameters: Parameters } | { ok: false; error: TokenError } {
  switch (body.kind) {
    case 'too-large':
      return refused('invalid_request', 'the request body is too large');
    case 'encoded':
      return refused('invalid_request', 'a compressed request body is not accepted');
    case 'unreadable':
      return refused('invalid_request', 'the request body could not be read');
    case 'bytes':
      break;
  }
  const mediaType = parseMediaType(contentType ?? '');
  // A request without a body is a form without parameters: the rules below say what is missing.
  if (body.bytes.length === 0 && mediaType.type === '')
    return { ok: true, encoding: 'form', parameters: {} };
  const encoding =
    mediaType.type === 'application/x-www-form-urlencoded'
      ? 'form'
      : mediaType.type === 'application/json'
        ? 'json'
        : undefined;
  if (!encoding)
    return refused('invalid_request', 'the body must be application/x-www-form-urlencoded');
  if (mediaType.charset !== undefined && !['utf-8', 'utf8'].includes(mediaType.charset))
    return refused('invalid_request', 'the body must be UTF-8');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body.bytes);
  } catch {
    return refused('invalid_request', 'the body must be UTF-8');
  }
  const read = encoding === 'form' ? formParameters(text) : jsonParameters(text);
  return read.ok ? { ok: true, encoding, parameters: read.parameters } : read;
}

function formParameters(
  text: string,
): { ok: true; parameters: Parameters } | { ok: false; error: TokenError } {
  const form = new URLSearchParams(text);
  const parameters: Parameters = {};
  for (const name of PARAMETERS) {
    const values = form.getAll(name);
    if (values.length > 1) return refused('invalid_request', `${name} must not be repeated`);
    if (values[0]) parameters[name] = values[0];
  }
  return { ok: true, parameters };
}

function jsonParameters(
  text: string,
): { ok: true; parameters: Parameters } | { ok: false; error: TokenError } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refused('invalid_request', 'the body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return refused('invalid_request', 'the body must be a JSON object');
  const parameters: Parameters = {};
  for (const name of PARAMETERS) {
    if (!Object.hasOwn(value, name)) continue;
    const given = (value as Record<string, unknown>)[name];
    // The older rule, kept: a code that is not a string is a missing code (§8's message, below).
    if (name === 'code' && typeof given !== 'string') continue;
    if (given === null || given === '') continue;
    if (typeof given !== 'string') return refused('invalid_request', `${name} must be a string`);
    parameters[name] = given;
  }
  return { ok: true, parameters };
}

/** The client's brand, by client_secret_basic or client_secret_post (RFC 6749 §2.3). */
function authenticateClient(
  authorization: string | undefined,
  parameters: Parameters,
  clients: BrandClients,
): { ok: true; brand: Brand } | { ok: false; error: TokenError } {
  if (authorization !== undefined) {
    // RFC 6749 §2.3: a client MUST NOT use more than one authentication method in a request.
    if (parameters.client_secret !== undefined)
      return refused('invalid_request', 'use one client authentication method, not two');
    const basic = basicCredentials(authorization);
    if (!basic) return refused('invalid_client', CLIENT_FAILED, 401);
    if (parameters.client_id !== undefined && parameters.client_id !== basic.id)
      return refused('invalid_request', 'client_id is not the client of the Authorization header');
    const brand = brandOf(basic.id, basic.secret, clients);
    return brand ? { ok: true, brand } : refused('invalid_client', CLIENT_FAILED, 401);
  }
  // No client authentication at all, or a client_id alone (there are no public clients here): 401,
  // whose Basic challenge names the scheme to use (RFC 6749 §5.2's MAY). A client_secret without its
  // client_id tried client_secret_post: 400, as a wrong one gets.
  if (parameters.client_secret === undefined || parameters.client_id === undefined)
    return refused('invalid_client', CLIENT_FAILED, parameters.client_secret ? 400 : 401);
  const brand = brandOf(parameters.client_id, parameters.client_secret, clients);
  return brand ? { ok: true, brand } : refused('invalid_client', CLIENT_FAILED);
}

/**
 * `Basic base64(formEncode(id) ":" formEncode(secret))` (RFC 6749 §2.3.1, RFC 7617); the scheme's
 * name in any case (RFC 9110 §11.1). Anything else is no credentials.
 */
function basicCredentials(authorization: string): { id: string; secret: string } | undefined {
  if (authorization.length > AUTHORIZATION_MAX_LENGTH) return undefined;
  const match = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(authorization);
  if (!match?.[1]) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(match[1], 'base64'));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  return id && secret !== undefined ? { id, secret } : undefined;
}

/** application/x-www-form-urlencoded decoding of one value: `+` is a space, then %XX. */
function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Compared as SHA-256 digests, so that neither the content nor the length shows in the timing. */
const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
const equal = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b));

/**
 * The brand whose client these credentials are; every client is compared, so timing says nothing.
 * A brand's previous secret is taken too while it is configured: its back end moves to the new one
 * in its own time (docs/okta.md "Rotating client secrets").
 */
function brandOf(id: string, secret: string, clients: BrandClients): Brand | undefined {
  let found: Brand | undefined;
  for (const [brand, credentials] of Object.entries(clients)) {
    if (!credentials) continue;
    const idMatches = equal(credentials.clientId, id);
    const secretMatches = equal(credentials.clientSecret, secret);
    // Compared even when absent (against the current secret), so that timing says nothing either.
    const previousMatches =
      equal(credentials.previousClientSecret ?? credentials.clientSecret, secret) &&
      credentials.previousClientSecret !== undefined;
    if (idMatches && (secretMatches || previousMatches) && found === undefined)
      found = brand as Brand;
  }
  return found;
}

/** `type/subtype` in lower case and its charset parameter, if any (RFC 9110 §8.3.1). */
function parseMediaType(contentType: string): { type: string; charset?: string } {
  const [type = '', ...parameters] = contentType.split(';');
  const charset = parameters
    .map((p) => p.trim().split('='))
    .find(([name]) => name?.trim().toLowerCase() === 'charset')?.[1];
  return {
    type: type.trim().toLowerCase(),
    ...(charset !== undefined
      ? {
          charset: charset
            .trim()
            .replace(/^"(.*)"$/, '$1')
            .toLowerCase(),
        }
      : {}),
  };
}
