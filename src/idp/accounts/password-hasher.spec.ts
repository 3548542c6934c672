import { scryptSync } from 'node:crypto';
import { SCRYPT_PARAMETERS, hashPassword, needsRehash, verifyPassword } from './password-hasher';

// Real scrypt at production parameters (150-240 ms of CPU a hash, several a test), on cores the
// browser and integration tiers share in `npm test`: Jest's 5 s default is too tight under load.
jest.setTimeout(30_000);

describe('password hasher', () => {
  const password = 'Corr3ct horse!';
  let encoded: string;

  beforeAll(async () => {
    encoded = await hashPassword(password);
  });

  it('encodes as scrypt$N$r$p$salt$hash with OWASP parameters, a 16-byte salt and a 32-byte key', () => {
    const match = /^scrypt\$16384\$8\$5\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(encoded);
    expect(match).not.toBeNull();
    expect(Buffer.from(match?.[1] ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(match?.[2] ?? '', 'base64url')).toHaveLength(32);
    expect(encoded).not.toContain(password);
  });

  it('is plain scrypt: the stored key is scrypt(password, salt) with the written parameters', () => {
    const [, , , , salt = '', key = ''] = encoded.split('$');
    const expected = scryptSync(password, Buffer.from(salt, 'base64url'), 32, {
      ...SCRYPT_PARAMETERS,
      maxmem: 64 * 1024 * 1024,
    });
    expect(expected.toString('base64url')).toBe(key);
  });

  it('salts every hash: the same password hashes differently', async () => {
    expect(await hashPassword(password)).not.toBe(encoded);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    expect(await verifyPassword(password, encoded)).toBe(true);
    expect(await verifyPassword('Corr3ct horse?', encoded)).toBe(false);
    expect(await verifyPassword('corr3ct horse!', encoded)).toBe(false);
    expect(await verifyPassword('', encoded)).toBe(false);
  });

  it('treats composed and decomposed accents as the same password (NFKC)', async () => {
    const hash = await hashPassword('Caf\u00e9-Cr\u00e8me1');
    expect(await verifyPassword('Cafe\u0301-Cre\u0300me1', hash)).toBe(true);
  });

  it('reads other parameters from the encoding, and says they need a rehash', async () => {
    const salt = Buffer.alloc(16, 7);
    const key = scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 });
    const old = `scrypt$1024$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
    expect(await verifyPassword(password, old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(encoded)).toBe(false);
  });

  const [n, r, p, salt, key] = ['16384', '8', '5', 'A'.repeat(22), 'A'.repeat(43)];
  // Damaged or hostile encodings: each must answer false (and need a rehash), never throw.
  const malformed: ReadonlyArray<readonly [string, string]> = [
    ['empty', ''],
    ['another algorithm', `bcrypt$${n}$${r}$${p}$${salt}$${key}`],
    ['too few fields', `scrypt$${n}$${r}$${p}$${salt}`],
    ['too many fields', `scrypt$${n}$${r}$${p}$${salt}$${key}$x`],
    ['N not a power of two', `scrypt$16000$${r}$${p}$${salt}$${key}`],
    ['N too large (memory bomb)', `scrypt$${2 ** 24}$${r}$${p}$${salt}$${key}`],
    ['N not decimal', `scrypt$0x4000$${r}$${p}$${salt}$${key}`],
    ['r zero', `scrypt$${n}$0$${p}$${salt}$${key}`],
    ['p too large', `scrypt$${n}$${r}$1000$${salt}$${key}`],
    ['salt not base64url', `scrypt$${n}$${r}$${p}$${'+'.repeat(22)}$${key}`],
    ['salt too short', `scrypt$${n}$${r}$${p}$AAAA$${key}`],
    ['key empty', `scrypt$${n}$${r}$${p}$${salt}$`],
    ['key too long', `scrypt$${n}$${r}$${p}$${salt}$${'A'.repeat(200)}`],
  ];
  for (const [why, bad] of malformed) {
    it(`refuses a malformed encoding without throwing: ${why}`, async () => {
      await expect(verifyPassword(password, bad)).resolves.toBe(false);
      expect(needsRehash(bad)).toBe(true);
    });
  }

  it('refuses an absurdly long password without hashing it', async () => {
    await expect(verifyPassword('x'.repeat(1_000_000), encoded)).resolves.toBe(false);
  });
});
