import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { Brand } from '../shared/brand';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { TokenVault } from '../store/token-vault';
import { RevocationQueue } from './revocation-queue';

/** The refresh token each brand received last in one browser's sign-in, by brand. */
type Latest = Partial<Record<Brand, string>>;

/**
 * docs/brand-contract.md §6: one live grant per brand per browser. Each brand hop gets a grant of
 * its own (docs/okta.md §3), issued to the brand's client (§1 there); when a brand receives a new one
 * in a browser, the refresh token it received there before is revoked at the IdP, with the brand's
 * credentials. The browser is its binding (the hash of its HttpOnly sessionBinding cookie), which
 * an app's hop leaves in place where it clears `sessionId` (§4 step 7); a new sign-in of the
 * browser, which gets a new binding, carries the record over, so re-authenticating does not leave
 * the earlier grants alive either. Sign-out revokes every grant of the session as before
 * (session-ending.ts). Kept in the session store under `brand-grants:<binding hash>`, sealed like a
 * session's tokens, for a session's lifetime.
 */
@Injectable()
export class BrandGrants {
  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly vault: TokenVault,
    private readonly revocations: RevocationQueue,
  ) {}

  /** `brand` received `refreshToken` in the browser bound by `browser`: its earlier one goes. */
  async received(browser: string | undefined, brand: Brand, refreshToken: string | undefined) {
    if (!browser || !refreshToken) return;
    const key = keyOf(browser);
    const latest = await this.read(key);
    const earlier = latest[brand];
    await this.write(key, { ...latest, [brand]: refreshToken });
    if (earlier !== undefined && earlier !== refreshToken) {
      await this.revocations.revoke(earlier, brand);
    }
  }

  /** The browser signed in again: its new binding `to` inherits what the brands received under `from`. */
  async carryOver(from: string | undefined, to: string | undefined): Promise<void> {
    if (!from || !to || from === to) return;
    const latest = await this.read(keyOf(from));
    if (Object.keys(latest).length === 0) return;
    await this.write(keyOf(to), { ...latest, ...(await this.read(keyOf(to))) });
    await this.store.delete(keyOf(from));
  }

  private async read(key: string): Promise<Latest> {
    const raw = await this.store.get(key);
    const opened = raw === undefined ? undefined : this.vault.open(raw, key);
    return opened === undefined ? {} : (JSON.parse(opened) as Latest);
  }

  private write(key: string, latest: Latest): Promise<void> {
    return this.store.set(
      key,
      this.vault.seal(JSON.stringify(latest), key),
      this.config.sessionLifetime.absoluteSeconds,
    );
  }
}

function keyOf(browser: string): string {
  return `brand-grants:${browser}`;
}
