import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { clientCookieWrite } from '../cookies/client-cookie-write';
import { CLIENT_SETTABLE_COOKIES } from '../cookies/cookie-policy';
import {
  MAX_COOKIE_BYTES,
  MAX_COOKIE_MAX_AGE,
  MAX_COOKIE_PATH_LENGTH,
} from '../cookies/cookie-validation';
import { mutationProcedure, router } from './trpc';

/** What the cookie procedure needs: whether this deployment writes Secure cookies (§9). */
export interface CookieRouterDeps {
  readonly secure: boolean;
}

/** §7 cookie.*: the page's own, non-credential cookies. Needs no session. */
export function cookieRouter(deps: CookieRouterDeps) {
  return router({
    /** The rules are clientCookieWrite's (§5); here only the payload's shape and the HTTP answer. */
    setCookie: mutationProcedure
      .input(
        z.strictObject({
          cookieName: z.enum(CLIENT_SETTABLE_COOKIES),
          value: z.string().max(MAX_COOKIE_BYTES),
          path: z.string().max(MAX_COOKIE_PATH_LENGTH).optional(),
          sameSite: z.enum(['lax', 'strict', 'none']).optional(),
          maxAge: z.number().int().min(0).max(MAX_COOKIE_MAX_AGE).optional(),
          secure: z.boolean().optional(),
          httpOnly: z.boolean().optional(),
        }),
      )
      .mutation(({ ctx, input }) => {
        const outcome = clientCookieWrite(input, { secure: deps.secure });
        if (!outcome.ok) throw new TRPCError({ code: 'BAD_REQUEST', message: outcome.message });
        ctx.res.append('Set-Cookie', outcome.header);
        return { set: true };
      }),
  });
}
