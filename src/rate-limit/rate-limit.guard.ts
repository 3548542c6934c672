import { hash } from 'node:crypto';
import { ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { requestRateLimitGroup } from './rate-limited-routes';

type MetadataTarget = Parameters<Reflector['getAllAndOverride']>[1][number];

/**
 * ThrottlerGuard reads every throttler's route options (skip, limit, ttl, block, tracker, key) from
 * decorator metadata on each request: 13 lookups, each over the handler and then its class, on a
 * signed-in hop, reflect-metadata 2.1 % of its main thread (issue 35 item 5). Decorators write it once,
 * when the classes are defined, and nothing here writes it later, so each answer is kept per handler,
 * class and key after its first reading.
 */
export class DecoratorMetadataCache extends Reflector {
  private readonly answers = new WeakMap<object, WeakMap<object, Map<unknown, unknown>>>();

  override getAllAndOverride<TResult = unknown, TKey = unknown>(
    key: TKey,
    targets: MetadataTarget[],
  ): TResult {
    const [handler, classRef] = targets;
    if (targets.length !== 2 || !handler || !classRef)
      return super.getAllAndOverride<TResult, TKey>(key, targets);
    let byClass = this.answers.get(handler);
    if (!byClass) this.answers.set(handler, (byClass = new WeakMap()));
    let byKey = byClass.get(classRef);
    if (!byKey) byClass.set(classRef, (byKey = new Map()));
    if (byKey.has(key)) return byKey.get(key) as TResult;
    const answer = super.getAllAndOverride<TResult, TKey>(key, targets);
    byKey.set(key, answer);
    return answer;
  }
}

/**
 * Applies the limits only to the routes in RATE_LIMITED_ROUTES; every other route of a controller it
 * guards passes untouched.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
  ) {
    super(options, storage, new DecoratorMetadataCache());
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return Promise.resolve(true);
    const req = context.switchToHttp().getRequest<Request>();
    return Promise.resolve(requestRateLimitGroup(req) === undefined);
  }

  /**
   * The counter's key, the same text and SHA-256 as ThrottlerGuard's own (so counters carry over), from
   * Node's one-shot hash: ThrottlerGuard makes a Hash object per throttler per request (1.8 µs against
   * 0.5 µs here, and the signed-in redirect counts twice: issue 18 item 2).
   */
  protected override generateKey(context: ExecutionContext, suffix: string, name: string): string {
    return hash(
      'sha256',
      `${context.getClass().name}-${context.getHandler().name}-${name}-${suffix}`,
      'hex',
    );
  }

  /**
   * Named throttlers (signin, signin-session) only write `Retry-After-<name>`; every 429 also carries
   * the standard Retry-After (RFC 6585 §4, RFC 9110 §10.2.3) so browsers and brands can honour it.
   */
  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    context
      .switchToHttp()
      .getResponse<Response>()
      .setHeader('Retry-After', String(Math.max(1, detail.timeToBlockExpire)));
    return super.throwThrottlingException(context, detail);
  }
}

/**
 * Puts a controller's routes under RateLimitGuard; RATE_LIMITED_ROUTES still decides which of them
 * are counted. On the controllers that serve a route of that table (AuthController,
 * InteractionController), not as a global guard: a global guard costs every request Nest's guard
 * pass (an execution context and two awaited promises), 45-55 k instructions of /healthz's 1.09 M
 * (callgrind, issue 18 item 2), for the seven routes that need it. test/integration/rate-limit.spec.ts
 * limits every route of the table, so a listed route on a controller without this fails there.
 */
export const RateLimited = (): ClassDecorator => UseGuards(RateLimitGuard);
