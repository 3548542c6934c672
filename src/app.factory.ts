import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { strictHttpAdapter } from './http/strict-http-adapter';
import type { Logger } from 'pino';
import { AppModule, AppModuleOptions } from './app.module';
import { requestBodies } from './http/request-bodies';
import { localePathPrefix } from './locale/locale-path.middleware';
import type { AppConfig } from './config/app-config';
import { isDeveloperEnv } from './shared/environment';
import {
  CLIENT_DIST_DIR,
  CLIENT_PUBLIC_BUILD_DIR,
  LOCALES_BUILD_DIR,
} from './config/project-paths';
import { dynamicCompression, staticFiles } from './http/compression';
import { inOnePass, stepOf } from './http/one-pass';
import { securityHeaders } from './http/security-headers';
import { EmbeddedIdp } from './idp/provider/embedded-idp';
import { NestLogger, ROOT_LOGGER } from './logging/app-logger';
import { requestLogging } from './logging/request-logging';
import { AppMetrics, httpMetricsMiddleware } from './metrics';
import { ROUTES } from './shared/routes';
import { LegacyCookieMiddleware } from './token/legacy-cookie.middleware';
import { TokenParamMiddleware } from './token/token-param.middleware';
import { TrpcMiddleware } from './api/trpc.middleware';

/**
 * Brand logos and favicons (§2, §9), as the build copied them beside their compressed copies. Not
 * content-hashed, so cached for a day rather than forever.
 */
const STATIC_ASSETS = { dir: CLIENT_PUBLIC_BUILD_DIR, prefix: ROUTES.static, maxAge: '1d' };
/** The browser bundle: every name carries its content hash, so it may be cached for a year. */
const BUNDLE_ASSETS = { dir: CLIENT_DIST_DIR, prefix: ROUTES.assets, maxAge: '365d' };
/** §9: translation namespaces the client loads lazily; not hashed, so revalidated hourly. */
const LOCALE_ASSETS = { dir: LOCALES_BUILD_DIR, prefix: ROUTES.locales, maxAge: '1h' };

/**
 * Builds the configured application; main.ts listens on it and integration tests drive it over HTTP,
 * so both run exactly the same stack.
 */
export async function createApp(
  config: AppConfig,
  options: AppModuleOptions = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, options),
    strictHttpAdapter(),
    NEST_APP_OPTIONS,
  );
  configureApp(app, config);
  return app;
}

/**
 * Configuration the service runs with although it is wrong (e.g. malformed ENABLED_FEATURES, read as
 * empty, §5): parsed before the logger existed, so reported here, one warning line per variable.
 */
function logConfigWarnings(logger: Logger, config: AppConfig): void {
  for (const { key, message } of config.warnings) {
    logger.warn({ context: 'Configuration', key }, `${key}: ${message}`);
  }
}

/** Body parsers are set up in configureApp, not by Nest's defaults. */
export const NEST_APP_OPTIONS = { bufferLogs: true, bodyParser: false } as const;

/** Request bodies: sign-in forms and JSON, small. */
const BODY_LIMIT = '100kb';

/** Process-wide HTTP settings: logger, proxy trust, security headers. */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.useLogger(app.get(NestLogger));
  logConfigWarnings(app.get(ROOT_LOGGER), config);
  app.set('trust proxy', config.http.trustProxy);
  app.disable('x-powered-by');
  // Dynamic answers are personalised and no-store: an ETag (a hash of every body) would only cost time.
  // Static files keep theirs (serve-static sets its own).
  app.set('etag', false);
  // What every request pays, as one Express layer (src/http/one-pass.ts). First, so that every answer
  // has a request id and trace context, is logged, counted and timed and carries the security headers,
  // the embedded IdP's and static files' included.
  app.use(
    inOnePass(
      requestLogging(app.get(ROOT_LOGGER)),
      httpMetricsMiddleware(app.get(AppMetrics)),
      securityHeaders({
        // The CSP with per-request nonces for pages is set by the renderer; helmet's strict default covers the rest.
        hsts: isDeveloperEnv(config.env) ? false : { maxAge: 31_536_000, includeSubDomains: true },
        referrerPolicy: { policy: 'no-referrer' },
      }),
      // The embedded IdP (below), the account API (its inputs are hex strings, §7) and the handoff
      // exchange (its refusals are OAuth errors, RFC 6749 §5.2) read their own raw bodies, so the
      // parsers leave them alone.
      requestBodies({
        limit: BODY_LIMIT,
        rawPrefixes: [ROUTES.api, ROUTES.idp, ROUTES.handoffToken],
      }),
      // §2 locale path rule: /fr-CA/collection reaches the /collection route in fr-CA.
      localePathPrefix(),
    ),
  );
  // The embedded IdP answers everything under /oauth2/default and reads its own bodies (docs/design.md "Stack notes").
  if (config.idp.mode === 'embedded') app.get(EmbeddedIdp).mount(app);
  // Issue 18 item 1: each static file as its best precompressed copy (src/http/compression.ts).
  app.use(
    BUNDLE_ASSETS.prefix,
    staticFiles(BUNDLE_ASSETS.dir, { maxAge: BUNDLE_ASSETS.maxAge, immutable: true }),
  );
  app.use(LOCALE_ASSETS.prefix, staticFiles(LOCALE_ASSETS.dir, { maxAge: LOCALE_ASSETS.maxAge }));
  app.use(STATIC_ASSETS.prefix, staticFiles(STATIC_ASSETS.dir, { maxAge: STATIC_ASSETS.maxAge }));
  // Pages and API answers: compressed per response unless a proxy in front does it (COMPRESSION=off).
  if (config.http.compression) app.use(dynamicCompression());
  // §4 token rules before any controller: old token cookies cleared, a page URL's `t` taken as a
  // sign-in (src/token/token.module.ts).
  const legacyCookies = app.get(LegacyCookieMiddleware);
  const tokenParam = app.get(TokenParamMiddleware);
  app.use(inOnePass(stepOf(legacyCookies), stepOf(tokenParam)));
  // §7 the account API, as a plain Express layer after the token rules and before the controllers.
  // Not through Nest's MiddlewareConsumer: its wrapper and route layer cost about 5 µs a call, 1.3 %
  // of an API batch on Node 24 (issue 35 item 5; docs/performance.md).
  app.use(ROUTES.api, stepOf(app.get(TrpcMiddleware)));
}
