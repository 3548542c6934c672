import type { BodyBytes } from '../http/read-body-bytes';
import { TOKEN_PROBLEM_MESSAGES } from '../token/token-verifier';
import {
  TOKEN_REQUEST_MAX_BYTES,
  type TokenErrorCode,
  type TokenRequestInput,
  readTokenRequest,
} from './handoff-token-request';

const CLIENTS = {
  psamobile: { clientId: 'brand-psamobile', clientSecret: 'psamobile secret+with/odd:chars' },
  ccmobile: { clientId: 'brand-ccmobile', clientSecret: 'ccmobile-secret-of-thirty-two-chars' },
};
const ID = CLIENTS.psamobile.clientId;
const SECRET = CLIENTS.psamobile.clientSecret;

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const GRANT = 'grant_type=authorization_code';

/** RFC 6749 §2.3.1: id and secret form-urlencoded (space as +), then HTTP Basic. */
const formEncode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${formEncode(id)}:${formEncode(secret)}`).toString('base64')}`;
/** The same without the form-urlencoding (what RFC 7617 alone would send). */
const rawBasic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
/** client_secret_post's two parameters. */
const POST = `client_id=${formEncode(ID)}&client_secret=${formEncode(SECRET)}`;

const bytes = (text: string | Buffer): BodyBytes => ({ kind: 'bytes', bytes: Buffer.from(text) });
const request = (
  authorization: string | undefined,
  contentType: string | undefined,
  body: string | Buffer | BodyBytes,
): TokenRequestInput => ({
  authorization,
  contentType,
  body: typeof body === 'string' || Buffer.isBuffer(body) ? bytes(body) : body,
});
/** No Authorization header (a default parameter would take `undefined` for "use the default"). */
const NONE = null;
const form = (body: string, authorization: string | null = basic(ID, SECRET)) =>
  request(authorization ?? undefined, FORM, body);
const json = (body: unknown, authorization: string | null = basic(ID, SECRET)) =>
  request(authorization ?? undefined, JSON_TYPE, JSON.stringify(body));

type Expected =
  | { readonly brand: string; readonly code: string }
  | readonly [status: 400 | 401, error: TokenErrorCode, description?: string];

/**
 * Each row: a request and what RFC 6749 says it gets (§4.1.3 the request, §2.3 client
 * authentication, §3.1-3.2 the endpoint's parameters, §5.2 the errors). Accepted requests name the
 * brand whose code would then be looked up; no refused one reaches a code.
 */
