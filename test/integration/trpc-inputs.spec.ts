import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { AccountProfiles } from '../../src/session/account-profiles';
import { Sessions } from '../../src/session/sessions';
import { MAX_HEX_INPUT, encodeHexJson } from '../../src/api/hex-json-transformer';
import { CSRF_HEADER } from '../../src/api/trpc';
import { MAX_BODY_BYTES } from '../../src/api/trpc.middleware';
import { ROUTES } from '../../src/shared/routes';
import { SignedIn, signedInSession } from '../support/account-api';
import { useTestApp } from '../support/test-app';

/**
 * Issue 5, docs/design.md "Every write is validated": bad input for every field of every procedure of the
 * account API (§7), over HTTP against the real app. Each row must answer 400 / BAD_REQUEST with a
 * message that names the field, be logged, and change nothing: no cookie set, the profile and the
 * session as they were, no client-error or sign-in line, and no secret value in any log line.
 * Every row is sent by a signed-in collector with the CSRF header and this site's Origin, so that
 * only the input can be the reason for the refusal.
 */

type Procedure =
  | 'account.status'
  | 'account.updateAccountInfoPartial'
  | 'account.signout'
  | 'account.sessions'
  | 'account.endSession'
  | 'account.endOtherSessions'
  | 'log.signinEvent'
  | 'log.clientError'
  | 'cookie.setCookie';

/** A body (or, for the query, an `input` query parameter) sent exactly as written. */
class Raw {
  constructor(readonly text: string) {}
}
/** An input made from the signed-in caller's session (its own session id, made bad). */
class FromSession {
  constructor(readonly make: (s: SignedIn) => unknown) {}
}
const fromSession = (make: (s: SignedIn) => unknown) => new FromSession(make);
/** Nothing at all: no body, no input parameter. */
const NONE = Symbol('no input');

interface Row {
  readonly procedure: Procedure;
  /** The field at fault; `input` when the input as a whole is wrong. */
  readonly field: string;
  readonly bad: string;
  /** A JSON value (sent hex-encoded), a Raw wire text, NONE, or FromSession. */
  readonly input: unknown;
  /** For `input` rows: what the message must say (there is no field to name). */
  readonly says?: RegExp;
  /** Sent as a batch of one (`?batch=1`). */
  readonly batch?: boolean;
}

/** Goes into refused inputs beside or inside the bad value: no log line may ever contain it. */
const SECRET = `secret-${randomUUID()}`;
const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');
/** A body that is the JSON string of `text`, taken as the hex without encoding it again. */
const rawHex = (text: string) => new Raw(JSON.stringify(text));
const WHOLE = /expected object/;
const HEX_FORM = /lower-case hex encoding of a JSON text/;
const NOT_JSON = /not valid JSON once decoded/;
const NO_INPUT = /account\.status takes no input/;

const row =
  (procedure: Procedure) =>
  (field: string, bad: string, input: Row['input'], extra: Partial<Row> = {}): Row => ({
    procedure,
    field,
    bad,
    input,
    ...extra,
  });
const status = row('account.status');
const sessionsList = row('account.sessions');
const endSession = row('account.endSession');
const endOthers = row('account.endOtherSessions');
const NO_SESSIONS_INPUT = /account\.sessions takes no input/;
const NO_END_OTHERS_INPUT = /account\.endOtherSessions takes no input/;
const terms = row('account.updateAccountInfoPartial');
const signout = row('account.signout');
const signin = row('log.signinEvent');
const clientError = row('log.clientError');
const setCookie = row('cookie.setCookie');
const theme = { cookieName: 'theme', value: 'dark' } as const;
const sid = { cookieName: 'QTM_SID', value: 'abc123' } as const;

