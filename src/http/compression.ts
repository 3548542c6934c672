import compression from 'compression';
import expressStaticGzip from 'express-static-gzip';
import type { RequestHandler } from 'express';
import { constants } from 'node:zlib';

/**
 * Issue 18 item 1, bytes on the wire. Static files: the build wrote brotli and gzip copies of each
 * (scripts/build-client.js), and the best one the request accepts is sent (`Vary: Accept-Encoding`),
 * with the same caching as the file. Pages and API answers above 1 kB: compressed per response at a
 * fast setting (brotli quality 4, gzip level 1: a few hundred microseconds for a 20 kB page), unless
 * COMPRESSION=off where a proxy in front compresses instead.
 */
export function staticFiles(
  dir: string,
  options: { readonly maxAge: string; readonly immutable?: boolean },
): RequestHandler {
  return expressStaticGzip(dir, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      maxAge: options.maxAge,
      ...(options.immutable ? { immutable: true } : {}),
      index: false,
    },
  });
}

/** Responses smaller than this go as they are: compressing them saves less than its headers cost. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

export function dynamicCompression(): RequestHandler {
  const compress = compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    level: 1,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  return (req, res, next) => {
    if (req.headers['accept-encoding'] !== undefined) return compress(req, res, next);
    // A request without Accept-Encoding never gets a coding from `compression` (its enforceEncoding
    // is identity), yet it would wrap the response's write, end and headers all the same: about 7 %
    // of a /healthz answer's CPU in a profile (issue 18 item 2). Health probes, the brands' servers
    // and load balancers send none. The answer still says Vary: Accept-Encoding, as it would have.
    res.vary('Accept-Encoding');
    next();
  };
}
