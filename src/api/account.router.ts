import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { AccountProfiles } from '../session/account-profiles';
import { accountStatus } from '../session/account-status';
import type { SessionEnding } from '../session/session-ending';
import { listSessions } from '../session/session-list';
import type { Sessions } from '../session/sessions';
import {
  mutationProcedure,
  protectedMutationProcedure,
  protectedProcedure,
  queryWithoutInput,
  requireSession,
  router,
} from './trpc';

/** What the account procedures need: the sessions, the profiles they update, and how sessions end. */
export interface AccountRouterDeps {
  readonly sessions: Pick<Sessions, 'get' | 'handleOf' | 'listForSubject'>;
  readonly profiles: Pick<AccountProfiles, 'update'>;
  readonly ending: Pick<SessionEnding, 'endById' | 'endByHandle' | 'endAllOf'>;
}

/** §7 account.*, and issue 7's session management (sessions, endSession, endOtherSessions). */
export function accountRouter(deps: AccountRouterDeps) {
  // account.signout asks the store, not the live read: a session whose tokens can no longer be
  // refreshed must still be one its owner can end.
  const requireStoredSession = requireSession((ctx) => ctx.storedSession());

  return router({
    /** §3 Auth user state, refreshing tokens as §4 requires; public, since it answers "signed out". */
    // It takes no input: anything sent is refused rather than silently ignored.
    status: queryWithoutInput('account.status takes no input', async (ctx) =>
      accountStatus(await ctx.session()),
    ),

    updateAccountInfoPartial: protectedMutationProcedure
      .input(z.strictObject({ acceptedTermsAndConditions: z.boolean() }))
      .mutation(async ({ ctx, input }) => {
        const profile = await deps.profiles.update(ctx.session.sub, input);
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
      .use(requireStoredSession)
      .mutation(async ({ ctx, input }) => {
        if (input.cidSessionIdentifier !== ctx.sessionId) {
          throw new TRPCError({
            code: 'FORBIDDEN',
            message: 'cidSessionIdentifier must name your own session',
          });
        }
        await deps.ending.endById(ctx.sessionId, 'api');
        return { signedOut: true };
      }),

    /** Issue 7: the caller's active sessions (brand, device, last use), this one marked. */
    sessions: protectedProcedure
      .input(z.undefined({ error: 'account.sessions takes no input' }))
      .query(async ({ ctx }) =>
        listSessions(
          await deps.sessions.listForSubject(ctx.session.sub),
          await deps.sessions.handleOf(ctx.sessionId),
        ),
      ),

    /** Issue 7: 'sign out this session', for any session of the caller's own. */
    endSession: protectedMutationProcedure
      .input(
        z.strictObject({
          handle: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a session handle'),
        }),
      )
      .mutation(async ({ ctx, input }) => {
        const mine = await deps.sessions.listForSubject(ctx.session.sub);
        if (!mine.some((s) => s.handle === input.handle)) {
          throw new TRPCError({ code: 'NOT_FOUND', message: 'handle: no such session of yours' });
        }
        await deps.ending.endByHandle(input.handle, 'session-page');
        return { ended: 1 };
      }),

    /** Issue 7: 'sign out everywhere' but here (this session ends through the usual sign-out). */
    endOtherSessions: protectedMutationProcedure
      .input(z.undefined({ error: 'account.endOtherSessions takes no input' }))
      .mutation(async ({ ctx }) => {
        const ended = await deps.ending.endAllOf(
          ctx.session.sub,
          'everywhere',
          await deps.sessions.handleOf(ctx.sessionId),
        );
        return { ended };
      }),
  });
}
