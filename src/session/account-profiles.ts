import { Inject, Injectable } from '@nestjs/common';
import { SESSION_STORE, SessionStore } from '../store/session-store';

/** Profiles outlive sessions; the store wants a lifetime, so this is "ten years". */
const PROFILE_TTL_SECONDS = 315_360_000;

export interface AccountProfile {
  readonly acceptedTermsAndConditions?: boolean;
  readonly acceptedTermsAt?: number;
}

/**
 * The account facts this service keeps (§4 After login step 2, §7 account.updateAccountInfoPartial):
 * whether the collector accepted the terms and when. Keyed by the IdP subject; in the session store so
 * every instance sees them.
 */
@Injectable()
export class AccountProfiles {
  constructor(@Inject(SESSION_STORE) private readonly store: SessionStore) {}

  async get(sub: string): Promise<AccountProfile> {
    const raw = await this.store.get(this.key(sub));
    return raw ? (JSON.parse(raw) as AccountProfile) : {};
  }

  async update(
    sub: string,
    patch: { acceptedTermsAndConditions?: boolean },
    now = Date.now(),
  ): Promise<AccountProfile> {
    const current = await this.get(sub);
    const next: AccountProfile = {
      ...current,
      ...(patch.acceptedTermsAndConditions !== undefined
        ? { acceptedTermsAndConditions: patch.acceptedTermsAndConditions, acceptedTermsAt: now }
        : {}),
    };
    await this.store.set(this.key(sub), JSON.stringify(next), PROFILE_TTL_SECONDS);
    return next;
  }

  private key(sub: string): string {
    return `profile:${sub}`;
  }
}
