import type { NestExpressApplication } from '@nestjs/platform-express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { type InteractionResults, type KoaContextWithOIDC } from 'oidc-provider';
import type { AppConfig } from '../../config/app-config';
import { AccountLookup, OidcConfigurationDeps, oidcConfiguration } from './oidc-configuration';
import { BRAND_PARAM } from './journey-brand';
import { PENDING_STEP_PARAM } from '../../shared/pending-step';
import { PutOffSteps } from './put-off-steps';
import { ROUTES } from '../../shared/routes';
import { OKTA_ROUTES } from './okta-shape';
import { SigningKeys } from './signing-keys';
import type { SessionStore } from '../../session/session-store';
import { StoreOidcStorage } from './oidc-store-adapter';

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
 * offline_access gets `consent` added to its prompt; the interaction then grants without a screen.
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

export type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

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
 * SQLite file (DESIGN.md). The rest of the service reaches it only over HTTP, like any other issuer.
 */
export class EmbeddedIdp {
  private constructor(readonly provider: Provider) {}

  /** The interaction a sign-in step request belongs to (the controller makes one per request). */
  interaction(req: IncomingMessage, res: ServerResponse): ProviderInteraction {
    return {
      details: () => this.provider.interactionDetails(req, res),
      finish: (result, merge = false) =>
        this.provider.interactionFinished(req, res, result, { mergeWithLastSubmission: merge }),
    };
  }

  /**
   * `onServerError` hears every error oidc-provider turns into a server_error page or answer (its
   * state store failing, a bug): the provider itself only emits them as events.
   */
  static async create(
    config: AppConfig,
    store: SessionStore,
    accounts: AccountLookup,
    pages: EmbeddedIdpPages,
    onServerError: (ctx: KoaContextWithOIDC, error: Error) => void = () => undefined,
  ): Promise<EmbeddedIdp> {
    const storage = new StoreOidcStorage(store);
    const keys = new SigningKeys(store);
    const jwks = await keys.load();
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
    // step this service asks a known collector to be shown (src/shared/pending-step.ts).
    configuration.extraParams = [SILENT_PARAM, BRAND_PARAM, PENDING_STEP_PARAM];
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
    provider.on('server_error', onServerError);
    return new EmbeddedIdp(provider);
  }

  /** Mounted before Nest's body parsers: the provider parses its own bodies. */
  mount(app: NestExpressApplication): void {
    app.use(ROUTES.idp, this.provider.callback());
  }
}
