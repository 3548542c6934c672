import { TRPCError } from '@trpc/server';
import { HexJsonError, decodeHexJson, encodeHexJson, hexJsonTransformer } from '../shared/hex-json';

export { MAX_HEX_INPUT, decodeHexJson, encodeHexJson } from '../shared/hex-json';

/**
 * The server's side of the shared transformer (hex-json.ts, which the browser client uses as is): the
 * same encoding, with a refused input reported as BAD_REQUEST and its reason.
 */
export const serverHexJsonTransformer = {
  input: {
    serialize: encodeHexJson,
    deserialize: (encoded: unknown): unknown => {
      try {
        return decodeHexJson(encoded);
      } catch (error) {
        if (error instanceof HexJsonError) {
          throw new TRPCError({ code: 'BAD_REQUEST', message: error.message });
        }
        throw error;
      }
    },
  },
  output: hexJsonTransformer.output,
};

export { hexJsonTransformer };
