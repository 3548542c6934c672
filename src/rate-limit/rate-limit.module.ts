import { ExecutionContext, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig, RateLimit } from '../config/app-config';
import { ResponseCookies } from '../cookies/response-cookies';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { rateLimitAddress } from './client-address';
import { RateLimitGroup, requestRateLimitGroup } from './rate-limited-routes';
import { StoreThrottlerStorage } from './store-throttler-storage';

const requestOf = (context: ExecutionContext) => context.switchToHttp().getRequest<Request>();
const notIn = (group: RateLimitGroup) => (context: ExecutionContext) =>
  requestRateLimitGroup(requestOf(context)) !== group;
const window = (limit: RateLimit) => ({
  limit: limit.limit,
  ttl: limit.windowSeconds * 1000,
  blockDuration: limit.windowSeconds * 1000,
});
/**
 * The client address as Express sees it, honouring TRUST_PROXY, counted as rateLimitAddress says
 * (docs/security.md, unauthenticated writes: an IPv6 client by its /64, an IPv4-mapped address as
 * the IPv4 one).
 */
const addressOf = (req: Record<string, unknown>) =>
  rateLimitAddress(typeof req.ip === 'string' ? req.ip : undefined);
const byAddress = (req: Record<string, unknown>) => Promise.resolve(addressOf(req));
/**
 * Issue 4 item 10: also per session, so one session cannot use many addresses to go faster. The
 * session cookie comes from the request's one reading of its cookies (ResponseCookies.read), which
 * the controller behind the limit reads too.
 */
const bySession = (cookies: ResponseCookies) => (req: Record<string, unknown>) =>
  Promise.resolve(
    cookies.read(req as unknown as Request).sessionId ?? `no-session:${addressOf(req)}`,
  );

/**
 * The limits and their counters (in the session store, so instances share them). ThrottlerModule is
 * global; the guard that applies them is put on the controllers that need it (`RateLimited`).
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, SESSION_STORE, ResponseCookies],
      useFactory: (config: AppConfig, store: SessionStore, cookies: ResponseCookies) => ({
        throttlers: [
          // 'default' keeps the standard Retry-After header name (named throttlers suffix it).
          {
            name: 'default',
            ...window(config.rateLimit.credentialPosts),
            skipIf: notIn('credentials'),
            getTracker: byAddress,
          },
          {
            name: 'signin',
            ...window(config.rateLimit.signinPerAddress),
            skipIf: notIn('signin'),
            getTracker: byAddress,
          },
          {
            name: 'signin-session',
            ...window(config.rateLimit.signinPerSession),
            skipIf: notIn('signin'),
            getTracker: bySession(cookies),
          },
        ],
        storage: new StoreThrottlerStorage(store),
        // No X-RateLimit-Limit/Remaining/Reset headers: on sign-in and credential routes they would
        // tell a brute-forcer the budget left per address and per session. A 429 still says when
        // to come back, in the standard Retry-After (RateLimitGuard).
        setHeaders: false,
      }),
    }),
  ],
})
export class RateLimitModule {}