const CASES: readonly (readonly [string, TokenRequestInput, Expected])[] = [
  // §4.1.3 with §2.3.1: the standard request.
  ['form, client_secret_basic', form(`${GRANT}&code=abc`), { brand: 'psamobile', code: 'abc' }],
  [
    'form, client_secret_post',
    form(`${GRANT}&code=abc&${POST}`, NONE),
    { brand: 'psamobile', code: 'abc' },
  ],
  [
    'form with charset=UTF-8 and redirect_uri (accepted, ignored)',
    request(
      basic(ID, SECRET),
      `${FORM}; charset=UTF-8`,
      `${GRANT}&code=abc&redirect_uri=${encodeURIComponent('psacard://auth/callback')}`,
    ),
    { brand: 'psamobile', code: 'abc' },
  ],
  [
    'a redirect_uri that is no brand target is ignored too',
    form(`${GRANT}&code=abc&redirect_uri=https%3A%2F%2Fevil.example%2F`),
    { brand: 'psamobile', code: 'abc' },
  ],
  [
    'the form-encoded code is decoded',
    form(`${GRANT}&code=a%2Bb+c`),
    { brand: 'psamobile', code: 'a+b c' },
  ],
  [
    'unknown parameters are ignored (§3.2), even repeated',
    form(`${GRANT}&code=abc&code_verifier=x&scope=a&scope=b`),
    { brand: 'psamobile', code: 'abc' },
  ],
  [
    'Basic with client_id in the body naming the same client',
    form(`${GRANT}&code=abc&client_id=${ID}`),
    { brand: 'psamobile', code: 'abc' },
  ],
  [
    'the scheme name in any case (RFC 9110 §11.1)',
    form(`${GRANT}&code=abc`, basic(ID, SECRET).replace('Basic', 'bAsIc')),
    { brand: 'psamobile', code: 'abc' },
  ],
  [
    'another brand authenticates as itself',
    form(`${GRANT}&code=abc`, basic('brand-ccmobile', CLIENTS.ccmobile.clientSecret)),
    { brand: 'ccmobile', code: 'abc' },
  ],
  // The JSON alias: grant_type may be left out.
  [
    'JSON {code} with Basic (the alias)',
    json({ code: 'abc' }),
    { brand: 'psamobile', code: 'abc' },
  ],
  [
    'JSON with grant_type and client_secret_post',
    json(
      { grant_type: 'authorization_code', code: 'abc', client_id: ID, client_secret: SECRET },
      NONE,
    ),
    { brand: 'psamobile', code: 'abc' },
  ],

  // The body (§3.2: a POST of application/x-www-form-urlencoded, UTF-8 per Appendix B).
  [
    'a body over the limit',
    request(basic(ID, SECRET), FORM, { kind: 'too-large' }),
    [400, 'invalid_request', 'the request body is too large'],
  ],
  [
    'a compressed body',
    request(basic(ID, SECRET), FORM, { kind: 'encoded' }),
    [400, 'invalid_request'],
  ],
  [
    'a body cut off',
    request(basic(ID, SECRET), FORM, { kind: 'unreadable' }),
    [400, 'invalid_request'],
  ],
  [
    'text/plain',
    request(basic(ID, SECRET), 'text/plain', `${GRANT}&code=abc`),
    [400, 'invalid_request'],
  ],
  [
    'a body without a media type',
    request(basic(ID, SECRET), undefined, `${GRANT}&code=abc`),
    [400, 'invalid_request'],
  ],
  [
    'a form in another charset',
    request(basic(ID, SECRET), `${FORM}; charset=iso-8859-1`, `${GRANT}&code=abc`),
    [400, 'invalid_request', 'the body must be UTF-8'],
  ],
  [
    'bytes that are not UTF-8',
    request(basic(ID, SECRET), FORM, Buffer.from([0x63, 0x6f, 0x64, 0x65, 0x3d, 0xff])),
    [400, 'invalid_request', 'the body must be UTF-8'],
  ],
  ['malformed JSON', request(basic(ID, SECRET), JSON_TYPE, '{"code":'), [400, 'invalid_request']],
  ['a JSON array', json(['abc']), [400, 'invalid_request']],
  ['JSON null', json(null), [400, 'invalid_request']],
  [
    'a JSON grant_type that is not a string',
    json({ grant_type: ['authorization_code'], code: 'abc' }),
    [400, 'invalid_request', 'grant_type must be a string'],
  ],

  // §3.2: parameters MUST NOT be included more than once.
  [
    'code twice',
    form(`${GRANT}&code=abc&code=def`),
    [400, 'invalid_request', 'code must not be repeated'],
  ],
  [
    'grant_type twice',
    form(`${GRANT}&${GRANT}&code=abc`),
    [400, 'invalid_request', 'grant_type must not be repeated'],
  ],
  [
    'a repeated parameter is refused before the client is known',
    form(`${GRANT}&code=abc&redirect_uri=a&redirect_uri=b`, NONE),
    [400, 'invalid_request', 'redirect_uri must not be repeated'],
  ],

  // §2.3: one authentication method, and it must succeed (§5.2 invalid_client).
  [
    'client_secret_basic and client_secret_post at once',
    form(`${GRANT}&code=abc&${POST}`),
    [400, 'invalid_request', 'use one client authentication method, not two'],
  ],
  [
    'both at once, even with a wrong Basic secret',
    form(`${GRANT}&code=abc&${POST}`, basic(ID, 'wrong')),
    [400, 'invalid_request'],
  ],
  [
    'Basic with a client_id in the body naming another client',
    form(`${GRANT}&code=abc&client_id=brand-ccmobile`),
    [400, 'invalid_request'],
  ],
  [
    'no client authentication at all: 401 with the Basic challenge',
    form(`${GRANT}&code=abc`, NONE),
    [401, 'invalid_client'],
  ],
  [
    'a client_id alone (there are no public clients)',
    form(`${GRANT}&code=abc&client_id=${ID}`, NONE),
    [401, 'invalid_client'],
  ],
  ['Basic, wrong secret', form(`${GRANT}&code=abc`, basic(ID, 'wrong')), [401, 'invalid_client']],
  [
    'Basic, unknown client',
    form(`${GRANT}&code=abc`, basic('brand-nobody', SECRET)),
    [401, 'invalid_client'],
  ],
  [
    'Basic, one brand’s id with another brand’s secret',
    form(`${GRANT}&code=abc`, basic(ID, CLIENTS.ccmobile.clientSecret)),
    [401, 'invalid_client'],
  ],
  [
    'Basic without the form-urlencoding (+ and : and / in the secret)',
    form(`${GRANT}&code=abc`, rawBasic(ID, SECRET.replace(/ /g, '+'))),
    [401, 'invalid_client'],
  ],
  ['Bearer instead of Basic', form(`${GRANT}&code=abc`, 'Bearer abc'), [401, 'invalid_client']],
  ['Basic that is not base64', form(`${GRANT}&code=abc`, 'Basic %%%'), [401, 'invalid_client']],
  [
    'Basic without a colon',
    form(`${GRANT}&code=abc`, `Basic ${Buffer.from(ID).toString('base64')}`),
    [401, 'invalid_client'],
  ],
  [
    'Basic with a broken percent-encoding',
    form(`${GRANT}&code=abc`, `Basic ${Buffer.from(`${ID}:%E0%A4%A`).toString('base64')}`),
    [401, 'invalid_client'],
  ],
  [
    'an Authorization header past 1024 characters',
    form(`${GRANT}&code=abc`, basic(ID, `${SECRET}${'x'.repeat(1024)}`)),
    [401, 'invalid_client'],
  ],
  [
    'client_secret_post, wrong secret: 400 (no Authorization header was used)',
    form(`${GRANT}&code=abc&client_id=${ID}&client_secret=wrong`, NONE),
    [400, 'invalid_client'],
  ],
  [
    'client_secret without client_id',
    form(`${GRANT}&code=abc&client_secret=${formEncode(SECRET)}`, NONE),
    [400, 'invalid_client'],
  ],
  [
    'the client is refused before the grant is looked at',
    form('grant_type=refresh_token', basic(ID, 'wrong')),
    [401, 'invalid_client'],
  ],

  // §4.1.3 and §5.2: the grant.
  [
    'no grant_type in the form',
    form('code=abc'),
    [400, 'invalid_request', 'grant_type is required'],
  ],
  [
    'an empty grant_type counts as none (§3.1)',
    form('grant_type=&code=abc'),
    [400, 'invalid_request'],
  ],
  [
    'grant_type=refresh_token',
    form('grant_type=refresh_token&refresh_token=x&code=abc'),
    [400, 'unsupported_grant_type'],
  ],
  ['grant_type=password', form('grant_type=password&code=abc'), [400, 'unsupported_grant_type']],
  [
    'grant_type in the JSON alias must still be authorization_code',
    json({ grant_type: 'client_credentials', code: 'abc' }),
    [400, 'unsupported_grant_type'],
  ],
  ['no code: §8’s message', form(GRANT), [400, 'invalid_request', TOKEN_PROBLEM_MESSAGES.missing]],
  [
    'an empty code',
    form(`${GRANT}&code=`),
    [400, 'invalid_request', TOKEN_PROBLEM_MESSAGES.missing],
  ],
  ['no body at all', request(basic(ID, SECRET), undefined, ''), [400, 'invalid_request']],
  ['JSON {}', json({}), [400, 'invalid_request', TOKEN_PROBLEM_MESSAGES.missing]],
  [
    'JSON code that is not a string',
    json({ code: 42 }),
    [400, 'invalid_request', TOKEN_PROBLEM_MESSAGES.missing],
  ],
  ['JSON {} without credentials: the client first', json({}, NONE), [401, 'invalid_client']],
];

