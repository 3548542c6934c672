import { TRPCError, initTRPC } from '@trpc/server';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { SessionRecord } from '../session/sessions';
import { serverHexJsonTransformer } from './hex-json-transformer';
import { inputErrorMessage } from './input-errors';
import { CSRF_HEADER } from '../shared/api-wire';
import { AppError } from '../errors/app-error';

/**
 * Request-scoped facts every procedure may use (§7: x-ssr, the session cookie). The locale header §7
 * has the client send is not among them: no answer depends on it (a refusal names the problem for the
 * developer; the pages show their own translated text), so it is not worked out for every call.
 */
export interface TrpcContext {
  readonly req: Request;
  readonly res: Response;
  /** Server-side renders mark their calls with x-ssr (§7); an UNAUTHORIZED then becomes a 302 (§8). */
  readonly ssr: boolean;
  readonly sessionId: string | undefined;
  /** The live session of this request (refreshed if needed), looked up once however many calls a batch holds. */
  readonly session: () => Promise<SessionRecord | undefined>;
  /**
   * The stored session the cookie names, if this browser holds its binding (issue 14 item 4); no
   * refresh. For ending a session whose tokens can no longer be refreshed.
   */
  readonly storedSession: () => Promise<SessionRecord | undefined>;
  /** This service's origin, for the same-origin check of mutations. */
  readonly publicOrigin: string;
}

/** docs/design.md "CSRF", draft-ietf-oauth-browser-based-apps §6.1.3.3. */
export { CSRF_HEADER } from '../shared/api-wire';

/**
 * An outage a procedure met (the IdP or the session store not answering: docs/operating.md), or
 * the IdP's rate limit, as the tRPC error it is: BAD_GATEWAY (502) for the IdP, §8's OktaError;
 * SERVICE_UNAVAILABLE (503) for the store; TOO_MANY_REQUESTS (429) for the rate limit. Never
 * INTERNAL_SERVER_ERROR, which would read as a bug of ours. Anything else is left as is.
 */
export function outageError(error: unknown): TRPCError | undefined {
  if (!(error instanceof AppError)) return undefined;
  // The IdP's rate limit (docs/okta.md "Rate limits"): TOO_MANY_REQUESTS (429), and the answer's
  // Retry-After says when (TrpcMiddleware).
  if (error.code === 'IdpRateLimited')
    return new TRPCError({
      code: 'TOO_MANY_REQUESTS',
      message: `${error.code}: ${error.message}`,
      cause: error,
    });
  if (error.status < 500) return undefined;
  return new TRPCError({
    code: error.status === 502 ? 'BAD_GATEWAY' : 'SERVICE_UNAVAILABLE',
    message: `${error.code}: ${error.message}`,
    cause: error,
  });
}

