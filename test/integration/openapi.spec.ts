import { compileErrors, dereference, validate } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  jwtVerify,
  type JSONWebKeySet,
} from 'jose';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { signonDiscovery } from '../../src/auth/signon-discovery';
import { BRANDS, CLIENT_TYPES } from '../../src/shared/brand';
import { ROUTES, type RouteName } from '../../src/shared/routes';
import { Browser } from '../support/browser';
import {
  basicAuth,
  jarCookie,
  locationOf,
  signInVia,
  throughIdp,
  signOutFromThisSite,
} from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 49 item 7: docs/openapi.yaml is the brand contract's machine-readable description. It must
 * be a valid OpenAPI 3.1 document, describe exactly the routes a brand or an integration tester
 * calls, and be true: the running service's answers (status, documented headers, and every JSON body
 * against its schema) and its redirects (where each Location goes, what the brand's token URL
 * receives, what a logout token holds) are checked against it here.
 *
 * Bodies are checked more strictly than the document states: an object schema that does not say
 * otherwise is closed here (unevaluatedProperties: false), so a field the service answers but the
 * document does not name fails this test, while the document itself stays open for brands, which
 * ignore fields they do not know (CHANGELOG.md "Versioning and deprecation policy").
 */

const DOCUMENT_PATH = join(__dirname, '../../docs/openapi.yaml');

/** The routes a brand or an integration tester calls: each is documented, and nothing else. */
const BRAND_FACING: readonly RouteName[] = [
  'signin',
  'brandTokenLanding',
  'logout',
  'logoutLanding',
  'unauthorized',
  'handoffToken',
  'signonDiscovery',
  'jwks',
  'healthz',
  'readyz',
];

/** §3 "Sign-in redirect query parameters" (src/auth/journey.ts parseSigninQuery). */
const SIGNIN_PARAMETERS = [
  'b',
  'r',
  'l',
  'lang',
  'fr',
  'state',
  't',
  'isNewAccount',
  'isMigrated',
  'postWelcome',
  'returnToSignIn',
  'acceptedTermsAndConditions',
];

type Schema = Record<string, unknown>;
interface HeaderObject {
  readonly required?: boolean;
  readonly schema?: Schema;
}
interface ResponseObject {
  readonly headers?: Readonly<Record<string, HeaderObject>>;
  readonly content?: Readonly<Record<string, { readonly schema?: Schema }>>;
}
interface ParameterObject {
  readonly name: string;
  readonly in: string;
  readonly schema?: Schema;
}
interface Operation {
  readonly parameters?: readonly ParameterObject[];
  readonly requestBody?: { readonly content: Readonly<Record<string, { schema: Schema }>> };
  readonly responses: Readonly<Record<string, ResponseObject>>;
}
type Method = 'get' | 'post';
interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly version: string };
  readonly paths: Readonly<Record<string, Partial<Record<Method, Operation>>>>;
  readonly webhooks: Readonly<Record<string, { readonly post: Operation }>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, Schema>>;
    readonly callbacks: Readonly<
      Record<string, Readonly<Record<string, { readonly get: Operation }>>>
    >;
  };
}

const source = parseYaml(readFileSync(DOCUMENT_PATH, 'utf8')) as OpenApiDocument;

/** The parser's own document type (openapi-types'), for the calls: this file reads OpenApiDocument. */
type ParserInput = Parameters<typeof validate>[0];
/** A fresh, dereferenced copy of the document (the parser changes what it is given). */
const dereferenced = async (): Promise<OpenApiDocument> =>
  (await dereference(
    structuredClone(source) as unknown as ParserInput,
  )) as unknown as OpenApiDocument;

/** JSON Schema 2020-12, OpenAPI 3.1's dialect; unknown keywords and formats are errors. */
const ajv = new Ajv2020({ allErrors: true, strictSchema: true, strictTypes: false });
ajv.addFormat('uri', {
  type: 'string',
  validate: (s: string) => /^[a-z][a-z0-9+.-]*:/i.test(s) && URL.canParse(s),
});
ajv.addFormat('date', { type: 'string', validate: (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) });
ajv.addFormat('date-time', {
  type: 'string',
  validate: (s: string) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)),
});

