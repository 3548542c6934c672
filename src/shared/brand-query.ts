import { Brand, DEFAULT_BRAND, isBrand } from './brand';

export type BrandParseResult = { ok: true; brand: Brand } | { ok: false; message: string };

/**
 * §3/§5: `b` is lower-cased, defaults to collectors and must be one of the enumeration.
 * A repeated `b` (an array from the query parser) is rejected rather than guessed at.
 */
export function parseBrandParam(raw: unknown): BrandParseResult {
  if (raw === undefined || raw === '') return { ok: true, brand: DEFAULT_BRAND };
  if (typeof raw !== 'string') return { ok: false, message: 'b must be a single brand code' };
  const lowered = raw.toLowerCase();
  if (isBrand(lowered)) return { ok: true, brand: lowered };
  return { ok: false, message: 'b is not a known brand' };
}
