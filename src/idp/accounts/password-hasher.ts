import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { MAX_PASSWORD_LENGTH, normalizePassword } from './password-policy';

/**
 * scrypt parameters for new hashes: N=2^14, r=8, p=5 is one of OWASP's equivalent minimum
 * configurations (Password Storage Cheat Sheet); each hash needs 128 * N * r = 16 MiB of memory.
 * They are written into every encoding so they can be raised later without invalidating old hashes
 * (needsRehash tells the caller to re-hash at the next successful sign-in).
 */
export const SCRYPT_PARAMETERS = { N: 2 ** 14, r: 8, p: 5 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
const ALGORITHM = 'scrypt';

/**
 * Bounds on what we accept when reading an encoding back, so a corrupted or planted row can never
 * make us allocate gigabytes or spin for minutes. The current parameters sit well inside them.
 */
const LIMITS = {
  logN: { min: 10, max: 20 },
  r: { min: 1, max: 32 },
  p: { min: 1, max: 16 },
  bytes: { min: 16, max: 64 },
} as const;

interface ScryptHash {
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Buffer;
  readonly key: Buffer;
}

/** Hashes a password as `scrypt$N$r$p$saltB64url$hashB64url` with a fresh 16-byte random salt. */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = SCRYPT_PARAMETERS;
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, N, r, p);
  return [ALGORITHM, N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * True when the password matches the encoding. A malformed or out-of-bounds encoding, or an absurdly
 * long password, answers false and never throws: a damaged row must look like a wrong password, not
 * a 500. The comparison is constant-time (timingSafeEqual).
 */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parseEncoding(encoded);
  if (!parsed || password.length > MAX_PASSWORD_LENGTH * 4) return false;
  try {
    const key = await derive(
      password,
      parsed.salt,
      parsed.key.length,
      parsed.N,
      parsed.r,
      parsed.p,
    );
    return timingSafeEqual(key, parsed.key);
  } catch {
    return false;
  }
}

/** True when the encoding is not one we would write today (other parameters, sizes, or unreadable). */
export function needsRehash(encoded: string): boolean {
  const parsed = parseEncoding(encoded);
  return (
    !parsed ||
    parsed.N !== SCRYPT_PARAMETERS.N ||
    parsed.r !== SCRYPT_PARAMETERS.r ||
    parsed.p !== SCRYPT_PARAMETERS.p ||
    parsed.salt.length !== SALT_BYTES ||
    parsed.key.length !== KEY_BYTES
  );
}

function parseEncoding(encoded: unknown): ScryptHash | undefined {
  if (typeof encoded !== 'string') return undefined;
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== ALGORITHM) return undefined;
  const [, nText, rText, pText, saltText, keyText] = parts;
  const N = parseDecimal(nText);
  const r = parseDecimal(rText);
  const p = parseDecimal(pText);
  const salt = parseBase64Url(saltText);
  const key = parseBase64Url(keyText);
  if (N === undefined || r === undefined || p === undefined || !salt || !key) return undefined;
  const logN = Math.log2(N);
  const within = (value: number, range: { min: number; max: number }): boolean =>
    value >= range.min && value <= range.max;
  if (!Number.isInteger(logN) || !within(logN, LIMITS.logN)) return undefined;
  if (!within(r, LIMITS.r) || !within(p, LIMITS.p)) return undefined;
  if (!within(salt.length, LIMITS.bytes) || !within(key.length, LIMITS.bytes)) return undefined;
  return { N, r, p, salt, key };
}

function parseDecimal(text: string | undefined): number | undefined {
  return text !== undefined && /^[1-9][0-9]{0,7}$/.test(text) ? Number(text) : undefined;
}

function parseBase64Url(text: string | undefined): Buffer | undefined {
  // Buffer.from ignores characters outside the alphabet; insist on canonical text instead.
  if (text === undefined || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

function derive(
  password: string,
  salt: Buffer,
  keyLength: number,
  N: number,
  r: number,
  p: number,
): Promise<Buffer> {
  // Node refuses to run when 128 * N * r exceeds maxmem (32 MiB by default); allow twice the need.
  const maxmem = 2 * 128 * N * r;
  return new Promise((resolve, reject) => {
    scrypt(normalizePassword(password), salt, keyLength, { N, r, p, maxmem }, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}
