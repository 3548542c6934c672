import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { Request } from 'express';
import { isRateLimited } from './rate-limited-routes';

/** Applies the limits only to the routes in RATE_LIMITED_ROUTES; everything else passes untouched. */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return Promise.resolve(true);
    const req = context.switchToHttp().getRequest<Request>();
    return Promise.resolve(!isRateLimited(req.method, req.path));
  }

  /** The client address as Express sees it, honouring TRUST_PROXY. */
  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    return Promise.resolve(typeof req.ip === 'string' ? req.ip : 'unknown');
  }
}
