import { TRPCError } from '@trpc/server';
import { createHash, randomUUID } from 'node:crypto';
import { scrubClientPath, scrubClientText } from '../logging/scrub-client-text';
import { z } from 'zod';
import type { RateLimit } from '../config/app-config';
import type { AppLogger } from '../logging/app-logger';
import type { AuthEvents } from '../logging/auth-events';
import type { SessionStore } from '../store/session-store';
import { rateLimitAddress } from '../rate-limit/client-address';
import { BRANDS } from '../shared/brand';
import { mutationProcedure, router } from './trpc';

/** log.clientError: what one report may carry (issue 5: size-capped). */
const MAX_MESSAGE = 2000;
const MAX_PATH = 2048;
/** Control characters are shown, not interpreted, in logs (ASVS 5.0 16.4.1). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point here
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const neutralise = (s: string) =>
  s.replace(CONTROL_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A session's counter key: a hash of its id, never the id (the store's keys may be listed). */
function sessionKey(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url').slice(0, 22);
}

/** What the log procedures need: where events go, the report limit (the session is ctx's). */
export interface LogRouterDeps {
  readonly events: Pick<AuthEvents, 'signin'>;
  readonly logger: Pick<AppLogger, 'warn'>;
  /** Counts error reports per address (shared across instances on Redis). */
  readonly store: Pick<SessionStore, 'increment'>;
  /** RATE_LIMIT_CLIENT_ERRORS: error reports per client address and window. */
  readonly clientErrors: RateLimit;
  /** RATE_LIMIT_SIGNIN and RATE_LIMIT_SIGNIN_SESSION: sign-in events per address, per session. */
  readonly signinEvents: { readonly perAddress: RateLimit; readonly perSession: RateLimit };
}

/** §7 log.*: what the browser tells the server. Neither needs a session. */
export function logRouter(deps: LogRouterDeps) {
  return router({
    /**
     * §7 Sign-in event. §8's exception stands: never UNAUTHORIZED. Issue 32 item 4: a batch of a
     * thousand calls wrote a thousand forged sign-ins and moved signins_total by as much, so an event
     * now counts only for the browser's own live session (its binding; never a replayed si), and
     * calls are limited per address and per session like the sign-in route itself. A call without a
     * session is answered `recorded: false` and records nothing.
     */
    signinEvent: mutationProcedure
      .use(async ({ ctx, next }) => {
        const { perAddress } = deps.signinEvents;
        const hits = await deps.store.increment(
          `ratelimit:signin-event:${rateLimitAddress(ctx.req.ip)}`,
          perAddress.windowSeconds,
        );
        if (hits > perAddress.limit)
          throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: 'too many sign-in events' });
        return next();
      })
      .input(z.strictObject({ b: z.enum(BRANDS) }))
      .mutation(async ({ ctx, input }) => {
        const record = await ctx.storedSession();
        if (!record || !ctx.sessionId) return { recorded: false };
        const { perSession } = deps.signinEvents;
        const hits = await deps.store.increment(
          `ratelimit:signin-event:session:${sessionKey(ctx.sessionId)}`,
          perSession.windowSeconds,
        );
        if (hits > perSession.limit)
          throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: 'too many sign-in events' });
        deps.events.signin(
          input.b,
          {
            sub: record.sub,
            ...(record.collectorsId ? { collectorsId: record.collectorsId } : {}),
          },
          'session',
        );
        return { recorded: true };
      }),

    /** §7/§8: the browser reports a render error; the answer's correlationId goes on the error page. */
    clientError: mutationProcedure
      .use(async ({ ctx, next }) => {
        // Anyone can send reports: counted per address in the session store, before the input is
        // even read, so a flood of bad reports is limited too.
        const { limit, windowSeconds } = deps.clientErrors;
        const hits = await deps.store.increment(
          `ratelimit:client-error:${rateLimitAddress(ctx.req.ip)}`,
          windowSeconds,
        );
        if (hits > limit)
          throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: 'too many error reports' });
        return next();
      })
      .input(
        z.strictObject({
          message: z.string().min(1).max(MAX_MESSAGE),
          path: z.string().min(1).max(MAX_PATH),
        }),
      )
      .mutation(({ input }) => {
        const correlationId = randomUUID();
        // ASVS 5.0 16.2.5: the report is the page's text, so secrets are taken out before the log
        // sees it (issue 15 item 7); how many went is logged, never what they were.
        const message = scrubClientText(input.message);
        const path = scrubClientPath(input.path);
        deps.logger.warn(
          {
            correlationId,
            clientMessage: neutralise(message.text),
            path: neutralise(path.text),
            ...(message.removed + path.removed > 0
              ? { redactions: message.removed + path.removed }
              : {}),
          },
          'client error',
        );
        return { correlationId };
      }),
  });
}
