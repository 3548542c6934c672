import type { SafeRedirectUrl } from '../brand/redirect-policy';
import type { JourneyContext } from './journey';
import { MAX_JOURNEY_BYTES, journeyBytes } from './journey';
import { loginStateBudget, loginStateCost } from './login-state-budget';

/** A URL as the policy would have passed it (the cost does not look inside). */
const passed = (url: string) => url as SafeRedirectUrl;

const journey = (extra: Partial<JourneyContext> = {}): JourneyContext => ({
  brand: 'psa',
  isNewAccount: false,
  isMigrated: false,
  postWelcome: false,
  returnToSignIn: false,
  locale: 'en-US',
  ...extra,
});

/**
 * docs/security.md, unauthenticated writes: what beginning a login state costs an address, and what
 * an address may spend.
 */
describe('the login-state budget', () => {
  it.each([
    ['a bare sign-in', journey(), 2],
    [
      'a usual brand link',
      journey({ r: passed('https://www.psacard.com/orders/12345?tab=open') }),
      2,
    ],
    [
      'a journey of just over 1 KiB',
      journey({ r: passed(`https://www.psacard.com/${'a'.repeat(1000)}`) }),
      3,
    ],
    [
      'the largest journey',
      journey({ state: 'x'.repeat(MAX_JOURNEY_BYTES - journeyBytes(journey({ state: '' }))) }),
      8,
    ],
  ])('%s costs %d KiB', (_name, kept, cost) => {
    expect(journeyBytes(kept)).toBeLessThanOrEqual(MAX_JOURNEY_BYTES);
    expect(loginStateCost(kept)).toBe(cost);
  });

  it.each([
    [120, 1200],
    [30, 300],
    [100_000, 1_000_000],
  ])('RATE_LIMIT_SIGNIN %d a window: %d KiB per address per login-state lifetime', (limit, kib) => {
    expect(loginStateBudget(limit)).toBe(kib);
  });

  it('holds a shared address at the full default rate, and stops the largest states early', () => {
    const budget = loginStateBudget(120);
    // 120 counted requests a minute, two or more a state: 600 usual states in 10 minutes.
    expect(
      600 * loginStateCost(journey({ r: passed('https://www.psacard.com/orders') })),
    ).toBeLessThanOrEqual(budget);
    const largest = journey({ state: 'x'.repeat(7000) });
    expect(Math.floor(budget / loginStateCost(largest))).toBe(150);
  });
});
