import { TRPCError } from '@trpc/server';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { SessionRecord } from '../session/sessions';
import {
  CSRF_HEADER,
  TrpcContext,
  createCallerFactory,
  protectedMutationProcedure,
  protectedProcedure,
  publicProcedure,
  queryWithoutInput,
  router,
} from './trpc';

const ORIGIN = 'https://signin.collectors.com';
const SESSION_ID = 's'.repeat(43);
const RECORD = { sub: 'collector-1' } as SessionRecord;

/** A guarded query and mutation that answer what the guard handed them. */
const probe = router({
  read: protectedProcedure
    .input(z.strictObject({ n: z.number() }))
    .query(({ ctx }) => ({ sub: ctx.session.sub, sessionId: ctx.sessionId })),
  write: protectedMutationProcedure
    .input(z.strictObject({ n: z.number() }))
    .mutation(({ ctx }) => ({ sub: ctx.session.sub, sessionId: ctx.sessionId })),
});
const createCaller = createCallerFactory(probe);

interface Call {
  readonly csrf: boolean;
  readonly sessionId: string | undefined;
  readonly session: SessionRecord | undefined;
}

/** The context of one call, and how often its session was read. */
function contextFor(call: Call): { ctx: TrpcContext; reads: { count: number } } {
  const reads = { count: 0 };
  const ctx: TrpcContext = {
    req: { headers: call.csrf ? { [CSRF_HEADER]: '1' } : {} } as unknown as Request,
    res: {} as Response,
    ssr: false,
    sessionId: call.sessionId,
    session: () => {
      reads.count += 1;
      return Promise.resolve(call.session);
    },
    storedSession: () => Promise.resolve(call.session),
    publicOrigin: ORIGIN,
  };
  return { ctx, reads };
}

function callerFor(call: Call) {
  const { ctx, reads } = contextFor(call);
  return { api: createCaller(ctx), reads };
}

async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'OK';
  } catch (error) {
    if (error instanceof TRPCError) return error.code;
    throw error;
  }
}

const signedIn = { sessionId: SESSION_ID, session: RECORD };
const signedOut = { sessionId: undefined, session: undefined };

