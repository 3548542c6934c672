import type { ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { RateLimitGuard } from './rate-limit.guard';

type KeyOf = (context: ExecutionContext, suffix: string, name: string) => string;
const keyOf = (guard: { prototype: object }): KeyOf =>
  (guard.prototype as { generateKey: KeyOf }).generateKey;

/**
 * The counters' keys are ThrottlerGuard's own, to the byte: a counter a running instance began (or
 * another instance sharing the store, during a rolling deploy) goes on counting.
 */
describe('RateLimitGuard keys', () => {
  const context = {
    getClass: () => ({ name: 'AuthController' }),
    getHandler: () => ({ name: 'start' }),
  } as unknown as ExecutionContext;

  it.each([
    ['signin', '203.0.113.7'],
    ['signin-session', 'kx8Q1m-session-id'],
    ['default', '2001:db8::/56'],
  ])('%s for %s', (name, tracker) => {
    const ours = keyOf(RateLimitGuard).call({}, context, tracker, name);
    expect(ours).toMatch(/^[0-9a-f]{64}$/);
    expect(ours).toBe(keyOf(ThrottlerGuard).call({}, context, tracker, name));
  });
});