const ROWS: Row[] = [
  // account.sessions (issue 7): a query without input.
  sessionsList('input', 'an empty object', {}, { says: NO_SESSIONS_INPUT }),
  sessionsList('input', 'a string', SECRET, { says: NO_SESSIONS_INPUT }),
  sessionsList('input', 'not hex', rawHex('zz'), { says: HEX_FORM }),
  // account.endSession(handle) (issue 7).
  endSession('handle', 'missing', {}),
  endSession('handle', 'a number', { handle: 42 }),
  endSession('handle', 'empty', { handle: '' }),
  endSession('handle', 'too short', { handle: 'a'.repeat(42) }),
  endSession('handle', 'too long', { handle: 'a'.repeat(44) }),
  endSession('handle', 'with a slash', { handle: `${'a'.repeat(42)}/` }),
  endSession(
    'handle',
    'the session id itself, with a NUL',
    fromSession((s) => ({ handle: `${s.sessionId.slice(0, 42)}\u0000` })),
  ),
  endSession('secret', 'an unknown field', { handle: 'a'.repeat(43), secret: SECRET }),
  // account.endOtherSessions (issue 7): a mutation without input.
  endOthers('input', 'an empty object', {}, { says: NO_END_OTHERS_INPUT }),
  endOthers('input', 'a string', SECRET, { says: NO_END_OTHERS_INPUT }),
  // account.status takes no input (§7 "Payload: none"): anything sent is refused, not ignored.
  status('input', 'an empty object', {}, { says: NO_INPUT }),
  status('input', 'an object with a field', { cidSessionIdentifier: SECRET }, { says: NO_INPUT }),
  status('input', 'null', null, { says: NO_INPUT }),
  status('input', 'a string', SECRET, { says: NO_INPUT }),
  status('input', 'an array', [], { says: NO_INPUT }),
  status('input', 'an object, batched', {}, { says: NO_INPUT, batch: true }),
  status('input', 'not hex', rawHex('zz'), { says: HEX_FORM }),
  status('input', 'hex of text that is not JSON', rawHex(hex('nope')), { says: NOT_JSON }),
  status('input', 'not hex, batched', rawHex('zz'), { says: HEX_FORM, batch: true }),
  status('input', 'a parameter that is not JSON', new Raw('zz'), { says: /JSON/ }),

  // account.updateAccountInfoPartial({ acceptedTermsAndConditions: boolean })
  terms('acceptedTermsAndConditions', 'missing', {}),
  terms('acceptedTermsAndConditions', "the string 'true'", { acceptedTermsAndConditions: 'true' }),
  terms('acceptedTermsAndConditions', 'the number 1', { acceptedTermsAndConditions: 1 }),
  terms('acceptedTermsAndConditions', 'null', { acceptedTermsAndConditions: null }),
  terms('acceptedTermsAndConditions', 'empty', { acceptedTermsAndConditions: '' }),
  terms('acceptedTermsAndConditions', 'a long string', {
    acceptedTermsAndConditions: 'true'.repeat(1000),
  }),
  terms('acceptedTermsAndConditions', 'an array', { acceptedTermsAndConditions: [true] }),
  terms('acceptedTermsAndConditions', 'an object', { acceptedTermsAndConditions: { value: true } }),
  terms('acceptedTermsAndConditions', 'control characters', {
    acceptedTermsAndConditions: 'true\u0000',
  }),
  terms('acceptedTermsAt', 'an unknown field beside a valid one', {
    acceptedTermsAndConditions: true,
    acceptedTermsAt: 0,
  }),
  terms('input', 'null', null, { says: WHOLE }),
  terms('input', 'absent', NONE, { says: WHOLE }),
  terms('input', 'a bare boolean', true, { says: WHOLE }),
  terms('input', 'an array', [{ acceptedTermsAndConditions: true }], { says: WHOLE }),

  // account.signout({ cidSessionIdentifier }): the caller's own id, made bad, must not sign it out.
  signout('cidSessionIdentifier', 'missing', {}),
  signout('cidSessionIdentifier', 'a number', { cidSessionIdentifier: 42 }),
  signout('cidSessionIdentifier', 'null', { cidSessionIdentifier: null }),
  signout('cidSessionIdentifier', 'a boolean', { cidSessionIdentifier: true }),
  signout('cidSessionIdentifier', 'empty', { cidSessionIdentifier: '' }),
  signout('cidSessionIdentifier', 'too long (201)', { cidSessionIdentifier: 'a'.repeat(201) }),
  signout(
    'cidSessionIdentifier',
    'an array holding the own id',
    fromSession((s) => ({ cidSessionIdentifier: [s.sessionId] })),
  ),
  signout(
    'cidSessionIdentifier',
    'the own id and a NUL',
    fromSession((s) => ({ cidSessionIdentifier: `${s.sessionId}\u0000` })),
  ),
  signout(
    'cidSessionIdentifier',
    'the own id and a line feed',
    fromSession((s) => ({ cidSessionIdentifier: `${s.sessionId}\n` })),
  ),
  signout(
    'cidSessionIdentifier',
    'the own id and a space',
    fromSession((s) => ({ cidSessionIdentifier: ` ${s.sessionId}` })),
  ),
  signout(
    'cidSessionIdentifier',
    'the own id and a semicolon',
    fromSession((s) => ({ cidSessionIdentifier: `${s.sessionId};` })),
  ),
  signout(
    'cidSessionIdentifier',
    'the own id and a non-ASCII letter',
    fromSession((s) => ({ cidSessionIdentifier: `${s.sessionId}é` })),
  ),
  signout(
    'all',
    'an unknown field beside the own id',
    fromSession((s) => ({ cidSessionIdentifier: s.sessionId, all: true })),
  ),
  signout(
    'input',
    'the own id as a bare string',
    fromSession((s) => s.sessionId),
    { says: WHOLE },
  ),
  signout('input', 'absent', NONE, { says: WHOLE }),

  // log.signinEvent({ b }): b is a brand of the §3 enumeration, lower-cased.
  signin('b', 'missing', {}),
  signin('b', 'a number', { b: 1 }),
  signin('b', 'null', { b: null }),
  signin('b', 'empty', { b: '' }),
  signin('b', 'not a brand', { b: SECRET }),
  signin('b', 'upper case', { b: 'PSA' }),
  signin('b', 'too long', { b: 'psa'.repeat(1000) }),
  signin('b', 'a brand and a NUL', { b: 'psa\u0000' }),
  signin('b', 'a brand and a line feed', { b: 'psa\n' }),
  signin('b', 'an array', { b: ['psa'] }),
  signin('sub', 'an unknown field (a forged subject)', { b: 'psa', sub: SECRET }),
  signin('input', 'a bare brand', 'psa', { says: WHOLE }),
  signin('input', 'absent', NONE, { says: WHOLE }),

  // log.clientError({ message, path }): both required, 1..2000 and 1..2048 characters. Control
  // characters are accepted and neutralised in the log (trpc.spec.ts).
  clientError('message', 'missing', { path: `/${SECRET}` }),
  clientError('message', 'a number', { message: 1, path: `/${SECRET}` }),
  clientError('message', 'null', { message: null, path: `/${SECRET}` }),
  clientError('message', 'an object', { message: { text: SECRET }, path: '/' }),
  clientError('message', 'empty', { message: '', path: `/${SECRET}` }),
  clientError('message', 'too long (2001)', { message: `${SECRET}${'x'.repeat(2001)}`, path: '/' }),
  clientError('path', 'missing', { message: SECRET }),
  clientError('path', 'a number', { message: SECRET, path: 404 }),
  clientError('path', 'null', { message: SECRET, path: null }),
  clientError('path', 'an array', { message: SECRET, path: ['/'] }),
  clientError('path', 'empty', { message: SECRET, path: '' }),
  clientError('path', 'too long (2049)', { message: SECRET, path: `/${'p'.repeat(2048)}` }),
  clientError('level', 'an unknown field', { message: SECRET, path: '/', level: 60 }),
  clientError('input', 'a bare string', SECRET, { says: WHOLE }),
  clientError('input', 'an object, batched', [SECRET], { says: WHOLE, batch: true }),

  // cookie.setCookie (§5 cookie writes; only non-credential cookies from an allowlist).
  setCookie('cookieName', 'missing', { value: 'dark' }),
  setCookie('cookieName', 'a number', { cookieName: 1, value: 'dark' }),
  setCookie('cookieName', 'null', { cookieName: null, value: 'dark' }),
  setCookie('cookieName', 'empty', { cookieName: '', value: 'dark' }),
  setCookie('cookieName', 'the credential accessToken', {
    cookieName: 'accessToken',
    value: SECRET,
  }),
  setCookie('cookieName', 'the credential refreshToken', {
    cookieName: 'refreshToken',
    value: SECRET,
  }),
  setCookie('cookieName', 'the credential sessionId', { cookieName: 'sessionId', value: SECRET }),
  setCookie('cookieName', 'the credential sessionCookie', {
    cookieName: 'sessionCookie',
    value: SECRET,
  }),
  setCookie('cookieName', 'the sign-in binding', { cookieName: 'signinBinding', value: SECRET }),
  setCookie('cookieName', 'a name off the allowlist', { cookieName: 'foo', value: 'bar' }),
  setCookie('cookieName', 'an allowed name in another case', {
    cookieName: 'Theme',
    value: 'dark',
  }),
  setCookie('cookieName', 'a __Host- prefixed name', { cookieName: '__Host-theme', value: 'dark' }),
  setCookie('cookieName', 'too long', { cookieName: 'theme'.repeat(1000), value: 'dark' }),
  setCookie('cookieName', 'a name and a NUL', { cookieName: 'theme\u0000', value: 'dark' }),
  setCookie('cookieName', 'a header injection', {
    cookieName: 'theme\r\nSet-Cookie: sessionId=x',
    value: 'dark',
  }),
  setCookie('cookieName', 'name=value in the name', { cookieName: 'theme=dark', value: 'dark' }),
  setCookie('cookieName', 'an array', { cookieName: ['theme'], value: 'dark' }),

  setCookie('value', 'missing', { cookieName: 'theme' }),
  setCookie('value', 'a number', { cookieName: 'QTM_SID', value: 123 }),
  setCookie('value', 'null', { cookieName: 'theme', value: null }),
  setCookie('value', 'a boolean', { cookieName: 'theme', value: true }),
  setCookie('value', 'empty for theme', { cookieName: 'theme', value: '' }),
  setCookie('value', 'empty for QTM_SID', { cookieName: 'QTM_SID', value: '' }),
  setCookie('value', 'a theme that is not light or dark', { cookieName: 'theme', value: 'blue' }),
  setCookie('value', 'a theme in upper case', { cookieName: 'theme', value: 'DARK' }),
  setCookie('value', 'too long for any cookie (4097)', {
    cookieName: 'QTM_UID',
    value: `${SECRET}${'a'.repeat(4097)}`,
  }),
  setCookie('value', 'too long for an analytics id (129)', {
    cookieName: 'QTM_SID',
    value: 'a'.repeat(129),
  }),
  setCookie('value', 'a NUL', { cookieName: 'QTM_SID', value: `${SECRET}\u0000` }),
  setCookie('value', 'a header injection', {
    cookieName: 'QTM_SID',
    value: `${SECRET}\r\nSet-Cookie: sessionId=x`,
  }),
  setCookie('value', 'a semicolon', { cookieName: 'QTM_UID', value: `${SECRET};Domain=evil.com` }),
  setCookie('value', 'a comma', { cookieName: 'QTM_UID', value: `${SECRET},b` }),
  setCookie('value', 'a space', { cookieName: 'QTM_UID', value: `${SECRET} b` }),
  setCookie('value', 'double quotes', { cookieName: 'QTM_UID', value: `"${SECRET}"` }),
  setCookie('value', 'a backslash', { cookieName: 'QTM_UID', value: `${SECRET}\\b` }),
  setCookie('value', 'a non-ASCII letter', { cookieName: 'QTM_UID', value: `${SECRET}é` }),
  setCookie('value', 'a percent sign', { cookieName: 'QTM_UID', value: `${SECRET}%20` }),

  setCookie('path', 'a number', { ...theme, path: 1 }),
  setCookie('path', 'null', { ...theme, path: null }),
  setCookie('path', 'empty', { ...theme, path: '' }),
  setCookie('path', 'without a leading slash', { ...theme, path: 'x' }),
  setCookie('path', 'a NUL', { ...theme, path: '/\u0000' }),
  setCookie('path', 'a header injection', { ...theme, path: '/\r\nSet-Cookie: sessionId=x' }),
  setCookie('path', 'a space', { ...theme, path: '/a b' }),
  setCookie('path', 'a semicolon', { ...theme, path: '/;Domain=evil.com' }),
  setCookie('path', 'a non-ASCII letter', { ...theme, path: '/é' }),
  setCookie('path', 'too long (1025)', { ...theme, path: `/${'p'.repeat(1024)}` }),

  setCookie('sameSite', 'a number', { ...theme, sameSite: 1 }),
  setCookie('sameSite', 'null', { ...theme, sameSite: null }),
  setCookie('sameSite', 'empty', { ...theme, sameSite: '' }),
  setCookie('sameSite', 'capitalised (Lax)', { ...theme, sameSite: 'Lax' }),
  setCookie('sameSite', 'not a SameSite value', { ...theme, sameSite: 'always' }),
  setCookie('sameSite', 'too long', { ...theme, sameSite: 'lax'.repeat(1000) }),
  setCookie('sameSite', 'None with secure: false', { ...theme, sameSite: 'none', secure: false }),
  setCookie('sameSite', 'None without secure (http://localhost)', { ...theme, sameSite: 'none' }),

  setCookie('maxAge', 'a string', { ...theme, maxAge: '60' }),
  setCookie('maxAge', 'null', { ...theme, maxAge: null }),
  setCookie('maxAge', 'empty', { ...theme, maxAge: '' }),
  setCookie('maxAge', 'a boolean', { ...theme, maxAge: true }),
  setCookie('maxAge', 'negative', { ...theme, maxAge: -1 }),
  setCookie('maxAge', 'a fraction', { ...theme, maxAge: 1.5 }),
  setCookie('maxAge', 'above the longest lifetime (§9 theme)', { ...theme, maxAge: 3_155_695_201 }),
  setCookie('maxAge', 'above the safe integers', { ...theme, maxAge: 2 ** 60 }),
  setCookie(
    'maxAge',
    'infinite (1e400)',
    rawHex(hex('{"cookieName":"theme","value":"dark","maxAge":1e400}')),
  ),

  setCookie('secure', "the string 'true'", { ...sid, secure: 'true' }),
  setCookie('secure', 'a number', { ...sid, secure: 1 }),
  setCookie('secure', 'null', { ...sid, secure: null }),
  setCookie('secure', 'empty', { ...sid, secure: '' }),

  setCookie('httpOnly', "the string 'false'", { ...sid, httpOnly: 'false' }),
  setCookie('httpOnly', 'a number', { ...sid, httpOnly: 0 }),
  setCookie('httpOnly', 'null', { ...sid, httpOnly: null }),
  setCookie('httpOnly', 'empty', { ...sid, httpOnly: '' }),

  // §5 also names domain and expires: this procedure has no such fields, so any is refused.
  setCookie('domain', 'another site', { ...theme, domain: 'evil.com' }),
  setCookie('domain', 'this host', { ...theme, domain: 'localhost' }),
  setCookie('expires', 'an expiry date', { ...theme, expires: '2030-01-01T00:00:00Z' }),
  setCookie(
    '__proto__',
    'a prototype key',
    rawHex(hex('{"cookieName":"theme","value":"dark","__proto__":{"secure":true}}')),
  ),
  setCookie('input', 'null', null, { says: WHOLE }),
  setCookie('input', 'absent', NONE, { says: WHOLE }),
  setCookie('input', 'an array', [theme], { says: WHOLE }),
  setCookie('input', 'a cookie header line', 'theme=dark; Path=/', { says: WHOLE }),

  // The wire form (§7): the input is the lower-case hex of its UTF-8 JSON text.
  clientError('input', 'not hex', rawHex('zz'), { says: HEX_FORM }),
  clientError('input', 'hex of odd length', rawHex('abc'), { says: HEX_FORM }),
  clientError('input', 'upper-case hex', rawHex(hex('{"message":"m","path":"/"}').toUpperCase()), {
    says: HEX_FORM,
  }),
  clientError('input', 'hex with a 0x prefix', rawHex(`0x${hex('{"message":"m","path":"/"}')}`), {
    says: HEX_FORM,
  }),
  clientError(
    'input',
    'hex with spaces',
    rawHex(hex('{"message":"m","path":"/"}').replace(/(..)/g, '$1 ')),
    {
      says: HEX_FORM,
    },
  ),
  clientError('input', 'a JSON object, not its hex', new Raw('{"message":"m","path":"/"}'), {
    says: HEX_FORM,
  }),
  clientError('input', 'a JSON number, not hex', new Raw('7'), { says: HEX_FORM }),
  clientError('input', 'a body that is not JSON', new Raw('nope'), { says: /JSON/ }),
  clientError('input', 'hex of a lone invalid UTF-8 byte', rawHex('ff'), { says: NOT_JSON }),
  clientError(
    'input',
    'hex of invalid UTF-8 inside a string',
    rawHex(hex('{"message":"A","path":"/"}').replace('41', 'c328')),
    { says: NOT_JSON },
  ),
  clientError(
    'input',
    'hex of an overlong UTF-8 "/"',
    rawHex(hex('{"message":"m","path":"A"}').replace('41', 'c0af')),
    { says: NOT_JSON },
  ),
  clientError(
    'input',
    'hex of a UTF-8-encoded surrogate',
    rawHex(hex('{"message":"A","path":"/"}').replace('41', 'eda080')),
    { says: NOT_JSON },
  ),
  clientError('input', 'hex of broken JSON', rawHex(hex('{"a":')), { says: NOT_JSON }),
  clientError(
    'input',
    'hex of JSON and trailing text',
    rawHex(hex('{"message":"m","path":"/"}x')),
    {
      says: NOT_JSON,
    },
  ),
  clientError('input', 'hex of nothing', rawHex(''), { says: NOT_JSON }),
  clientError(
    'input',
    `hex longer than ${MAX_HEX_INPUT} characters`,
    rawHex(hex(`{"message":"${SECRET}","path":"/"}${' '.repeat(MAX_HEX_INPUT / 2)}`)),
    { says: HEX_FORM },
  ),
  clientError('input', 'not hex, batched', rawHex('zz'), { says: HEX_FORM, batch: true }),
  setCookie('input', 'hex of text that is not JSON', rawHex(hex('theme=dark')), { says: NOT_JSON }),
];

