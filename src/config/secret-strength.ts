/**
 * How varied a secret is (docs/security.md, weak secrets): qa and prod refuse secrets that a person
 * typed rather than generated. Not a strength meter: a rule that refuses the obvious mistakes (one
 * character repeated, a few characters in turn, a key of zero bytes) and never a random value.
 */

/**
 * The least Shannon entropy a secret's characters may carry, in bits per character, counted over the
 * secret itself. One character repeated carries 0, two in turn 1, four in turn 2; a random value of
 * 32 characters or more carries about 3.6 (hex), 3.1 (decimal digits) or 4.6 (base64), and in 200,000
 * random values of 32 characters the lowest seen was 2.71 (hex) and 2.38 (digits only).
 */
export const MIN_SECRET_BITS_PER_CHARACTER = 2.5;

/**
 * The fewest different byte values a 32-byte token key may hold. An all-zero key has 1, a byte
 * repeated 1, a pattern of n bytes repeated n; 32 random bytes hold 30 on average and fewer than 16
 * with a probability far below 10^-20.
 */
export const MIN_KEY_DISTINCT_BYTES = 16;

/** The Shannon entropy of the text's characters (code points), in bits per character; 0 for ''. */
export function bitsPerCharacter(text: string): number {
  const counts = new Map<string, number>();
  let length = 0;
  for (const character of text) {
    counts.set(character, (counts.get(character) ?? 0) + 1);
    length++;
  }
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** A secret whose characters vary too little, or undefined when it is varied enough. */
export function lowVariety(secret: string): { readonly bits: number } | undefined {
  const bits = bitsPerCharacter(secret);
  return bits < MIN_SECRET_BITS_PER_CHARACTER ? { bits } : undefined;
}

/** How many different byte values the key holds. */
export function distinctBytes(key: Uint8Array): number {
  return new Set(key).size;
}

/** Standard or URL-safe base64, with or without padding. */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * The bytes a secret could be used as: its text as UTF-8 and, when the text is base64, what it
 * decodes to (a token key is written in base64, so `SESSION_SECRET=<the key's base64>` is the key).
 */
export function secretMaterial(secret: string | Uint8Array): readonly Buffer[] {
  if (typeof secret !== 'string') return [Buffer.from(secret)];
  const text = Buffer.from(secret, 'utf8');
  return BASE64.test(secret) ? [text, Buffer.from(secret, 'base64')] : [text];
}

/** Whether two secrets are the same key material in any of their forms. */
export function sameSecret(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const theirs = secretMaterial(b);
  return secretMaterial(a).some((mine) => theirs.some((other) => mine.equals(other)));
}
