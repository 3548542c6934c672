import type { Brand } from '../shared/brand';
import type { Locale } from '../shared/locale';

/**
 * Errors the service knows how to explain. Each code is data: its HTTP status lives in one table and
 * its message is safe to show (no secrets, no input echoed back).
 */
export const ERROR_STATUS = {
  BadRequest: 400,
  InvalidRedirectUrl: 400,
  InvalidBrand: 400,
  /** The landing's state is missing, expired, used, or from another browser. */
  InvalidLoginState: 400,
  /** The IdP refused the sign-in or the code exchange failed. */
  SigninFailed: 400,
  // §8 Brand token login error codes.
  InvalidBrandTokenRedirectParams: 400,
  InvalidBrandTokenLoginState: 400,
  InvalidBrandClientCredentials: 401,
  BrandLoginFailed: 400,
  OktaError: 502,
  /**
   * The IdP's rate limit holds back the call this request needed (docs/okta.md "Rate limits"): the
   * answer says when to try again (Retry-After).
   */
  IdpRateLimited: 429,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  TooManyRequests: 429,
  ServiceUnavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Who the error page speaks to when the request itself does not say: the brand and language of the
 * journey that failed (e.g. a sign-in landing, whose URL the IdP wrote and which carries neither).
 */
export interface ErrorAudience {
  readonly brand?: Brand;
  readonly locale?: Locale;
  /**
   * Where 'try again' goes when loading the failed address again cannot work (a landing's state is
   * single-use): the start of the same journey.
   */
  readonly retry?: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; audience?: ErrorAudience; retryAt?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    if (options?.audience) this.audience = options.audience;
    if (options?.retryAt !== undefined) this.retryAt = options.retryAt;
  }

  readonly audience?: ErrorAudience;
  /**
   * When trying again can work (epoch ms), for an error that passes at a known time (a rate limit):
   * the answer's Retry-After (RFC 9110 §10.2.3) and the page's message say it.
   */
  readonly retryAt?: number;

  /** Whole seconds until `retryAt` (at least 1), for Retry-After; undefined without one. */
  retryAfterSeconds(now = Date.now()): number | undefined {
    return this.retryAt === undefined
      ? undefined
      : Math.max(1, Math.ceil((this.retryAt - now) / 1000));
  }

  /**
   * The error as the page of a journey should show it (issue 14 items 2 and 3): an AppError keeps its
   * code and message and gains the journey's brand and language unless it already names them; any
   * other error is left as it is (the filter answers it with a bare 500).
   */
  static inJourney(error: unknown, audience: ErrorAudience): unknown {
    if (!(error instanceof AppError) || error.audience) return error;
    return new AppError(error.code, error.message, {
      ...(error.cause === undefined ? {} : { cause: error.cause }),
      ...(error.retryAt === undefined ? {} : { retryAt: error.retryAt }),
      audience,
    });
  }
}
