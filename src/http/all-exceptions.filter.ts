import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Inject,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { Translators } from '../locale/translators';
import { AppLogger } from '../logging/app-logger';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { redactUrl } from '../logging/redaction';
import { AppMetrics } from '../metrics';
import type { Translate } from '../shared/translate';
import { isBrand } from '../shared/brand';
import { localeOfRequest } from '../locale/request-locale-resolver';
import { ShellRenderer } from '../render/shell-renderer';
import { AppError, type ErrorAudience } from '../errors/app-error';
import type { Locale } from '../shared/locale';
import { sameOriginPath } from '../shared/routes';
import { errorSummary } from '../errors/error-summary';
import { waitPhrase } from '../shared/wait-phrase';

export interface ErrorBody {
  readonly statusCode: number;
  readonly error: string;
  readonly message: string;
  readonly correlationId: string;
  readonly stack?: string;
}

/**
 * The last-resort handler (ASVS 5.0 16.5.4): known errors become a clean status and message; anything
 * else becomes a bare 500. Every error carries the request's correlation id, which is also logged.
 * Stacks appear in responses only in the local environment.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logger: AppLogger,
    private readonly translators: Translators,
    private readonly shell: ShellRenderer,
    private readonly metrics: AppMetrics,
  ) {
    this.logger.setContext(AllExceptionsFilter.name);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request & { id?: unknown }>();
    const res = http.getResponse<Response>();
    const correlationId = typeof req.id === 'string' ? req.id : '';
    // A journey's error speaks the journey's language and shows its brand (issue 14 items 2, 3).
    const audience = exception instanceof AppError ? exception.audience : undefined;
    const locale = audience?.locale ?? localeOfRequest(req);
    const t = this.translators.for(locale);
    // An error that passes at a known time (the IdP's rate limit) says when, in the header and the
    // message (RFC 9110 §10.2.3). Our own rate limit (RateLimitGuard) has set the header already: the
    // message says the same wait.
    const retryAfter =
      exception instanceof AppError ? exception.retryAfterSeconds() : retryAfterSet(res);
    const body = this.localize(this.describe(exception, correlationId), t, locale, retryAfter);
    // Issue 7: on a sign-in or sign-out route this is a failed sign-in or sign-out, by its code.
    this.metrics.requestFailed(req, body.error);
    if (exception instanceof AppError && body.statusCode >= 500) {
      // A known outage (the session store or the IdP cannot answer): one line that says which, and why.
      this.logger.error(
        {
          correlationId,
          status: body.statusCode,
          error: body.error,
          ...(exception.cause === undefined ? {} : { cause: errorSummary(exception.cause) }),
        },
        `request failed: ${exception.message}`,
      );
    } else if (body.statusCode >= 500) {
      this.logger.error({ err: exception, correlationId }, 'unhandled error');
    } else {
      this.logger.warn(
        {
          correlationId,
          status: body.statusCode,
          error: body.error,
          message: body.message,
          // Why it was refused (a failed code exchange's OAuth error, say): never the input itself.
          ...(exception instanceof AppError && exception.cause !== undefined
            ? { cause: errorSummary(exception.cause) }
            : {}),
        },
        'request rejected',
      );
    }
    if (res.headersSent) return;
    // Nothing half-done reaches the browser: a request that failed on our side drops the cookies it
    // had set so far (e.g. a sign-in binding whose IdP redirect could not be built).
    if (body.statusCode >= 500) res.removeHeader('Set-Cookie');
    res.status(body.statusCode).setHeader('Cache-Control', 'no-store');
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    // A browser navigating (Accept: text/html first) gets the error page; API callers get JSON.
    if (req.accepts(['json', 'html']) === 'html') {
      this.errorPage(body, req, res, { ...audience, locale });
      return;
    }
    res.json(body);
  }

  /** §2 Error page, as a hydrated shell page in the collector's language and the brand's look. */
  private errorPage(
    body: ErrorBody,
    req: Request,
    res: Response,
    audience: ErrorAudience & { readonly locale: Locale },
  ): void {
    const b = typeof req.query.b === 'string' ? req.query.b.toLowerCase() : '';
    const brand = audience.brand ?? (isBrand(b) ? b : undefined);
    try {
      this.shell.render(req, res, {
        page: 'error',
        titleKey: 'errorPage.title',
        locale: audience.locale,
        ...(brand ? { brand } : {}),
        status: body.statusCode,
        props: {
          correlationId: body.correlationId,
          code: body.error,
          message: body.message,
          // Only ever a path on this site: a request for //evil.com must not become a link there
          // (sameOriginPath, issue 15 item 6).
          retryHref:
            audience.retry ?? (req.method === 'GET' ? sameOriginPath(req.originalUrl) : '/'),
        },
      });
    } catch (error) {
      // The page itself cannot be drawn (e.g. the bundle is gone): the id still reaches the collector.
      this.logger.error({ err: error, correlationId: body.correlationId }, 'error page failed');
      res
        .type('text/plain; charset=utf-8')
        .send(`${body.message}\ncorrelation id: ${body.correlationId}\n`);
    }
  }

  /**
   * The collector reads the message in their language (§1). BadRequest keeps its specific text,
   * which names the offending field.
   */
  private localize(body: ErrorBody, t: Translate, locale: Locale, retryAfter?: number): ErrorBody {
    if (body.error === 'BadRequest') return body;
    const key = `common.errors.${body.error}`;
    // A rate limit's message says how long to wait, in words ("30 seconds", "2 minutes").
    const text = t(key, {
      wait: waitPhrase(retryAfter, locale, t),
      ...(retryAfter === undefined ? {} : { seconds: retryAfter }),
    });
    return text !== key ? { ...body, message: text } : body;
  }

  private describe(exception: unknown, correlationId: string): ErrorBody {
    // Local only, and with query values redacted: Nest's 404 text quotes the URL, which may carry `t`.
    const stack =
      this.config.env === 'local' && exception instanceof Error && exception.stack
        ? { stack: exception.stack.replace(/\S*\?\S*/g, (m) => redactUrl(m)) }
        : {};
    if (exception instanceof AppError) {
      return {
        statusCode: exception.status,
        error: exception.code,
        message: exception.message,
        correlationId,
        ...stack,
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const message =
        typeof response === 'object' && response !== null && 'message' in response
          ? ([] as unknown[]).concat(response.message).map(String).join('; ')
          : exception.message;
      const error = HttpStatus[status] ? toTitle(HttpStatus[status]) : 'Error';
      return { statusCode: status, error, message, correlationId, ...stack };
    }
    return {
      statusCode: 500,
      error: 'InternalServerError',
      message:
        'Something went wrong on our side. Quote the correlation id when you contact support.',
      correlationId,
      ...stack,
    };
  }
}

function toTitle(constant: string): string {
  return constant
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/** The whole seconds of a Retry-After already set on the answer (RateLimitGuard), if any. */
function retryAfterSet(res: Response): number | undefined {
  const value = Number(res.getHeader('Retry-After'));
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
