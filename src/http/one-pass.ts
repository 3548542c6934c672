import type { IncomingMessage, ServerResponse } from 'node:http';

export type Middleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * The middleware every request runs (request id and trace context, metrics, security headers,
 * bodies, the locale path), as one Express layer: each step calls the next directly, instead of
 * Express's router taking each as a layer of its own (a path match, a prefix trim and a promise
 * check per layer and request; issue 18 item 2). The steps run in the given order; an error or a
 * throw skips the rest and goes to Express's error handling, as it would between layers.
 */
export function inOnePass(...steps: readonly Middleware[]): Middleware {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined) return next(error);
      const current = steps[index++];
      if (current === undefined) return next();
      try {
        current(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
