import { createCipheriv, createDecipheriv } from 'node:crypto';
import { pooledRandomBytes } from '../common/random-bytes';

/** One key of the ring: its id (written beside what it sealed) and 32 bytes of AES-256 key. */
export interface VaultKey {
  readonly id: string;
  readonly key: Buffer;
}

const VERSION = 'v1';
/** 96-bit nonces, the size GCM is defined for (NIST SP 800-38D §5.2.1.1). */
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Tokens at rest (issue 15 item 9, ASVS 5.0 11.6/14.2): what the session store keeps of a collector's
 * tokens is sealed with AES-256-GCM, so a copy of the SQLite file or a Redis dump yields no token. The
 * ring is rotatable: the first key seals, every key opens, and each sealed value names its key. The
 * associated data binds a sealed value to the record it belongs to, so it cannot be moved to another
 * session's record.
 */
export class TokenVault {
  private readonly byId: ReadonlyMap<string, Buffer>;
  private readonly current: VaultKey;

  constructor(keys: readonly VaultKey[]) {
    const [current] = keys;
    if (!current) throw new Error('the token vault needs at least one key');
    for (const { id, key } of keys) {
      if (key.length !== 32) throw new Error(`token key ${id} must be 32 bytes`);
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id))
        throw new Error(`token key id ${id} is not a plain id`);
    }
    this.current = current;
    this.byId = new Map(keys.map(({ id, key }) => [id, key]));
  }

  /** `v1.<key id>.<iv>.<ciphertext>.<tag>`, base64url, for `context` (e.g. the record's store key). */
  seal(plain: string, context: string): string {
    const iv = pooledRandomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv, {
      authTagLength: TAG_BYTES,
    });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, this.current.id, iv, body, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plain text, or undefined: another format, a key no longer in the ring, or tampering. */
  open(sealed: string, context: string): string | undefined {
    const [version, id, iv, body, tag, extra] = sealed.split('.');
    if (version !== VERSION || !id || !iv || body === undefined || !tag || extra !== undefined)
      return undefined;
    const key = this.byId.get(id);
    if (!key) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }

  /** Whether a sealed value was sealed with a key other than the current one (to re-seal it). */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.current.id;
  }
}