/** The request id the access log and the error log name: what a collector reads out to support. */
export function correlationIdOf(req: unknown): string | undefined {
  const id = (req as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}

const t = initTRPC.context<TrpcContext>().create({
  transformer: serverHexJsonTransformer,
  // Stacks never leave the server, whatever NODE_ENV says (docs/design.md "Stack notes").
  isDev: false,
  errorFormatter: ({ shape, error, ctx }) => {
    const correlationId = correlationIdOf(ctx?.req);
    return {
      ...shape,
      // BAD_REQUEST from input validation: "field: reason" rather than zod's issues as JSON (§8).
      ...(error.code === 'BAD_REQUEST'
        ? { message: inputErrorMessage(error.cause, shape.message) }
        : {}),
      // §8: every refusal and outage names the request, as the error page does.
      data: { ...shape.data, ...(correlationId ? { correlationId } : {}) },
    };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;

/** What tRPC hands every resolver at run time besides its declared options (see below). */
interface RawInputOption {
  readonly getRawInput?: () => Promise<unknown>;
}

/**
 * A public query that takes no input (§7 "Payload: none") and refuses anything sent (§8) with the
 * refusal `.input(z.undefined())` would make: BAD_REQUEST, its ZodError as the cause, so the same
 * "input: <message>" answer. It is checked in the resolver because tRPC runs `.input()` as one more
 * middleware layer, and on the hottest call (account.status, three times in every page's batch) that
 * layer cost more than the procedure: 18 more promises a batch (each carrying the request scope on
 * Node 20) and 2.59 against 2.41 million instructions a batch outside garbage collection (callgrind,
 * issue 18 item 2). The resolver is tRPC's last middleware and gets the same options, getRawInput
 * among them, which its declared type leaves out; if a tRPC release stops passing it, every call fails
 * loudly (trpc-inputs.spec) rather than letting input through.
 */
export function queryWithoutInput<TOutput>(
  refusal: string,
  resolve: (ctx: TrpcContext) => Promise<TOutput>,
) {
  const noInput = z.undefined({ error: refusal });
  return publicProcedure.query(async (opts) => {
    const { getRawInput } = opts as typeof opts & RawInputOption;
    if (typeof getRawInput !== 'function') {
      throw new TRPCError({
        code: 'INTERNAL_SERVER_ERROR',
        message: 'tRPC gave the resolver no getRawInput',
      });
    }
    const checked = noInput.safeParse(await getRawInput());
    if (!checked.success) throw new TRPCError({ code: 'BAD_REQUEST', cause: checked.error });
    return resolve(opts.ctx);
  });
}

/** Calls the router without HTTP, given a context (tests of the rules, docs/design.md "Style"). */
export const createCallerFactory = t.createCallerFactory;

/**
 * docs/design.md "CSRF": mutations need the static custom header (a cross-site form cannot add one, and
 * a cross-site fetch that adds one is stopped by the CORS preflight) and, when the browser sends
 * one, a same-origin Origin. It runs before anything else of a mutation: input, session, effect.
 */
export const mutationProcedure = t.procedure.use(({ ctx, next }) => {
  if (ctx.req.headers[CSRF_HEADER] !== '1') {
    throw new TRPCError({
      code: 'FORBIDDEN',
      message: `mutations need the ${CSRF_HEADER}: 1 header`,
    });
  }
  const origin = ctx.req.headers.origin;
  if (origin !== undefined && origin !== ctx.publicOrigin) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'mutations must come from this site' });
  }
  return next();
});

/** How a guard finds the caller's session: the live read, or (account.signout) the stored record. */
export type SessionLookup = (ctx: TrpcContext) => Promise<SessionRecord | undefined>;

/**
 * §8: a call that needs a signed-in collector answers UNAUTHORIZED without one (the browser client
 * then goes to /unauthredirect, server-side calls get a 302). The one place that refusal is made:
 * past it the procedure sees the session and its id as present, so it cannot forget to look.
 */
export function requireSession(lookup: SessionLookup) {
  return t.middleware(async ({ ctx, next }) => {
    const session = await lookup(ctx);
    const sessionId = ctx.sessionId;
    if (!session || !sessionId) {
      throw new TRPCError({ code: 'UNAUTHORIZED', message: 'not signed in' });
    }
    return next({ ctx: { session, sessionId } });
  });
}

/** The live session (§4 Token handling: refreshed once if needed), read once per request. */
const requireLiveSession = requireSession((ctx) => ctx.session());

/**
 * Procedures for a signed-in collector: `ctx.session` is the live `SessionRecord` and
 * `ctx.sessionId` a string. They offer `.input()` only, and the session guard runs after it, so the
 * order of checks is CSRF (mutations), then input (BAD_REQUEST), then session (UNAUTHORIZED): a
 * refused input never reads, refreshes or touches a session. A procedure without input says so with
 * `z.undefined()`, which also refuses anything sent rather than silently ignoring it.
 */
export const protectedProcedure = {
  input: <TSchema extends z.ZodType>(schema: TSchema) =>
    publicProcedure.input(schema).use(requireLiveSession),
};

/** protectedProcedure for mutations: the CSRF check (docs/design.md "CSRF") comes first. */
export const protectedMutationProcedure = {
  input: <TSchema extends z.ZodType>(schema: TSchema) =>
    mutationProcedure.input(schema).use(requireLiveSession),
};
