import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerGuard } from '@nestjs/throttler';
import { DecoratorMetadataCache, RateLimitGuard } from './rate-limit.guard';

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

/**
 * The guard's reflector keeps each answer after its first reading: the answers must be the ones
 * Nest's Reflector gives (the handler's metadata over its class's), and the metadata read once.
 */
describe('DecoratorMetadataCache', () => {
  class Guarded {
    handled(): void {}
    plain(): void {}
  }
  Reflect.defineMetadata('limit', 5, Guarded);
  Reflect.defineMetadata('limit', 2, Guarded.prototype.handled);
  Reflect.defineMetadata('skip', true, Guarded.prototype.handled);

  it.each([
    ['the handler over its class', 'limit', Guarded.prototype.handled, 2],
    ['the class when the handler has none', 'limit', Guarded.prototype.plain, 5],
    ['the handler only', 'skip', Guarded.prototype.handled, true],
    ['neither', 'skip', Guarded.prototype.plain, undefined],
  ])('%s', (_name, key, handler, expected) => {
    expect(new Reflector().getAllAndOverride(key, [handler, Guarded])).toBe(expected);
    const cache = new DecoratorMetadataCache();
    const read = jest.spyOn(Reflect, 'getMetadata');
    try {
      expect(cache.getAllAndOverride(key, [handler, Guarded])).toBe(expected);
      expect(read).toHaveBeenCalled();
      read.mockClear();
      for (let i = 0; i < 3; i++)
        expect(cache.getAllAndOverride(key, [handler, Guarded])).toBe(expected);
      expect(read).not.toHaveBeenCalled();
    } finally {
      read.mockRestore();
    }
  });
});
