import { randomBytes } from 'node:crypto';
import { TokenVault } from './token-vault';

const key = (id: string) => ({ id, key: randomBytes(32) });

describe(TokenVault.name, () => {
  const k1 = key('k1');
  const k2 = key('k2');
  const vault = new TokenVault([k1]);
  const tokens = JSON.stringify({ accessToken: 'eyJ.a.b', refreshToken: 'r-1' });

  it('seals so that the tokens do not appear, and opens for the same record', () => {
    const sealed = vault.seal(tokens, 'session:abc');
    expect(sealed).toMatch(/^v1\.k1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(sealed).not.toContain('r-1');
    expect(vault.open(sealed, 'session:abc')).toBe(tokens);
  });

  it('uses a fresh nonce every time', () => {
    expect(vault.seal(tokens, 'c')).not.toBe(vault.seal(tokens, 'c'));
  });

  it('refuses a value moved to another record, tampered, truncated or of another format', () => {
    const sealed = vault.seal(tokens, 'session:abc');
    const [v, id, iv, body = '', tag] = sealed.split('.');
    // The first character carries six whole bits of ciphertext, so changing it always changes the
    // bytes (the last character may carry padding bits that decoding ignores).
    const flipped = `${body.startsWith('A') ? 'B' : 'A'}${body.slice(1)}`;
    expect(flipped).not.toBe(body);
    expect(vault.open(sealed, 'session:other')).toBeUndefined();
    expect(vault.open([v, id, iv, flipped, tag].join('.'), 'session:abc')).toBeUndefined();
    expect(vault.open([v, id, iv, body].join('.'), 'session:abc')).toBeUndefined();
    expect(vault.open(`${sealed}.x`, 'session:abc')).toBeUndefined();
    expect(vault.open(tokens, 'session:abc')).toBeUndefined();
  });

  it('rotates: the newest key seals, older keys still open, removed keys do not', () => {
    const old = vault.seal(tokens, 'c');
    const rotated = new TokenVault([k2, k1]);
    expect(rotated.open(old, 'c')).toBe(tokens);
    expect(rotated.isStale(old)).toBe(true);
    const fresh = rotated.seal(tokens, 'c');
    expect(fresh.startsWith('v1.k2.')).toBe(true);
    expect(rotated.isStale(fresh)).toBe(false);
    expect(new TokenVault([k2]).open(old, 'c')).toBeUndefined();
  });

  it('refuses keys of the wrong size and an empty ring', () => {
    expect(() => new TokenVault([])).toThrow(/at least one key/);
    expect(() => new TokenVault([{ id: 'k', key: randomBytes(16) }])).toThrow(/32 bytes/);
  });
});
