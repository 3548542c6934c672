import { Inject, Injectable } from '@nestjs/common';
import type { TRPCError } from '@trpc/server';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { secureFor } from '../cookies/cookie-policy';
import { errorSummary } from '../errors/error-summary';
import { AppLogger } from '../logging/app-logger';
import { AuthEvents } from '../logging/auth-events';
import { AccountProfiles } from '../session/account-profiles';
import { SessionEnding } from '../session/session-ending';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { Sessions } from '../session/sessions';
import { accountRouter } from './account.router';
import { cookieRouter } from './cookie.router';
import { logRouter } from './log.router';
import { router } from './trpc';

/**
 * The account API (§7) as a plain @trpc/server router built inside Nest's dependency injection
 * (docs/design.md "Stack notes": nestjs-trpc's generator cannot run here). Each domain builds its own router from the
 * dependencies it needs; this factory hands them over and merges the three. The browser client
 * takes its types from `AppRouter`, the type of `build()`.
 */
/** A procedure path in a log line: the longest real one is a few dozen characters. */
const MAX_LOGGED_PATH = 200;

@Injectable()
export class AppRouterFactory {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: Sessions,
    private readonly profiles: AccountProfiles,
    private readonly events: AuthEvents,
    private readonly logger: AppLogger,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly ending: SessionEnding,
  ) {
    this.logger.setContext('AccountApi');
  }

  /** Logs a failed call without its input (which may hold anything) and without a stack unless it is ours. */
  reportError(
    error: TRPCError,
    path: string | undefined,
    type: string,
    correlationId?: string,
    req?: object,
  ): void {
    if (error.code === 'BAD_GATEWAY' || error.code === 'SERVICE_UNAVAILABLE') {
      // An outage (issue 31 item 3): one line that names the request, what failed and why.
      this.logger.error(
        {
          path,
          type,
          code: error.code,
          ...(correlationId ? { correlationId } : {}),
          cause: errorSummary(error.cause?.cause ?? error.cause),
        },
        `api call failed: ${error.message}`,
      );
    } else if (error.code === 'INTERNAL_SERVER_ERROR') {
      this.logger.error({ path, type, code: error.code, err: error.cause ?? error }, 'api error');
    } else if (this.firstRefusalOf(req)) {
      // One line per request (issue 32 item 4): a batch of refused calls is one refusal to read.
      this.logger.warn(
        { path: path?.slice(0, MAX_LOGGED_PATH), type, code: error.code, message: error.message },
        'api call refused',
      );
    }
  }

  /** Requests whose refusal is already logged (forgotten with the request). */
  private readonly refusedRequests = new WeakSet<object>();

  private firstRefusalOf(req: object | undefined): boolean {
    if (!req) return true;
    if (this.refusedRequests.has(req)) return false;
    this.refusedRequests.add(req);
    return true;
  }

  build() {
    return router({
      account: accountRouter({
        sessions: this.sessions,
        profiles: this.profiles,
        ending: this.ending,
      }),
      log: logRouter({
        events: this.events,
        logger: this.logger,
        store: this.store,
        clientErrors: this.config.rateLimit.clientErrors,
        signinEvents: {
          perAddress: this.config.rateLimit.signinPerAddress,
          perSession: this.config.rateLimit.signinPerSession,
        },
      }),
      cookie: cookieRouter({ secure: secureFor(this.config.http.publicUrl) }),
    });
  }
}

export type AppRouter = ReturnType<AppRouterFactory['build']>;
