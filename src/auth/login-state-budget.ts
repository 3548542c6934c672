import { type JourneyContext, journeyBytes } from './journey';

/**
 * What one client address may make the sign-in routes write in login states (docs/security.md,
 * unauthenticated writes). Every login state lives LOGIN_STATE_TTL_SECONDS (10 minutes) whether or
 * not its sign-in ends, and anyone may begin one (`/signin`, the brand code redirect, a landing
 * that sends the browser to the IdP again). Measured before: RATE_LIMIT_SIGNIN alone let one
 * address keep about 1,320 of them, each up to about 30 kB (l and state of control characters, kept
 * escaped at six bytes each, as many as Node's 16 KB request line carries): about 40 MB.
 *
 * Now a journey is at most MAX_JOURNEY_BYTES (journey.ts), and each login state an address begins
 * costs 1 KiB plus its journey's size in KiB, rounded up: a sign-in's usual state (a journey under
 * 1 KiB) costs 2, the largest 8. An address may spend LOGIN_STATE_KIB_PER_SIGNIN KiB for each of
 * RATE_LIMIT_SIGNIN's limit in a window as long as a login state lives: 1,200 KiB a 10-minute window
 * with the default 120/60. A shared address at the full RATE_LIMIT_SIGNIN rate makes at most 600
 * states in 10 minutes (each sign-in is two counted requests or more a state), 1,200 KiB of usual
 * ones: inside; the largest stop at 150 a window.
 *
 * The bound: the states alive at once were begun in at most two windows, 2,400 KiB of cost by
 * default, and a state's size as stored is under twice its cost (its journey, the brand hop's copy
 * of r, about 700 bytes of fixed fields, sealed and base64): under 5 MiB per address (per IPv6 /64).
 */
export const LOGIN_STATE_KIB_PER_SIGNIN = 10;

/** What beginning a login state for this journey costs, in KiB of the address's budget. */
export function loginStateCost(journey: JourneyContext): number {
  return 1 + Math.ceil(journeyBytes(journey) / 1024);
}

/** An address's budget per login-state lifetime, in KiB, from RATE_LIMIT_SIGNIN's limit. */
export function loginStateBudget(signinLimit: number): number {
  return signinLimit * LOGIN_STATE_KIB_PER_SIGNIN;
}
