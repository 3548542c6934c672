import type { NestExpressApplication } from '@nestjs/platform-express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Configuration, InteractionResults, KoaContextWithOIDC } from 'oidc-provider';
import type { AppConfig } from '../../config/app-config';
import {
  AccountLookup,
  OidcConfigurationDeps,
  oidcClients,
  oidcConfiguration,
} from './oidc-configuration';
import { BRAND_PARAM } from './journey-brand';
import { PENDING_STEP_PARAM } from '../../shared/pending-step';
import { SIGNED_OUT_PARAM } from '../../shared/signed-out-notice';
import { PutOffSteps } from './put-off-steps';
import { ROUTES } from '../../shared/routes';
import { OKTA_ROUTES } from './okta-shape';
import { SigningKeys } from './signing-keys';
import type { SessionStore } from '../../store/session-store';
import { EndedAccountArtefacts, StoreOidcStorage } from './store-oidc-storage';
import { loadOidcProvider } from './load-oidc-provider';
import { firstPartyPolicy } from './first-party-consent';
import { jwtUserinfo } from './jwt-userinfo';

/** Marks an authorization request that arrived with prompt=none (see `keepOfflineAccess`). */
export const SILENT_PARAM = 'x_silent';

export interface EmbeddedIdpPages {
  readonly renderError: OidcConfigurationDeps['renderError'];
  readonly logoutSource: OidcConfigurationDeps['logoutSource'];
  readonly postLogoutSuccessSource: OidcConfigurationDeps['postLogoutSuccessSource'];
}

/**
 * oidc-provider drops `offline_access` unless the request says prompt=consent (OIDC Core 11), while
 * Okta grants it to first-party apps without asking (issue 3). So for our clients a request for
 * offline_access gets `consent` added to its prompt, which is granted without a screen, and without
 * a visit to the interaction unless the collector has steps there (first-party-consent.ts).
 * prompt=none cannot be combined with consent, so it is carried as x_silent: if the collector has no
 * session, the interaction answers login_required exactly as prompt=none would.
 */
export function keepOfflineAccess(
  ctx: KoaContextWithOIDC,
  knownClients: ReadonlySet<string>,
): void {
  if (ctx.method !== 'GET' || ctx.path !== OKTA_ROUTES.authorization) return;
  const query = { ...ctx.query } as Record<string, string | string[] | undefined>;
  const scope = typeof query.scope === 'string' ? query.scope.split(' ') : [];
  const clientId = typeof query.client_id === 'string' ? query.client_id : '';
  if (!scope.includes('offline_access') || !knownClients.has(clientId)) return;
  const prompts = new Set(
    typeof query.prompt === 'string' ? query.prompt.split(' ').filter(Boolean) : [],
  );
  delete query[SILENT_PARAM];
  if (prompts.has('none')) {
    prompts.delete('none');
    query[SILENT_PARAM] = 'true';
  }
  prompts.add('consent');
  query.prompt = [...prompts].join(' ');
  ctx.query = query;
}

type ProviderFetch = NonNullable<Configuration['fetch']>;

/**
 * oidc-provider's outgoing requests (here only its back-channel logout tokens) go through a
 * dispatcher that refuses loopback and private addresses, against server-side request forgery by
 * URLs a client registers. Ours are not registered by anyone but this configuration, and the
 * embedded IdP runs only in local and dev, where this service listens on loopback: without this,
 * the IdP could not tell the service of a logout in a real process (Jest's sandbox happens to hide the
 * dispatcher, so only a real process showed it). So exactly the back-channel URIs of our own clients
 * are fetched without that dispatcher; every other URL keeps it.
 */
export function ownEndpointsFetch(
  own: ReadonlySet<string>,
  base: ProviderFetch = (input, init) => globalThis.fetch(input, init),
): ProviderFetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : new URL(input).href;
    if (!own.has(url) || !init) return base(input, init);
    const direct: RequestInit & { dispatcher?: unknown } = { ...init };
    delete direct.dispatcher;
    return base(input, direct);
  };
}

export type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

/** What ending an account's sessions did: at the IdP, and which relying parties were told. */
export interface AccountSignedOut extends EndedAccountArtefacts {
  /** Clients whose back-channel logout endpoint accepted the logout token. */
  readonly notified: readonly string[];
  /** Clients whose endpoint could not be reached or refused it, with why. */
  readonly failed: readonly { readonly clientId: string; readonly error: string }[];
}

/**
 * One request's view of an oidc-provider interaction. The provider reads its own cookies from the
 * request and, when an interaction finishes, answers the response itself (a redirect back to its
 * authorization endpoint); this handle keeps those raw objects out of the services that drive it.
 */
export interface ProviderInteraction {
  details(): Promise<InteractionDetails>;
  /** Ends the interaction; the provider has answered the request once this resolves. */
  finish(result: InteractionResults, merge?: boolean): Promise<void>;
}

