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
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  TooManyRequests: 429,
  ServiceUnavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}
