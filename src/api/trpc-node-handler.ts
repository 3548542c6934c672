import type { AnyTRPCRouter } from '@trpc/server';
import {
  type NodeHTTPHandlerOptions,
  incomingMessageToRequest,
  internal_exceptionHandler,
} from '@trpc/server/adapters/node-http';
import { resolveResponse } from '@trpc/server/http';
import type { Request, Response } from 'express';

/**
 * @trpc/server's Node adapter (`nodeHTTPRequestHandler`, which `createExpressMiddleware` wraps), with
 * the answer written the way a complete answer should be: in one write, with its Content-Length.
 *
 * Why not the adapter's own writer: it writes every answer, a 400-byte batch included, through a
 * WHATWG `WritableStream` (`pipeTo`, then a `flush` per chunk), chunked with no length. So
 * `compression` could not see the size, and gzipped answers far below its 1 kB threshold
 * (src/http/compression.ts) for every browser, which always sends Accept-Encoding; and the stream's
 * promises cost CPU on every call.
 *
 * Streamed answers (a batch asked for as JSON Lines, `trpc-accept: application/jsonl`, which tRPC
 * marks `Transfer-Encoding: chunked`) still go chunk by chunk, flushed as they come. The request,
 * the procedure's resolution, the errors and the last-resort handler are the adapter's own.
 */
export function trpcNodeHandler<TRouter extends AnyTRPCRouter>(
  opts: NodeHTTPHandlerOptions<TRouter, Request, Response>,
): (req: Request, res: Response, path: string) => Promise<void> {
  return async (req, res, path) => {
    try {
      const request = incomingMessageToRequest(req, res, { maxBodySize: opts.maxBodySize ?? null });
      const response = await resolveResponse({
        ...opts,
        req: request,
        path,
        error: null,
        createContext: async (inner) => await opts.createContext?.({ ...inner, req, res }),
        onError: (o) => opts.onError?.({ ...o, req }),
      });
      await send(res, response, request.signal);
    } catch (cause) {
      internal_exceptionHandler({ ...opts, req, res, path })(cause);
    }
  };
}

/** The fetch `Response` tRPC resolved, onto Node's response. */
async function send(res: Response, response: globalThis.Response, signal: AbortSignal) {
  if (res.statusCode === 200) res.statusCode = response.status;
  for (const [key, value] of response.headers) if (key !== 'set-cookie') res.setHeader(key, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (response.body === null) {
    res.end();
    return;
  }
  if (response.headers.get('transfer-encoding') !== 'chunked') {
    const body = Buffer.from(await response.arrayBuffer());
    res.setHeader('content-length', body.length);
    res.end(body);
    return;
  }
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      // A browser that left: stop reading, which cancels the stream's producer.
      if (signal.aborted || res.destroyed) break;
      if (!res.write(chunk)) await drained(res);
      // `compression` holds what it has compressed until told; each line is due now.
      (res as Response & { flush?: () => void }).flush?.();
    }
  } catch (error) {
    if (!res.headersSent) res.statusCode = 500;
    throw error;
  } finally {
    res.end();
  }
}

/** Until `res` can take more, or has closed. */
function drained(res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      cleanup();
      resolve();
    };
    const fail = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      res.off('drain', done);
      res.off('close', done);
      res.off('error', fail);
    };
    res.once('drain', done);
    res.once('close', done);
    res.once('error', fail);
  });
}
