import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { Request } from 'express';
import { rateLimitGroup } from './rate-limited-routes';

/** Applies the limits only to the routes in RATE_LIMITED_ROUTES; everything else passes untouched. */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return Promise.resolve(true);
    const req = context.switchToHttp().getRequest<Request>();
    return Promise.resolve(rateLimitGroup(req.method, req.path) === undefined);
  }
}
