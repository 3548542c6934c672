import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { LiveSessions } from '../session/live-sessions';
import type { SessionRecord } from '../session/sessions';
import { serviceCookies, sessionIdCandidates } from '../cookies/response-cookies';
import { AppRouterFactory } from './app-router-factory';
import { trpcNodeHandler } from './trpc-node-handler';
import { MAX_HEX_INPUT } from './hex-json-transformer';
import { type TrpcContext, correlationIdOf, outageError } from './trpc';
import { SSR_HEADER } from '../shared/api-wire';
import { AppError } from '../errors/app-error';
import { servicePath } from '../shared/routes';

/** §8: where an UNAUTHORIZED sends the browser. */
export const UNAUTHORIZED_LOCATION = servicePath('unauthorized', { error: 'Unauthorized' });

/** Request bodies above this size answer 413 PAYLOAD_TOO_LARGE before they are read to the end. */
export const MAX_BODY_BYTES = 4 * MAX_HEX_INPUT;

/**
 * The context of one request (§7: the session cookie, x-ssr). Exported so tests can call the router
 * through createCaller with the very context HTTP calls get.
 */
export async function createTrpcContext(
  req: Request,
  res: Response,
  deps: {
    readonly liveSessions: Pick<LiveSessions, 'read' | 'bound' | 'sessionIdOf'>;
    readonly publicOrigin: string;
  },
): Promise<TrpcContext> {
  const deployment = { secure: deps.publicOrigin.startsWith('https:') };
  const jar = serviceCookies(req.headers.cookie, deployment);
  // docs/security.md, a shadowed session cookie: the browser's own session id, not the first a
  // sibling subdomain planted.
  const sessionId = await deps.liveSessions
    .sessionIdOf(sessionIdCandidates(req.headers.cookie, deployment), jar.sessionBinding)
    .catch(rethrowOutage);
  let session: Promise<SessionRecord | undefined> | undefined;
  return {
    req,
    res,
    ssr: req.headers[SSR_HEADER] === '1' || req.headers[SSR_HEADER] === 'true',
    sessionId,
    // An outage met on the way (a refresh at an IdP that is down) is the procedure's 502 or 503.
    session: () =>
      (session ??= deps.liveSessions.read(sessionId, jar.sessionBinding).catch(rethrowOutage)),
    storedSession: () =>
      deps.liveSessions.bound(sessionId, jar.sessionBinding).catch(rethrowOutage),
    publicOrigin: deps.publicOrigin,
  };
}

function rethrowOutage(error: unknown): never {
  throw outageError(error) ?? error;
}

/**
 * The router on @trpc/server's Node adapter (batching on; GET for queries with the input in the
 * query string, POST for mutations; trpc-node-handler.ts writes the answers). configureApp mounts it
 * at ROUTES.api after the layers every request passes (request id, access line, security headers,
 * the token rules), so calls get them like every other route.
 * Errors (§8): in server-side calls (x-ssr) an UNAUTHORIZED becomes a 302 to
 * /unauthredirect?error=Unauthorized; otherwise the answer takes the first error's HTTP status.
 * Responses are never cached.
 */
@Injectable()
export class TrpcMiddleware implements NestMiddleware {
  private readonly handler: ReturnType<typeof trpcNodeHandler>;

  constructor(
    factory: AppRouterFactory,
    liveSessions: LiveSessions,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const publicOrigin = new URL(config.http.publicUrl).origin;
    this.handler = trpcNodeHandler({
      router: factory.build(),
      // A batch of a few inputs at their cap; without a limit the adapter would buffer any body.
      maxBodySize: MAX_BODY_BYTES,
      // Issue 32 item 4: one request of 940 calls wrote 941 log lines (15 MB); a batch over the cap
      // is refused whole, as one BAD_REQUEST, before any call runs.
      maxBatchSize: config.http.apiMaxBatch,
      createContext: ({ req, res }) => createTrpcContext(req, res, { liveSessions, publicOrigin }),
      responseMeta: ({ ctx, errors }) => {
        const headers = new Headers({ 'cache-control': 'no-store' });
        if (errors.length === 0) return { headers };
        if (ctx?.ssr && errors.some((e) => e.code === 'UNAUTHORIZED')) {
          headers.set('location', UNAUTHORIZED_LOCATION);
          return { status: 302, headers };
        }
        const first = errors[0];
        // The IdP's rate limit says when to try again (RFC 9110 §10.2.3, docs/okta.md).
        const retryAfter =
          first?.cause instanceof AppError ? first.cause.retryAfterSeconds() : undefined;
        if (retryAfter !== undefined) headers.set('retry-after', String(retryAfter));
        return { status: first ? getHTTPStatusCodeFromError(first) : 500, headers };
      },
      onError: ({ error, path, type, req }) =>
        factory.reportError(error, path, type, correlationIdOf(req), req),
    });
  }

  use(req: Request, res: Response, next: NextFunction): void {
    // Mounted at ROUTES.api, so Express has already taken the mount point off `req.url` (leaving
    // `/` for the mount point alone, with or without its slash or a query). The procedures are the
    // one segment below it (several, comma-separated, in a batch): no segment, or more than one,
    // names no procedure, and goes on (its URL untouched) to the 404 every unknown path gets.
    const query = req.url.indexOf('?');
    const procedures = query === -1 ? req.url : req.url.slice(0, query);
    if (procedures.length < 2 || procedures.lastIndexOf('/') !== 0) return next();
    void this.handler(req, res, procedures.slice(1));
  }
}