describe(readTokenRequest.name, () => {
  it.each(CASES)('%s', (_name, input, expected) => {
    const reading = readTokenRequest(input, CLIENTS);
    if (!Array.isArray(expected)) {
      expect(reading).toEqual({ ok: true, ...expected });
      return;
    }
    const [status, error, description] = expected as readonly [number, string, string?];
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.error).toMatchObject({ status, error });
    if (description !== undefined) expect(reading.error.description).toBe(description);
  });

  it('never echoes the request in a description, and keeps to RFC 6749 §5.2’s characters', () => {
    for (const [, input, expected] of CASES) {
      if (!Array.isArray(expected)) continue;
      const reading = readTokenRequest(input, CLIENTS);
      if (reading.ok) throw new Error('refused above');
      expect(reading.error.description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
      expect(reading.error.description).not.toContain('abc');
      expect(reading.error.description).not.toContain(SECRET);
    }
  });

  it('limits a token request to 16 KiB', () => {
    expect(TOKEN_REQUEST_MAX_BYTES).toBe(16 * 1024);
  });
});

/**
 * A brand rotating its client secret (docs/okta.md "Rotating client secrets"): while BRAND_CLIENTS
 * names its previous secret, the endpoint takes either, so the brand's back end moves in its own
 * time; only that brand's, and nothing else.
 */
describe('readTokenRequest while a brand rotates its secret', () => {
  const NEW = 'psamobile-new-secret-of-thirty-two-chars';
  const ROTATING = {
    ...CLIENTS,
    psamobile: { clientId: ID, clientSecret: NEW, previousClientSecret: SECRET },
  };
  it.each([
    ['the new secret', ID, NEW, 'psamobile'],
    ['the previous secret', ID, SECRET, 'psamobile'],
    ['neither', ID, 'a-third-secret-the-brand-never-had', undefined],
    ['the previous secret under another brand’s id', CLIENTS.ccmobile.clientId, SECRET, undefined],
  ])('%s', (_name, id, secret, brand) => {
    const reading = readTokenRequest(form(`${GRANT}&code=abc`, basic(id, secret)), ROTATING);
    if (brand) expect(reading).toEqual({ ok: true, brand, code: 'abc' });
    else expect(reading).toMatchObject({ ok: false, error: { status: 401 } });
  });

  it('takes the previous secret no longer once it is gone from BRAND_CLIENTS', () => {
    const rotated = { ...CLIENTS, psamobile: { clientId: ID, clientSecret: NEW } };
    const reading = readTokenRequest(form(`${GRANT}&code=abc`, basic(ID, SECRET)), rotated);
    expect(reading).toMatchObject({ ok: false, error: { status: 401, error: 'invalid_client' } });
  });
});
