import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type JWK,
  type KeyObject,
  SignJWT,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
} from 'jose';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { describeChanges, privateFile, privateFolder } from '../store/private-files';

/** Where local and dev keep the generated key (mode 0600), so restarts keep the published JWKS. */
export const SIGNING_KEY_FILE = 'service-signing-key.json';

interface LoadedKey {
  readonly privateKey: KeyObject | CryptoKey | Uint8Array;
  readonly publicJwk: JWK;
  readonly kid: string;
}

/**
 * This service's own signing keys: logout tokens to brands are signed with the first (RS256) and
 * the public half of every one is published at /.well-known/jwks.json. From SERVICE_SIGNING_KEY
 * (qa/prod, shared by every instance: one JWK or a ring of them, newest first) or generated once
 * under DATA_DIR (local/dev). A key is published before it signs (docs/operating.md "Rotating
 * secrets"): added second to the ring everywhere, it is in the JWKS brands fetch and cache; moved
 * first once they have it, it signs; the key it replaces stays published until no logout token
 * signed by it is still in flight.
 */
@Injectable()
export class ServiceSigningKey {
  private loaded: Promise<readonly LoadedKey[]> | undefined;
  private readonly logger = new Logger(ServiceSigningKey.name);

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async sign(payload: Record<string, unknown>, typ: string): Promise<string> {
    const [key] = await this.keys();
    if (!key) throw new Error('no signing key');
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', typ, kid: key.kid })
      .sign(key.privateKey);
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    const keys = await this.keys();
    return {
      keys: keys.map((key) => ({ ...key.publicJwk, kid: key.kid, alg: 'RS256', use: 'sig' })),
    };
  }

  private keys(): Promise<readonly LoadedKey[]> {
    this.loaded ??= this.load().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  private async load(): Promise<readonly LoadedKey[]> {
    const ring = this.config.backchannel.signingKeys;
    const jwks = ring ? ring.map((text) => JSON.parse(text) as JWK) : [await this.developerKey()];
    return Promise.all(jwks.map((jwk) => this.loadOne(jwk)));
  }

  private async loadOne(jwk: JWK): Promise<LoadedKey> {
    const privateKey = await importJWK({ ...jwk, alg: 'RS256' }, 'RS256');
    const publicJwk: JWK = { kty: jwk.kty, n: jwk.n, e: jwk.e };
    return { privateKey, publicJwk, kid: await calculateJwkThumbprint(publicJwk) };
  }

  private async developerKey(): Promise<JWK> {
    const file = path.join(this.config.dataDir, SIGNING_KEY_FILE);
    // docs/security.md, secrets at rest: a private key under DATA_DIR is nobody else's to read
    // (0700 folder, 0600 file).
    const changes = [...privateFolder(path.dirname(file)), ...privateFile(file)];
    if (changes.length > 0)
      this.logger.warn(
        `the signing key: made private (0700 folder, 0600 file): ${describeChanges(changes)}`,
      );
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as JWK;
    const { privateKey } = await generateKeyPair('RS256', {
      modulusLength: 2048,
      extractable: true,
    });
    const jwk = await exportJWK(privateKey);
    // wx: two instances starting at once do not overwrite each other's key; the loser reads it.
    try {
      fs.writeFileSync(file, JSON.stringify(jwk), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return JSON.parse(fs.readFileSync(file, 'utf8')) as JWK;
    }
    return jwk;
  }
}
