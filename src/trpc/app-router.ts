import { Inject, Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { randomUUID } from 'node:crypto';
import { AppLogger } from '../logging/app-logger';
import { z } from 'zod';
import { AccountProfiles } from '../session/account-profiles';
import { SessionEnding } from '../session/session-ending';
import { listSessions } from '../session/session-list';
import { BRANDS } from '../shared/brand';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import {
  CLIENT_SETTABLE_COOKIES,
  cookieOptionsFor,
  isAllowedCookieValue,
  secureFor,
} from '../cookies/cookie-policy';
import { validateCookieWrite } from '../cookies/cookie-validation';
import { AuthEvents } from '../logging/auth-events';
import { SESSION_STORE, SessionStore } from '../session/session-store';
import { Sessions } from '../session/sessions';
import { accountStatus } from '../session/account-status';
import { mutationProcedure, publicProcedure, router } from './trpc';

/** log.clientError: what one report may carry (issue 5: size-capped). */
const MAX_MESSAGE = 2000;
const MAX_PATH = 2048;
/** Control characters are shown, not interpreted, in logs (ASVS 5.0 16.4.1). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point here
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const neutralise = (s: string) =>
  s.replace(CONTROL_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The account API (§7) as a plain @trpc/server router built inside Nest's dependency injection
 * (STACK.md: nestjs-trpc's generator cannot run here). The browser client takes its types from
 * `AppRouter`, the type of `build()`.
 */
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
  reportError(error: TRPCError, path: string | undefined, type: string): void {
    if (error.code === 'INTERNAL_SERVER_ERROR') {
      this.logger.error({ path, type, code: error.code, err: error.cause ?? error }, 'api error');
    } else {
      this.logger.warn(
        { path, type, code: error.code, message: error.message },
        'api call refused',
      );
    }
  }

  build() {
    const secure = secureFor(this.config.http.publicUrl);
    return router({
      account: router({
        /** §3 Auth user state, refreshing tokens as §4 requires. */
        status: publicProcedure
          // It takes no input: anything sent is refused rather than silently ignored.
          .input(z.undefined({ error: 'account.status takes no input' }))
          .query(async ({ ctx }) => accountStatus(await ctx.session())),

        updateAccountInfoPartial: mutationProcedure
          .input(z.strictObject({ acceptedTermsAndConditions: z.boolean() }))
          .mutation(async ({ ctx, input }) => {
            const record = await ctx.session();
            if (!record) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'not signed in' });
            const profile = await this.profiles.update(record.sub, input);
            return { acceptedTermsAndConditions: profile.acceptedTermsAndConditions ?? false };
          }),

        /** Ends a session; a caller may end only its own (the one its cookie names). */
        signout: mutationProcedure
          .input(
            z.strictObject({
              // Session ids are base64url (sessions.ts); nothing else can name a session.
              cidSessionIdentifier: z
                .string()
                .min(1)
                .max(200)
                .regex(/^[A-Za-z0-9_-]+$/, 'must be a session id (letters, digits, - and _)'),
            }),
          )
          .mutation(async ({ ctx, input }) => {
            const own = await this.sessions.get(ctx.sessionId);
            if (!own) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'not signed in' });
            if (input.cidSessionIdentifier !== ctx.sessionId) {
              throw new TRPCError({
                code: 'FORBIDDEN',
                message: 'cidSessionIdentifier must name your own session',
              });
            }
            await this.ending.endById(ctx.sessionId, 'api');
            return { signedOut: true };
          }),

        /** Issue 7: the caller's active sessions (brand, device, last use), this one marked. */
        sessions: publicProcedure
          .input(z.undefined({ error: 'account.sessions takes no input' }))
          .query(async ({ ctx }) => {
            const own = await ctx.session();
            if (!own || !ctx.sessionId)
              throw new TRPCError({ code: 'UNAUTHORIZED', message: 'not signed in' });
            return listSessions(
              await this.sessions.listForSubject(own.sub),
              this.sessions.handle(ctx.sessionId),
            );
          }),

        /** Issue 7: 'sign out this session', for any session of the caller's own. */
        endSession: mutationProcedure
          .input(
            z.strictObject({
              handle: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a session handle'),
            }),
          )
          .mutation(async ({ ctx, input }) => {
            const own = await ctx.session();
            if (!own) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'not signed in' });
            const mine = await this.sessions.listForSubject(own.sub);
            if (!mine.some((s) => s.handle === input.handle)) {
              throw new TRPCError({
                code: 'NOT_FOUND',
                message: 'handle: no such session of yours',
              });
            }
            await this.ending.endByHandle(input.handle, 'session-page');
            return { ended: 1 };
          }),

        /** Issue 7: 'sign out everywhere' but here (this session ends through the usual sign-out). */
        endOtherSessions: mutationProcedure
          .input(z.undefined({ error: 'account.endOtherSessions takes no input' }))
          .mutation(async ({ ctx }) => {
            const own = await ctx.session();
            if (!own || !ctx.sessionId)
              throw new TRPCError({ code: 'UNAUTHORIZED', message: 'not signed in' });
            const ended = await this.ending.endAllOf(
              own.sub,
              'everywhere',
              this.sessions.handle(ctx.sessionId),
            );
            return { ended };
          }),
      }),

      log: router({
        signinEvent: mutationProcedure
          .input(z.strictObject({ b: z.enum(BRANDS) }))
          .mutation(async ({ ctx, input }) => {
            const record = await this.sessions.get(ctx.sessionId);
            this.events.signin(
              input.b,
              record
                ? {
                    sub: record.sub,
                    ...(record.collectorsId ? { collectorsId: record.collectorsId } : {}),
                  }
                : {},
              'session',
            );
            return { recorded: true };
          }),

        /** §7/§8: the browser reports a render error; the answer's correlationId goes on the error page. */
        clientError: mutationProcedure
          .use(async ({ ctx, next }) => {
            // Anyone can send reports: counted per address in the session store, like sign-ins.
            const { limit, windowSeconds } = this.config.rateLimit.signinPerAddress;
            const hits = await this.store.increment(
              `ratelimit:client-error:${ctx.req.ip ?? 'unknown'}`,
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
            this.logger.warn(
              {
                correlationId,
                clientMessage: neutralise(input.message),
                path: neutralise(input.path.split('?')[0] ?? ''),
              },
              'client error',
            );
            return { correlationId };
          }),
      }),

      cookie: router({
        /** §7: only non-credential cookies from an allowlist; every field validated (§5). */
        setCookie: mutationProcedure
          .input(
            z.strictObject({
              cookieName: z.enum(CLIENT_SETTABLE_COOKIES),
              value: z.string().max(4096),
              path: z.string().max(1024).optional(),
              sameSite: z.enum(['lax', 'strict', 'none']).optional(),
              maxAge: z.number().int().min(0).max(3_155_695_200).optional(),
              secure: z.boolean().optional(),
              httpOnly: z.boolean().optional(),
            }),
          )
          .mutation(({ ctx, input }) => {
            // §9: Secure except on localhost. On an https site the page may not take it away.
            if (secure && input.secure === false) {
              throw new TRPCError({
                code: 'BAD_REQUEST',
                message: 'secure: cookies of this https site must be Secure',
              });
            }
            const policy = cookieOptionsFor(input.cookieName, { secure });
            const result = validateCookieWrite({
              name: input.cookieName,
              value: input.value,
              path: input.path ?? policy.path,
              sameSite: input.sameSite ?? policy.sameSite,
              secure: input.secure ?? policy.secure,
              httpOnly: input.httpOnly ?? policy.httpOnly,
              ...(input.maxAge !== undefined
                ? { maxAge: input.maxAge }
                : policy.maxAge !== undefined
                  ? { maxAge: policy.maxAge }
                  : {}),
            });
            if (result.ok && !isAllowedCookieValue(input.cookieName, input.value)) {
              throw new TRPCError({
                code: 'BAD_REQUEST',
                message: `value: is not an allowed value for ${input.cookieName}`,
              });
            }
            if (!result.ok) {
              throw new TRPCError({
                code: 'BAD_REQUEST',
                message: result.errors.map((e) => `${e.field}: ${e.message}`).join('; '),
              });
            }
            ctx.res.append('Set-Cookie', result.header);
            return { set: true };
          }),
      }),
    });
  }
}

export type AppRouter = ReturnType<AppRouterFactory['build']>;