/**
 * The embedded identity provider: oidc-provider with Okta's paths and token shapes. Its artefacts
 * (sessions, interactions, codes, grants, tokens) and keys live in the service's shared-state port, so
 * several instances act as one issuer when that port is Redis (issue 7); its users stay in the IdP's
 * SQLite file (docs/design.md). The rest of the service reaches it only over HTTP, like any other issuer.
 */
export class EmbeddedIdp {
  private building?: Promise<Provider>;
  private settle!: () => void;
  /**
   * Settles once the provider is built, or its build failed (never rejects): what readiness waits for
   * (StartupTasks, in IdpModule). Waiting on it does not start the build.
   */
  readonly built = new Promise<void>((resolve) => (this.settle = resolve));

  private constructor(
    private readonly build: () => Promise<Provider>,
    private readonly storage: StoreOidcStorage,
    /** The clients registered with a back-channel logout endpoint (this service's own). */
    private readonly backchannelClients: readonly string[],
    /** The `aud` of its access tokens (IDP_AUDIENCE), which every grant's resource scopes are for. */
    readonly audience: string,
    /** The issuer's own address (IDP_ISSUER): what every URL the provider builds starts with. */
    private readonly issuer: URL,
  ) {}

  /**
   * oidc-provider, built once (a failed build is tried again): on the first request that needs it,
   * or as soon as the listener is up (`mount`), whichever comes first. For a quick cold start
   * (docs/performance.md): loading oidc-provider and koa costs about 180 ms here
   * (load-oidc-provider.ts loads it without holding requests up), and an empty data folder also
   * generates the signing keys; neither is needed to answer /healthz, and /readyz says 503 until
   * this is done. A failed build (its state store down at start) is forgotten, so the next request
   * or readiness probe builds again: once the store answers, the IdP serves without a restart
   * (docs/operating.md "Redis down at start"). Callers that arrive while a build runs share it.
   */
  provider(): Promise<Provider> {
    if (!this.building) {
      const building = this.build();
      this.building = building;
      building.then(this.settle, (error: unknown) => {
        if (this.building === building) this.building = undefined;
        this.settle();
        return error;
      });
    }
    return this.building;
  }