describe('protectedProcedure and protectedMutationProcedure (§8, docs/design.md "CSRF")', () => {
  // Order of checks: CSRF (mutations), then the input, then the session; a refused input never
  // reads the session (no refresh, no touch).
  const rows: {
    procedure: 'read' | 'write';
    why: string;
    csrf: boolean;
    n: unknown;
    who: Omit<Call, 'csrf'>;
    expected: string;
    reads: number;
  }[] = [
    {
      procedure: 'write',
      why: 'no CSRF header, bad input, signed out',
      csrf: false,
      n: 'x',
      who: signedOut,
      expected: 'FORBIDDEN',
      reads: 0,
    },
    {
      procedure: 'write',
      why: 'no CSRF header, signed in',
      csrf: false,
      n: 1,
      who: signedIn,
      expected: 'FORBIDDEN',
      reads: 0,
    },
    {
      procedure: 'write',
      why: 'bad input, signed out',
      csrf: true,
      n: 'x',
      who: signedOut,
      expected: 'BAD_REQUEST',
      reads: 0,
    },
    {
      procedure: 'write',
      why: 'bad input, signed in',
      csrf: true,
      n: 'x',
      who: signedIn,
      expected: 'BAD_REQUEST',
      reads: 0,
    },
    {
      procedure: 'write',
      why: 'good input, signed out',
      csrf: true,
      n: 1,
      who: signedOut,
      expected: 'UNAUTHORIZED',
      reads: 1,
    },
    {
      procedure: 'write',
      why: 'a session id whose session is gone',
      csrf: true,
      n: 1,
      who: { ...signedOut, sessionId: SESSION_ID },
      expected: 'UNAUTHORIZED',
      reads: 1,
    },
    {
      procedure: 'write',
      why: 'good input, signed in',
      csrf: true,
      n: 1,
      who: signedIn,
      expected: 'OK',
      reads: 1,
    },
    {
      procedure: 'read',
      why: 'bad input, signed out (queries need no CSRF header)',
      csrf: false,
      n: 'x',
      who: signedOut,
      expected: 'BAD_REQUEST',
      reads: 0,
    },
    {
      procedure: 'read',
      why: 'good input, signed out',
      csrf: false,
      n: 1,
      who: signedOut,
      expected: 'UNAUTHORIZED',
      reads: 1,
    },
    {
      procedure: 'read',
      why: 'a session but no session id',
      csrf: false,
      n: 1,
      who: { ...signedIn, sessionId: undefined },
      expected: 'UNAUTHORIZED',
      reads: 1,
    },
    {
      procedure: 'read',
      why: 'good input, signed in',
      csrf: false,
      n: 1,
      who: signedIn,
      expected: 'OK',
      reads: 1,
    },
  ];
  it.each(rows)(
    '$procedure with $why: $expected',
    async ({ procedure, csrf, n, who, expected, reads }) => {
      const { api, reads: counted } = callerFor({ csrf, ...who });
      const input = { n } as { n: number };
      expect(await outcome(procedure === 'read' ? api.read(input) : api.write(input))).toBe(
        expected,
      );
      expect(counted.count).toBe(reads);
    },
  );

  it('hands the procedure the session and its id, read once', async () => {
    const { api, reads } = callerFor({ csrf: true, ...signedIn });
    await expect(api.write({ n: 1 })).resolves.toEqual({
      sub: 'collector-1',
      sessionId: SESSION_ID,
    });
    expect(reads.count).toBe(1);
  });

  it("refuses with §8's UNAUTHORIZED 'not signed in'", async () => {
    const { api } = callerFor({ csrf: true, ...signedOut });
    await expect(api.write({ n: 1 })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'not signed in',
    });
  });
});

describe('queryWithoutInput (§7 "Payload: none", §8)', () => {
  const REFUSAL = 'probe takes no input';
  // The same query both ways: the resolver's check, and the `.input()` layer it stands in for.
  const noInput = router({
    checked: queryWithoutInput(REFUSAL, async (ctx) => (await ctx.session())?.sub ?? null),
    layered: publicProcedure
      .input(z.undefined({ error: REFUSAL }))
      .query(async ({ ctx }) => (await ctx.session())?.sub ?? null),
  });
  const callNoInput = createCallerFactory(noInput);

  /** The answer to one input: the result or the error's code and cause, and the session reads. */
  async function answer(which: 'checked' | 'layered', input: unknown) {
    const { ctx, reads } = contextFor({ csrf: false, ...signedIn });
    const api = callNoInput(ctx);
    const call = (api[which] as (input?: unknown) => Promise<unknown>)(input);
    try {
      return { result: await call, reads: reads.count };
    } catch (error) {
      if (!(error instanceof TRPCError)) throw error;
      return { code: error.code, cause: error.cause?.message, reads: reads.count };
    }
  }

  it.each([
    ['nothing', undefined, { result: 'collector-1', reads: 1 }],
    ['an empty object', {}, { code: 'BAD_REQUEST', reads: 0 }],
    ['null', null, { code: 'BAD_REQUEST', reads: 0 }],
    ['a string', 'x', { code: 'BAD_REQUEST', reads: 0 }],
    ['an array', [], { code: 'BAD_REQUEST', reads: 0 }],
    ['zero', 0, { code: 'BAD_REQUEST', reads: 0 }],
  ])('given %s: %o, as .input(z.undefined()) answers', async (_, input, expected) => {
    const checked = await answer('checked', input);
    expect(checked).toMatchObject(expected);
    if (checked.code) expect(checked.cause).toContain(REFUSAL);
    expect(checked).toEqual(await answer('layered', input));
  });
});