/** A copy of `schema` in which every object schema that does not say otherwise is closed. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'properties'
        ? Object.fromEntries(
            Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, closed(v)]),
          )
        : closed(value),
    ]),
  );
  if (
    'properties' in copy &&
    !('additionalProperties' in copy) &&
    !('unevaluatedProperties' in copy)
  )
    copy.unevaluatedProperties = false;
  return copy;
}

/** What `value` does wrong against `schema` (closed), as `path message` lines; none when it matches. */
function problems(schema: Schema | undefined, value: unknown): string[] {
  if (!schema) return ['no schema documented'];
  const check = ajv.compile(closed(schema) as Schema);
  if (check(value)) return [];
  return (check.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

describe('docs/openapi.yaml', () => {
  let doc: OpenApiDocument;

  /** A brand's back-channel logout endpoint: records each POST's content type and body. */
  const brandEndpoint = {
    received: [] as { contentType: string; body: string }[],
    server: http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        brandEndpoint.received.push({ contentType: req.headers['content-type'] ?? '', body });
        res.statusCode = 200;
        res.end();
      });
    }),
  };

  const t = useTestApp(async () => {
    await new Promise<void>((resolve) => brandEndpoint.server.listen(0, '127.0.0.1', resolve));
    const { port } = brandEndpoint.server.address() as AddressInfo;
    return {
      BACKCHANNEL_LOGOUT_URIS: JSON.stringify({ psa: `http://127.0.0.1:${port}/backchannel` }),
    };
  });
  afterAll(() => new Promise<void>((resolve) => brandEndpoint.server.close(() => resolve())));

  beforeAll(async () => {
    doc = await dereferenced();
  });

  /** The operation of a documented route. */
  const operation = (path: string, method: Method): Operation => {
    const op = doc.paths[path]?.[method];
    if (!op) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
    return op;
  };

  /**
   * Checks one answer of the service against the document: its status is one documented for the
   * route, each required header is there and each documented header matches its schema, its media
   * type is a documented one, and a JSON body matches its schema. Returns the parsed JSON body.
   */
  function expectDocumented(path: string, method: Method, answer: Answer): unknown {
    const responses = operation(path, method).responses;
    const status = String(answer.status);
    const documented = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
    expect({ route: `${method} ${path}`, status, documented: documented !== undefined }).toEqual({
      route: `${method} ${path}`,
      status,
      documented: true,
    });
    if (!documented) return undefined;
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const value = answer.headers.get(name);
      if (header.required)
        expect({ header: name, present: value !== null }).toEqual({ header: name, present: true });
      if (value !== null)
        expect({ header: name, problems: problems(header.schema, value) }).toEqual({
          header: name,
          problems: [],
        });
    }
    if (!documented.content) {
      expect(answer.body).toBe('');
      return undefined;
    }
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    expect(Object.keys(documented.content)).toContain(mediaType);
    if (mediaType !== 'application/json') return undefined;
    const json: unknown = JSON.parse(answer.body);
    expect(problems(documented.content[mediaType]?.schema, json)).toEqual([]);
    return json;
  }

  describe('the document', () => {
    it('is a valid OpenAPI 3.1 document, versioned as the brand contract', async () => {
      const result = await validate(structuredClone(source) as unknown as ParserInput);
      expect(result.valid ? '' : compileErrors(result)).toBe('');
      expect(result.warnings).toEqual([]);
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info.version).toBe(signonDiscovery(t.config).contract_version);
    });

    it('describes exactly the routes a brand or an integration tester calls, each a route of ROUTES', () => {
      const routes = new Set<string>(Object.values(ROUTES));
      const documented = Object.keys(doc.paths);
      expect(documented.filter((path) => !routes.has(path))).toEqual([]);
      expect([...documented].sort()).toEqual(BRAND_FACING.map((name) => ROUTES[name]).sort());
    });

    it('names every §3 parameter of /signin', () => {
      const names = (operation(ROUTES.signin, 'get').parameters ?? []).map((p) => p.name);
      expect([...names].sort()).toEqual([...SIGNIN_PARAMETERS].sort());
    });

    it('lists the brands and client types the service has', () => {
      expect(doc.components.schemas.BrandCode?.enum).toEqual([...BRANDS]);
      const entry = doc.components.schemas.BrandContractEntry as {
        properties: { client_type: { enum: string[] } };
      };
      expect(entry.properties.client_type.enum).toEqual([...CLIENT_TYPES]);
    });

    it('would catch an answer it does not describe (the check is not vacuous)', () => {
      const schema = doc.components.schemas.OAuthError;
      expect(problems(schema, { error: 'invalid_grant', error_description: 'x' })).toEqual([]);
      expect(
        problems(schema, { error: 'invalid_grant', error_description: 'x', extra: 1 }),
      ).not.toEqual([]);
      expect(problems(schema, { error: 'server_error', error_description: 'x' })).not.toEqual([]);
    });
  });

  async function call(
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> {
    const res = await fetch(`${t.url}${path}`, { redirect: 'manual', ...init });
    return { status: res.status, headers: res.headers, body: await res.text() };
  }

  const json = { accept: 'application/json' };
  const html = { accept: 'text/html' };
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
  const locationUrl = (answer: Answer) => new URL(answer.headers.get('location') ?? '', t.url);

  describe('the JSON routes answer as documented', () => {
    it('GET /.well-known/collectors-signon: the discovery document of the configuration', async () => {
      const answer = await call(ROUTES.signonDiscovery);
      expect(answer.status).toBe(200);
      const body = expectDocumented(ROUTES.signonDiscovery, 'get', answer);
      expect(body).toEqual(JSON.parse(JSON.stringify(signonDiscovery(t.config))));
      expect(body).toMatchObject({
        issuer: t.config.http.publicUrl,
        jwks_uri: `${t.config.http.publicUrl}${ROUTES.jwks}`,
        brands: { psa: { delivery: 'tokens-in-url', backchannel_logout: true } },
      });
    });

    it('GET /.well-known/collectors-signon: the headers of /.well-known/jwks.json (helmet, CSP, caching)', async () => {
      // What differs by request or by size (the document is over 1 kB, so it is compressed) aside.
      const perAnswer = new Set([
        'date',
        'content-length',
        'content-encoding',
        'transfer-encoding',
        'x-request-id',
        'traceparent',
      ]);
      const headersOf = async (path: string) => {
        const { headers } = await call(path);
        const names = [...headers.keys()].filter((name) => !perAnswer.has(name));
        return Object.fromEntries(names.map((name) => [name, headers.get(name)]));
      };
      const jwks = await headersOf(ROUTES.jwks);
      expect(jwks['content-security-policy']).toBeTruthy();
      expect(await headersOf(ROUTES.signonDiscovery)).toEqual(jwks);
    });

    it('GET /.well-known/jwks.json', async () => {
      const answer = await call(ROUTES.jwks);
      expect(answer.status).toBe(200);
      expectDocumented(ROUTES.jwks, 'get', answer);
    });

    it.each([[ROUTES.healthz], [ROUTES.readyz]])('GET %s', async (path) => {
      const answer = await call(path);
      expect(answer.status).toBe(200);
      expect(expectDocumented(path, 'get', answer)).toMatchObject({ status: 'ok' });
    });

    const client = () => {
      const c = t.config.brandClients.psamobile;
      if (!c) throw new Error('psamobile has a client in local');
      return c;
    };
    const basic = () => basicAuth(client().clientId, client().clientSecret);

    /** The handoff token endpoint's refusals (RFC 6749 §5.2), each as the document says. */
    const refusals: [
      string,
      () => { headers: Record<string, string>; body: string },
      number,
      string,
    ][] = [
      [
        'no client authentication',
        () => ({
          headers: formHeaders,
          body: form({ grant_type: 'authorization_code', code: 'x' }),
        }),
        401,
        'invalid_client',
      ],
      [
        'a wrong secret in Basic',
        () => ({
          headers: { ...formHeaders, authorization: basicAuth(client().clientId, 'wrong') },
          body: form({ grant_type: 'authorization_code', code: 'x' }),
        }),
        401,
        'invalid_client',
      ],
      [
        'a wrong client_secret in the body',
        () => ({
          headers: formHeaders,
          body: form({
            grant_type: 'authorization_code',
            code: 'x',
            client_id: client().clientId,
            client_secret: 'wrong',
          }),
        }),
        400,
        'invalid_client',
      ],
      [
        'no grant_type',
        () => ({ headers: { ...formHeaders, authorization: basic() }, body: form({ code: 'x' }) }),
        400,
        'invalid_request',
      ],
      [
        'another grant_type',
        () => ({
          headers: { ...formHeaders, authorization: basic() },
          body: form({ grant_type: 'password', code: 'x' }),
        }),
        400,
        'unsupported_grant_type',
      ],
      [
        'no code',
        () => ({
          headers: { ...formHeaders, authorization: basic() },
          body: form({ grant_type: 'authorization_code' }),
        }),
        400,
        'invalid_request',
      ],
      [
        'an unknown code (client_secret_post)',
        () => ({
          headers: formHeaders,
          body: form({
            grant_type: 'authorization_code',
            code: 'no-such-code',
            client_id: client().clientId,
            client_secret: client().clientSecret,
          }),
        }),
        400,
        'invalid_grant',
      ],
      [
        'an unknown code in the JSON alias',
        () => ({
          headers: { 'content-type': 'application/json', authorization: basic() },
          body: JSON.stringify({ code: 'no-such-code' }),
        }),
        400,
        'invalid_grant',
      ],
      [
        'another media type',
        () => ({
          headers: { 'content-type': 'text/plain', authorization: basic() },
          body: 'code=x',
        }),
        400,
        'invalid_request',
      ],
    ];

    it.each(refusals.map(([name, request, status, error]) => ({ name, request, status, error })))(
      'POST /api/handoff/token, $name: $status $error',
      async ({ request, status, error }) => {
        const answer = await call(ROUTES.handoffToken, { method: 'POST', ...request() });
        expect(answer.status).toBe(status);
        expect(expectDocumented(ROUTES.handoffToken, 'post', answer)).toMatchObject({ error });
      },
    );

    it('GET /signin with a bad b, asking for JSON: the §8 error as AppErrorBody', async () => {
      const answer = await call(`${ROUTES.signin}?b=nosuchbrand`, { headers: json });
      expect(answer.status).toBe(400);
      expect(expectDocumented(ROUTES.signin, 'get', answer)).toMatchObject({
        error: 'InvalidBrand',
      });
      const page = await call(`${ROUTES.signin}?b=nosuchbrand`, { headers: html });
      expect(page.status).toBe(400);
      expectDocumented(ROUTES.signin, 'get', page);
    });

    it('GET /handlebrandtokenredirect without b: InvalidBrandTokenRedirectParams', async () => {
      const answer = await call(ROUTES.brandTokenLanding, { headers: json });
      expect(answer.status).toBe(400);
      expect(expectDocumented(ROUTES.brandTokenLanding, 'get', answer)).toMatchObject({
        error: 'InvalidBrandTokenRedirectParams',
      });
    });

    it('GET /unauthredirect with an unknown error: BadRequest', async () => {
      const answer = await call(`${ROUTES.unauthorized}?error=Nope`, { headers: json });
      expect(answer.status).toBe(400);
      expect(expectDocumented(ROUTES.unauthorized, 'get', answer)).toMatchObject({
        error: 'BadRequest',
      });
    });
  });

  describe('the pages and redirects answer as documented', () => {
    const idpEndpoint = (path: string) => `${t.config.idp.issuer}${path}`;

    it('GET /signin without a session: 302 to the IdP authorization endpoint, for this service', async () => {
      const answer = await call(`${ROUTES.signin}?b=psa`, { headers: html });
      expect(answer.status).toBe(302);
      expectDocumented(ROUTES.signin, 'get', answer);
      const location = locationUrl(answer);
      expect(`${location.origin}${location.pathname}`).toBe(idpEndpoint('/v1/authorize'));
      expect(Object.fromEntries(location.searchParams)).toMatchObject({
        response_type: 'code',
        client_id: t.config.idp.clientId,
        redirect_uri: `${t.config.http.publicUrl}${ROUTES.loginLanding}`,
      });
    });

    it('GET /signin with t: 302 to the same URL without t', async () => {
      const answer = await call(`${ROUTES.signin}?b=psa&t=not.a.token`, { headers: html });
      expect(answer.status).toBe(302);
      expectDocumented(ROUTES.signin, 'get', answer);
      expect(answer.headers.get('location')).toBe(`${ROUTES.signin}?b=psa`);
    });

    it('GET /handlebrandtokenredirect?b=pcgs: 302 to the IdP, with the brand’s client and prompt=none', async () => {
      const answer = await call(`${ROUTES.brandTokenLanding}?b=pcgs`, { headers: html });
      expect(answer.status).toBe(302);
      expectDocumented(ROUTES.brandTokenLanding, 'get', answer);
      const location = locationUrl(answer);
      expect(`${location.origin}${location.pathname}`).toBe(idpEndpoint('/v1/authorize'));
      expect(Object.fromEntries(location.searchParams)).toMatchObject({
        response_type: 'code',
        client_id: t.config.brandClients.pcgs?.clientId,
        prompt: 'none',
        redirect_uri: `${t.config.http.publicUrl}${ROUTES.brandTokenLanding}`,
      });
    });

    it('GET /logout/collectorsid without a session: 302 straight to /handlelogoutredirect', async () => {
      // From a page of this service or a brand's (issue 50 item 4); from elsewhere, a page that asks.
      // No ID token to send as id_token_hint, so not through the IdP (docs/okta.md).
      const answer = await call(`${ROUTES.logout}?b=psa`, {
        headers: { ...html, 'sec-fetch-site': 'same-origin' },
      });
      expect(answer.status).toBe(302);
      expectDocumented(ROUTES.logout, 'get', answer);
      const location = locationUrl(answer);
      expect(location.pathname).toBe(ROUTES.logoutLanding);
      expect(location.searchParams.get('state')).toBeTruthy();
    });

    it('GET /logout/collectorsid from another site: 200, the page that asks (issue 50 item 4)', async () => {
      const answer = await call(`${ROUTES.logout}?b=psa`, {
        headers: { ...html, 'sec-fetch-site': 'cross-site', referer: 'https://evil.example/' },
      });
      expect(answer.status).toBe(200);
      expectDocumented(ROUTES.logout, 'get', answer);
    });

    it.each([
      [ROUTES.logoutLanding, `${ROUTES.logoutLanding}?b=psa`],
      [ROUTES.unauthorized, `${ROUTES.unauthorized}?error=Unauthorized`],
      [ROUTES.unauthorized, `${ROUTES.unauthorized}?error=GoldinInvalidOktaSession`],
    ])('GET %s: a page', async (path, url) => {
      const answer = await call(url, { headers: html });
      expect(answer.status).toBe(200);
      expectDocumented(path, 'get', answer);
    });
  });

  describe('what a brand receives is as documented', () => {
    /** The query the brandSession callback documents: the brand's token URL's own query set aside. */
    function brandQuery(location: URL, tokenURL: string): Record<string, string> {
      const own = new URL(tokenURL).searchParams;
      return Object.fromEntries([...location.searchParams].filter(([name]) => !own.has(name)));
    }
    const callbackQuerySchema = () => {
      const callback = doc.components.callbacks.brandSession?.['{$response.header.Location}'];
      const parameter = callback?.get.parameters?.find((p) => p.in === 'query');
      return parameter?.schema;
    };

    it('a tokens-in-url brand (psa): si, t and rt on its token URL', async () => {
      const { landing } = await signInVia(t, new Browser(), `b=psa`);
      const location = locationOf(landing);
      const tokenURL = t.config.brands.psa.tokenURL;
      expect(`${location.origin}${location.pathname}`).toBe(tokenURL);
      const query = brandQuery(location, tokenURL);
      expect(problems(callbackQuerySchema(), query)).toEqual([]);
      expect(problems(doc.components.schemas.TokensInUrlQuery, query)).toEqual([]);
      expect('si' in query).toBe(signonDiscovery(t.config).brands.psa.receives_session_id);
      expect(landing.headers.get('referrer-policy')).toBe('no-referrer');
      expect(landing.headers.get('cache-control')).toBe('no-store');
    });

    it('the brand code redirect (pcgs, the collector signed in already): t and rt, and no si', async () => {
      const browser = new Browser();
      await signInVia(t, browser, 'b=psa');
      const start = await browser.get(`${t.url}${ROUTES.brandTokenLanding}?b=pcgs`);
      const callback = await throughIdp(browser, start, ROUTES.brandTokenLanding);
      const landing = await browser.get(callback.href);
      const location = locationOf(landing);
      const tokenURL = t.config.brands.pcgs.tokenURL;
      expect(`${location.origin}${location.pathname}`).toBe(tokenURL);
      const query = brandQuery(location, tokenURL);
      expect(problems(callbackQuerySchema(), query)).toEqual([]);
      expect(problems(doc.components.schemas.TokensInUrlQuery, query)).toEqual([]);
      expect(query).not.toHaveProperty('si');
    });

    it('a handoff-code brand (ccmobile): si and a code, which the token endpoint redeems as documented', async () => {
      const { landing } = await signInVia(t, new Browser(), `b=ccmobile`);
      const location = locationOf(landing);
      const query = brandQuery(location, t.config.brands.ccmobile.tokenURL);
      expect(problems(callbackQuerySchema(), query)).toEqual([]);
      expect(problems(doc.components.schemas.HandoffCodeQuery, query)).toEqual([]);
      const credentials = t.config.brandClients.ccmobile;
      if (!credentials || !query.code) throw new Error('no client or no code');
      const answer = await call(ROUTES.handoffToken, {
        method: 'POST',
        headers: {
          ...formHeaders,
          authorization: basicAuth(credentials.clientId, credentials.clientSecret),
        },
        body: form({ grant_type: 'authorization_code', code: query.code }),
      });
      expect(answer.status).toBe(200);
      expect(expectDocumented(ROUTES.handoffToken, 'post', answer)).toMatchObject({
        token_type: 'Bearer',
        session_id: query.si,
      });
    });

    it('a logout token: the webhook’s form, header and claims; signed by jwks_uri; aud, sub and sid as documented', async () => {
      const discovery = signonDiscovery(t.config);
      const browser = new Browser();
      const { landing } = await signInVia(t, browser, `b=psa`);
      const handed = locationOf(landing).searchParams;
      const before = brandEndpoint.received.length;
      const signout = await signOutFromThisSite(browser, `${t.url}${ROUTES.logout}?b=psa`);
      expect(signout.status).toBe(302);
      expect(await jarCookie(browser, t.url, 'sessionBinding')).toBeUndefined();
      const deadline = Date.now() + 15_000;
      while (brandEndpoint.received.length === before && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const delivery = brandEndpoint.received[before];
      if (!delivery) throw new Error('no logout token arrived');

      const webhook = doc.webhooks.backchannelLogout?.post;
      const media = webhook?.requestBody?.content[delivery.contentType];
      expect(media).toBeDefined();
      const body = Object.fromEntries(new URLSearchParams(delivery.body));
      expect(problems(media?.schema, body)).toEqual([]);

      const token = body.logout_token ?? '';
      expect(
        problems(doc.components.schemas.LogoutTokenHeader, decodeProtectedHeader(token)),
      ).toEqual([]);
      expect(problems(doc.components.schemas.LogoutTokenClaims, decodeJwt(token))).toEqual([]);
      const keys = (await (await fetch(discovery.jwks_uri)).json()) as JSONWebKeySet;
      const { payload } = await jwtVerify(token, createLocalJWKSet(keys), {
        issuer: discovery.issuer,
        audience: discovery.brands.psa.client_id ?? 'none',
        typ: 'logout+jwt',
        algorithms: ['RS256'],
      });
      expect(payload.sid).toBe(handed.get('si'));
      expect(payload.sub).toBe(decodeJwt(handed.get('t') ?? '').uid);
    });
  });
});

describe('docs/openapi.yaml: the rate limit answer', () => {
  const t = useTestApp({ RATE_LIMIT_SIGNIN: '1/60' });

  it('POST /api/handoff/token past the limit: 429 with Retry-After and the §8 JSON, as documented', async () => {
    const doc = await dereferenced();
    const post = () =>
      fetch(`${t.url}${ROUTES.handoffToken}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: 'grant_type=authorization_code&code=x',
      });
    await post();
    const res = await post();
    expect(res.status).toBe(429);
    const documented = doc.paths[ROUTES.handoffToken]?.post?.responses['429'];
    expect(res.headers.get('retry-after')).toMatch(/^[0-9]+$/);
    expect(documented?.headers?.['Retry-After']?.required).toBe(true);
    expect(problems(documented?.content?.['application/json']?.schema, await res.json())).toEqual(
      [],
    );
  });

  it('never limits the discovery document, like the JWKS', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await fetch(`${t.url}${ROUTES.signonDiscovery}`)).status).toBe(200);
      expect((await fetch(`${t.url}${ROUTES.jwks}`)).status).toBe(200);
    }
  });
});