  /**
   * Signs the account out everywhere, as an issuer does after a password reset (issue 15 item 2;
   * OWASP ASVS 5.0 7.4.3: all other sessions end after a change of an authentication factor, a
   * password reset included; the issue asks it at the IdP and in this service, not as an option):
   *
   * 1. At the IdP: every IdP session of the account and every grant, with the authorization codes,
   *    access and refresh tokens issued under it (`StoreOidcStorage.endAccount`); an old refresh
   *    token then introspects as inactive and refreshes nothing (RFC 9700 §4.14.2 lets an
   *    authorization server revoke refresh tokens on a security event such as a password change).
   * 2. At the relying parties: each client registered with a `backchannel_logout_uri` gets one
   *    OpenID Connect Back-Channel Logout 1.0 logout token with the account's `sub` and no `sid`,
   *    which §2.4 gives the meaning: log out every session of that End-User at the RP. This service
   *    is such a client: its BackchannelController verifies the token and ends the collector's
   *    sessions with `SessionEnding.endAllOf(sub)`, which also revokes their refresh tokens and
   *    tells the brands. (It registered `backchannel_logout_session_required` to get `sid` in its
   *    ID tokens; its receiver accepts a token without one, as §2.4 allows.)
   *
   * Why the back channel and not a direct call to SessionEnding (which the layers would allow: idp/
   * sits above session/): the embedded IdP stands in for Okta, and the service must learn of a
   * sign-out at the IdP the way it would from any OpenID Connect issuer (docs/design.md "Processes": the
   * service talks to the IdP only over OpenID Connect). The seam already exists, is tested, works
   * across instances, and ends the service's sessions whatever IdP session they came from, including
   * sessions whose IdP session has lapsed (a logout token with a `sid` would miss those).
   *
   * The delivery is awaited, so when the reset's page answers, the collector's other browsers are
   * already signed out here. A failed delivery is reported, not thrown: the reset stands, and the
   * service's sessions then end at their next refresh, whose refresh token is already revoked.
   */
  async endEverySessionOf(accountId: string): Promise<AccountSignedOut> {
    const ended = await this.storage.endAccount(accountId);
    const notified: string[] = [];
    const failed: { clientId: string; error: string }[] = [];
    for (const clientId of this.backchannelClients) {
      // oidc-provider's Client has this method when the backchannelLogout feature is on; its types
      // do not declare it.
      const client = (await (await this.provider()).Client.find(clientId)) as
        | {
            backchannelLogoutUri?: string;
            backchannelLogout(sub: string, sid?: string): Promise<void>;
          }
        | undefined;
      if (!client?.backchannelLogoutUri) continue;
      try {
        // No `sid`: the token names the account only (Back-Channel Logout 1.0 §2.4).
        await client.backchannelLogout(accountId, undefined);
        notified.push(clientId);
      } catch (error) {
        failed.push({ clientId, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return { ...ended, notified, failed };
  }

  /** The interaction a sign-in step request belongs to (the controller makes one per request). */
  interaction(req: IncomingMessage, res: ServerResponse): ProviderInteraction {
    return {
      details: async () => (await this.provider()).interactionDetails(req, res),
      finish: async (result, merge = false) =>
        (await this.provider()).interactionFinished(req, res, result, {
          mergeWithLastSubmission: merge,
        }),
    };
  }

  /**
   * `onServerError` hears every error oidc-provider turns into a server_error page or answer (its
   * state store failing, a bug): the provider itself only emits them as events.
   */
  static create(
    config: AppConfig,
    store: SessionStore,
    accounts: AccountLookup,
    pages: EmbeddedIdpPages,
    onServerError: (ctx: KoaContextWithOIDC, error: Error) => void = () => undefined,
  ): EmbeddedIdp {
    const storage = new StoreOidcStorage(store);
    const clients = oidcClients(config);
    const backchannelClients = clients
      .filter((client) => typeof client.backchannel_logout_uri === 'string')
      .map((client) => client.client_id);
    const build = () => buildProvider(config, store, storage, accounts, pages, onServerError);
    return new EmbeddedIdp(
      build,
      storage,
      backchannelClients,
      config.idp.audience,
      new URL(config.idp.issuer),
    );
  }

  /**
   * Mounted before Nest's body parsers: the provider parses its own bodies. Its build starts when the
   * server listens; a request that comes first waits for it.
   */
  mount(app: NestExpressApplication): void {
    app.getHttpServer().once('listening', () => {
      // A failed build is reported by readiness (`built`) and by the requests that need it.
      this.provider().catch(() => undefined);
    });
    let handle: ReturnType<Provider['callback']> | undefined;
    app.use(
      ROUTES.idp,
      (req: IncomingMessage, res: ServerResponse, next: (e?: unknown) => void) => {
        pinToIssuer(req, this.issuer);
        if (handle) return void handle(req, res);
        this.provider().then((provider) => {
          handle ??= provider.callback();
          void handle(req, res);
        }, next);
      },
    );
  }
}

/**
 * Issue 32 item 6: oidc-provider builds its discovery document and every endpoint from the request's
 * Host (and, behind a proxy, X-Forwarded-Host and -Proto), so `Host: evil.com` made it publish
 * `http://evil.com/…` endpoints, which a shared cache could then serve to everyone. The request is
 * pinned to the configured issuer's host and scheme before the provider sees it.
 */
export function pinToIssuer(req: IncomingMessage, issuer: URL): void {
  req.headers.host = issuer.host;
  delete req.headers['x-forwarded-host'];
  req.headers['x-forwarded-proto'] = issuer.protocol.replace(/:$/, '');
}

/** oidc-provider with Okta's paths and token shapes, on the service's state store and keys. */
async function buildProvider(
  config: AppConfig,
  store: SessionStore,
  storage: StoreOidcStorage,
  accounts: AccountLookup,
  pages: EmbeddedIdpPages,
  onServerError: (ctx: KoaContextWithOIDC, error: Error) => void,
): Promise<Provider> {
  const { default: Provider, interactionPolicy } = await loadOidcProvider();
  const keys = new SigningKeys(store);
  const jwks = await keys.load();
  const clients = oidcClients(config);
  const configuration = oidcConfiguration({
    config,
    accounts,
    putOff: new PutOffSteps(store),
    adapter: (name: string) => storage.adapterFor(name),
    jwks,
    cookieKeys: [await keys.secret('cookie-key-1')],
    ...pages,
  });
  // oidc-provider keeps in the interaction's params only the parameters it knows, and these:
  // the silent marker, the brand whose pages the steps show (journey-brand.ts) and the pending
  // step this service asks a known collector to be shown (src/shared/pending-step.ts), and the
  // signed-out marker (src/shared/signed-out-notice.ts).
  configuration.extraParams = [SILENT_PARAM, BRAND_PARAM, PENDING_STEP_PARAM, SIGNED_OUT_PARAM];
  configuration.interactions = {
    ...configuration.interactions,
    policy: firstPartyPolicy(interactionPolicy),
  };
  const backchannelUris = clients.flatMap((client) =>
    typeof client.backchannel_logout_uri === 'string'
      ? [new URL(client.backchannel_logout_uri).href]
      : [],
  );
  configuration.fetch = ownEndpointsFetch(new Set(backchannelUris));
  const provider = new Provider(config.idp.issuer, configuration);
  provider.proxy = config.http.trustProxy > 0;
  const knownClients = new Set([
    config.idp.clientId,
    ...Object.values(config.brandClients).map((c) => c.clientId),
  ]);
  provider.use(async (ctx, next) => {
    keepOfflineAccess(ctx as KoaContextWithOIDC, knownClients);
    await next();
  });
  // Userinfo for its own JWT access tokens, as Okta answers it (jwt-userinfo.ts, issue 31 item 1).
  provider.use(
    jwtUserinfo({
      issuer: config.idp.issuer,
      audience: config.idp.audience,
      keys: jwks.keys,
      accounts,
    }),
  );
  provider.on('server_error', onServerError);
  return provider;
}
