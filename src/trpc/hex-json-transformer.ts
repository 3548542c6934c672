import { TRPCError } from '@trpc/server';

/** Inputs above this size (in hex characters) are refused before decoding. */
export const MAX_HEX_INPUT = 64 * 1024;
const HEX = /^(?:[0-9a-f]{2})*$/;

/** The hex encoding of the UTF-8 bytes of a JSON text (§7 "custom hex-encoded JSON form"). */
export function encodeHexJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return Buffer.from(JSON.stringify(value), 'utf8').toString('hex');
}

export function decodeHexJson(encoded: unknown): unknown {
  if (encoded === undefined || encoded === null) return undefined;
  if (typeof encoded !== 'string' || encoded.length > MAX_HEX_INPUT || !HEX.test(encoded)) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'input must be the lower-case hex encoding of a JSON text',
    });
  }
  try {
    return JSON.parse(Buffer.from(encoded, 'hex').toString('utf8')) as unknown;
  } catch {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'input is not valid JSON once decoded' });
  }
}

/**
 * The one transformer shared by the server and the browser client (issue 5): inputs travel as hex of
 * their UTF-8 JSON; outputs are plain JSON.
 */
export const hexJsonTransformer = {
  input: { serialize: encodeHexJson, deserialize: decodeHexJson },
  output: { serialize: (value: unknown) => value, deserialize: (value: unknown) => value },
};