/** The fields a refusal's message names: its "field: reason; field: reason" parts (input-errors.ts). */
function fieldsNamed(message: string): string[] {
  return message.split('; ').map((part) => part.split(':')[0] ?? '');
}

describe('every field of every account API procedure refuses bad input (issue 5)', () => {
  // Many refused error reports come from this one address: the per-address limit must not answer first.
  const t = useTestApp({ RATE_LIMIT_CLIENT_ERRORS: '100000/60' });
  let api: string;
  let origin: string;
  let collector: SignedIn;
  let sub: string;
  let profileBefore: unknown;

  beforeAll(async () => {
    api = `${t.url}${ROUTES.api}`;
    origin = new URL(t.config.http.publicUrl).origin;
    collector = await signedInSession(t);
    const record = await t.app.get(Sessions).get(collector.sessionId);
    if (!record) throw new Error('the collector has no session');
    sub = record.sub;
    // A known profile: a refused updateAccountInfoPartial(true) must leave it at false.
    await request(api)
      .post('/account.updateAccountInfoPartial')
      .set(CSRF_HEADER, '1')
      .set('origin', origin)
      .set('cookie', collector.cookie)
      .type('json')
      .send(JSON.stringify(encodeHexJson({ acceptedTermsAndConditions: false })))
      .expect(200);
    profileBefore = await t.app.get(AccountProfiles).get(sub);
    expect(profileBefore).toMatchObject({ acceptedTermsAndConditions: false });
  }, 120_000);

  function send(r: Row): request.Test {
    const built = r.input instanceof FromSession ? r.input.make(collector) : r.input;
    // The JSON text of the one input on the wire: a JSON string of hex, or exactly what the row says.
    const one =
      built === NONE
        ? undefined
        : built instanceof Raw
          ? built.text
          : JSON.stringify(encodeHexJson(built));
    // A batch of one carries it under index 0 (§7: batches join procedure paths with commas).
    const wire = one !== undefined && r.batch ? `{"0":${one}}` : one;
    const path = `/${r.procedure}${r.batch ? '?batch=1' : ''}`;
    if (r.procedure === 'account.status' || r.procedure === 'account.sessions') {
      // A query: the input travels in the input query parameter (§7).
      return request(api)
        .get(path)
        .query(wire === undefined ? {} : { input: wire })
        .set('cookie', collector.cookie);
    }
    const body = wire ?? '';
    return request(api)
      .post(path)
      .set(CSRF_HEADER, '1')
      .set('origin', origin)
      .set('cookie', collector.cookie)
      .type('json')
      .send(body);
  }

  it('has a row for every field of every procedure', () => {
    const covered = new Set(ROWS.map((r) => `${r.procedure}.${r.field}`));
    for (const field of [
      'account.status.input',
      'account.updateAccountInfoPartial.acceptedTermsAndConditions',
      'account.signout.cidSessionIdentifier',
      'account.sessions.input',
      'account.endSession.handle',
      'account.endOtherSessions.input',
      'log.signinEvent.b',
      'log.clientError.message',
      'log.clientError.path',
      'cookie.setCookie.cookieName',
      'cookie.setCookie.value',
      'cookie.setCookie.path',
      'cookie.setCookie.sameSite',
      'cookie.setCookie.maxAge',
      'cookie.setCookie.secure',
      'cookie.setCookie.httpOnly',
    ])
      expect(covered).toContain(field);
  });

  it.each(ROWS)(
    '$procedure $field: $bad answers 400 BAD_REQUEST naming it, and changes nothing',
    async (r) => {
      const linesBefore = t.logs.lines.length;
      const res = await send(r);
      const error = (Array.isArray(res.body) ? res.body[0]?.error : res.body?.error) as
        | { message: string; data: { code: string; httpStatus: number; stack?: unknown } }
        | undefined;

      expect({ status: res.status, code: error?.data.code }).toEqual({
        status: 400,
        code: 'BAD_REQUEST',
      });
      const message = error?.message ?? '';
      if (r.says) expect(message).toMatch(r.says);
      else expect(fieldsNamed(message)).toContain(r.field);
      expect(error?.data.stack).toBeUndefined();

      // Logged as a refusal, without its input.
      const lines = t.logs.records.slice(linesBefore);
      expect(lines).toContainEqual(
        expect.objectContaining({ msg: 'api call refused', code: 'BAD_REQUEST' }),
      );
      // Nothing changed: no cookie, no effect line, the profile and the session as they were.
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(lines.filter((l) => l.msg === 'client error' || l.event === 'signin')).toEqual([]);
      expect(await t.app.get(AccountProfiles).get(sub)).toEqual(profileBefore);
      const still = await request(api).get('/account.status').set('cookie', collector.cookie);
      expect(still.body.result?.data).toMatchObject({ isSignedIn: true });
      expect(t.logs.text).not.toContain(SECRET);
      expect(t.logs.text).not.toContain(collector.sessionId);
    },
  );

  it(`a body over ${MAX_BODY_BYTES} bytes answers 413 PAYLOAD_TOO_LARGE and changes nothing`, async () => {
    const res = await request(api)
      .post('/log.clientError')
      .set(CSRF_HEADER, '1')
      .set('origin', origin)
      .type('json')
      .send(JSON.stringify(encodeHexJson({ message: SECRET.repeat(20_000), path: '/' })));
    expect(res.status).toBe(413);
    expect(res.body.error.data.code).toBe('PAYLOAD_TOO_LARGE');
    expect(t.logs.text).not.toContain(SECRET);
  });

  it('the same procedures still accept good input afterwards (the rows failed on their input alone)', async () => {
    const res = await request(api)
      .post('/cookie.setCookie')
      .set(CSRF_HEADER, '1')
      .set('origin', origin)
      .set('cookie', collector.cookie)
      .type('json')
      .send(JSON.stringify(encodeHexJson({ ...sid, path: '/', sameSite: 'strict', maxAge: 0 })))
      .expect(200);
    expect(res.headers['set-cookie']).toEqual([
      'QTM_SID=abc123; Max-Age=0; Path=/; SameSite=Strict',
    ]);
    await request(api).get('/account.status').set('cookie', collector.cookie).expect(200);
  });
});
