import { randomBytes } from 'node:crypto';
import {
  MIN_KEY_DISTINCT_BYTES,
  MIN_SECRET_BITS_PER_CHARACTER,
  bitsPerCharacter,
  distinctBytes,
  lowVariety,
  sameSecret,
} from './secret-strength';

/**
 * docs/security.md, weak secrets: what qa and prod call a secret of low variety, and the same
 * secret twice.
 */
describe('bitsPerCharacter', () => {
  it.each([
    ['nothing', '', 0],
    ['one character repeated', 's'.repeat(40), 0],
    ['two characters in turn', 'ab'.repeat(20), 1],
    ['four characters in turn', 'abcd'.repeat(10), 2],
    ['eight characters in turn', 'abcdefgh'.repeat(5), 3],
    ['sixteen different characters', '0123456789abcdef', 4],
    ['a character beyond the BMP counted once', '😀a', 1],
  ])('%s: %d bits', (_name, text, bits) => {
    expect(bitsPerCharacter(text)).toBeCloseTo(bits, 10);
  });
});

describe('lowVariety', () => {
  it.each([
    ['one character repeated', 's'.repeat(40)],
    ['a padding of x', `grading-${'x'.repeat(32)}`],
    ['mostly one character', `${'a'.repeat(40)}Zq9!`],
    ['five characters in turn', 'abcde'.repeat(8)],
  ])('refuses %s', (_name, secret) => {
    expect(lowVariety(secret)?.bits).toBeLessThan(MIN_SECRET_BITS_PER_CHARACTER);
  });

  // A rule that refused a random secret would be a coin toss at every deployment: a thousand of each
  // kind, at the shortest length a secret may have.
  it.each([
    ['hex', (n: number) => randomBytes(n).toString('hex').slice(0, 32)],
    ['base64', (n: number) => randomBytes(n).toString('base64').slice(0, 32)],
    ['base64url', (n: number) => randomBytes(n).toString('base64url').slice(0, 32)],
  ])('never refuses a random %s value of 32 characters', (_name, random) => {
    for (let i = 0; i < 1000; i++) expect(lowVariety(random(32))).toBeUndefined();
  });

  it.each([
    ['an Okta client secret', 'cz3gmjHNuX0g5qySnAXq-i3dg9tHpG7CAh9030vo'],
    ['the developer session secret', 'local-dev-session-secret-not-for-real-use-0001'],
    ['a passphrase', 'correct horse battery staple, mauve ledger'],
  ])('takes %s', (_name, secret) => {
    expect(lowVariety(secret)).toBeUndefined();
  });
});

describe('distinctBytes', () => {
  it.each([
    ['an all-zero key', Buffer.alloc(32), 1],
    ['one byte repeated', Buffer.alloc(32, 7), 1],
    ['a pattern of eight bytes repeated', Buffer.from('01234567'.repeat(4)), 8],
    ['fifteen values', Buffer.from('0123456789abcde'.repeat(3).slice(0, 32)), 15],
  ])('%s: %d, under the minimum', (_name, key, count) => {
    expect(distinctBytes(key)).toBe(count);
    expect(count).toBeLessThan(MIN_KEY_DISTINCT_BYTES);
  });

  it('32 random bytes are always above it', () => {
    for (let i = 0; i < 1000; i++)
      expect(distinctBytes(randomBytes(32))).toBeGreaterThanOrEqual(MIN_KEY_DISTINCT_BYTES);
  });
});

describe('sameSecret', () => {
  const key = randomBytes(32);
  const text = randomBytes(24).toString('base64');
  it.each<[string, string | Uint8Array, string | Uint8Array, boolean]>([
    ['the same text', text, text, true],
    ['a key and its base64', key, key.toString('base64'), true],
    ['a key and its base64url', key.toString('base64url'), key, true],
    ['a key and the text that is its bytes', Buffer.from(text, 'utf8'), text, true],
    ['two texts', text, randomBytes(24).toString('base64'), false],
    ['two keys', key, randomBytes(32), false],
    ['a key and an unrelated text', key, 'correct horse battery staple, mauve ledger', false],
  ])('%s', (_name, a, b, same) => {
    expect(sameSecret(a, b)).toBe(same);
    expect(sameSecret(b, a)).toBe(same);
  });
});
