import type { IncomingMessage } from 'node:http';

/** What a request's body turned out to be, read by a handler that parses its own (never a throw). */
export type BodyBytes =
  /** The whole body, as sent (empty when the request has none). */
  | { readonly kind: 'bytes'; readonly bytes: Buffer }
  /** Longer than allowed, by its Content-Length or as it arrived: the rest is never read. */
  | { readonly kind: 'too-large' }
  /** A Content-Encoding other than identity: this service does not inflate request bodies. */
  | { readonly kind: 'encoded' }
  /** Aborted or failed before its end, or already read by someone else. */
  | { readonly kind: 'unreadable' };

/**
 * Reads a request body of at most `maxBytes` for a route that parses its own (a raw prefix of
 * src/http/request-bodies.ts). It never rejects: every way a body can be wrong is a kind the caller
 * answers with its own error format. A body over the limit is not read to its end: the caller should
 * answer with `Connection: close`, so that the rest is never read.
 */
export function readBodyBytes(req: IncomingMessage, maxBytes: number): Promise<BodyBytes> {
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') return Promise.resolve({ kind: 'encoded' });
  const declared = Number(req.headers['content-length'] ?? 0);
  if (!(declared <= maxBytes)) return Promise.resolve({ kind: 'too-large' });
  if (req.readableEnded || req.destroyed) return Promise.resolve({ kind: 'unreadable' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: BodyBytes): void => {
      req.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onFailure);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        settle({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => settle({ kind: 'bytes', bytes: Buffer.concat(chunks, size) });
    // 'close' before 'end' is a client that went away mid-body.
    const onFailure = (): void => settle({ kind: 'unreadable' });
    req.on('data', onData).on('end', onEnd).on('error', onFailure).on('close', onFailure);
  });
}
