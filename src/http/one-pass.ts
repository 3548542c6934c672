import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Middleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** A step may be async, as an Express middleware may: its rejection is handled like a throw. */
export type Step = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void | Promise<void>;

/** Something with an Express middleware's `use` (a Nest middleware instance), as a step. */
export function stepOf(middleware: {
  use(req: Request, res: Response, next: NextFunction): void | Promise<void>;
}): Step {
  return (req, res, next) => middleware.use(req as Request, res as Response, next);
}

/**
 * The middleware every request runs (request id and trace context, metrics, security headers,
 * bodies, the locale path), as one Express layer: each step calls the next directly, instead of
 * Express's router taking each as a layer of its own (a path match, a prefix trim and a promise
 * check per layer and request; issue 18 item 2). The steps run in the given order; an error, a
 * throw or a rejected promise skips the rest and goes to Express's error handling, as it would
 * between layers.
 */
export function inOnePass(...steps: readonly Step[]): Middleware {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined) return next(error);
      const current = steps[index++];
      if (current === undefined) return next();
      try {
        // As Express's router does: a step's rejected promise is an error passed on.
        const pending = current(req, res, step);
        if (pending instanceof Promise)
          pending.catch((error: unknown) => next(error ?? new Error('rejected')));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
