/**
 * §7 "Input is serialized in a custom hex-encoded JSON form": the lower-case hex of the UTF-8 bytes
 * of the input's JSON text. One implementation for the server and the browser bundle (no Buffer, no
 * server imports), so the two sides cannot drift.
 */

/** Inputs above this size (in hex characters) are refused before decoding. */
export const MAX_HEX_INPUT = 64 * 1024;
const HEX = /^(?:[0-9a-f]{2})*$/;
const BYTE_TO_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const encoder = new TextEncoder();
/** fatal: invalid UTF-8 is an error, not silently replaced. */
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Why a hex input was refused; the server turns it into BAD_REQUEST. */
export class HexJsonError extends Error {
  override readonly name = 'HexJsonError';
}

export function encodeHexJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  let hex = '';
  for (const byte of encoder.encode(JSON.stringify(value))) hex += BYTE_TO_HEX[byte];
  return hex;
}

export function decodeHexJson(encoded: unknown): unknown {
  if (encoded === undefined || encoded === null) return undefined;
  if (typeof encoded !== 'string' || encoded.length > MAX_HEX_INPUT || !HEX.test(encoded)) {
    throw new HexJsonError('input must be the lower-case hex encoding of a JSON text');
  }
  const bytes = new Uint8Array(encoded.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(encoded.slice(2 * i, 2 * i + 2), 16);
  try {
    return JSON.parse(decoder.decode(bytes)) as unknown;
  } catch {
    throw new HexJsonError('input is not valid JSON once decoded');
  }
}

/** tRPC's transformer form with separate input and output encodings: inputs hex, outputs plain JSON. */
export const hexJsonTransformer = {
  input: { serialize: encodeHexJson, deserialize: decodeHexJson },
  output: { serialize: (value: unknown) => value, deserialize: (value: unknown) => value },
};
