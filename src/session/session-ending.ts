import { Injectable } from '@nestjs/common';
import { AppLogger } from '../logging/app-logger';
import type { ListedSession, SessionRecord } from './sessions';
import { Sessions } from './sessions';
import { OwedLogout, owedLogouts } from './owed-logouts';
import { RevocationQueue } from './revocation-queue';
import { HandedTokens } from './handed-tokens';

/**
 * Who is told when a session ends (the port). Back-channel logout implements it (it sends each brand
 * that asked a logout token) and registers itself at start; the session layer never imports it.
 */
export interface SessionEndNotifier {
  /**
   * Called once per ended session that owed a brand something (owed-logouts.ts); must not throw or
   * make the ending wait. `sub` is the collector's user id, the `uid` of their access tokens.
   */
  sessionEnded(ended: { readonly sub: string; readonly owed: readonly OwedLogout[] }): void;
}

export type EndReason =
  | 'signout'
  | 'api'
  | 'session-page'
  | 'everywhere'
  | 'idp-backchannel'
  /** Unused past the idle timeout, or past its absolute lifetime (ASVS 5.0 7.3.1, 7.3.2). */
  | 'lapsed'
  /** The browser signed in again: its previous session ends, refresh token and all. */
  | 'signed-in-again';

/** The endings that are the collector (or the IdP for them) signing out, everywhere it reaches. */
const SIGNOUT_REASONS: ReadonlySet<EndReason> = new Set([
  'signout',
  'api',
  'session-page',
  'everywhere',
  'idp-backchannel',
]);

/**
 * Every way a session ends goes through here (sign-out, the account API, the session management
 * page, the IdP's back-channel logout), so each ending does the same three things: the record and its
 * index entries go, its refresh token is revoked at the IdP, and the brands that asked for it get a
 * back-channel logout token (issue 7).
 */
@Injectable()
export class SessionEnding {
  private readonly notifiers: SessionEndNotifier[] = [];

  constructor(
    private readonly sessions: Sessions,
    private readonly logger: AppLogger,
    private readonly revocations: RevocationQueue,
    private readonly handed: HandedTokens,
  ) {
    this.logger.setContext(SessionEnding.name);
  }

  /** Registers a notifier (back-channel logout does, when its module starts). */
  addNotifier(notifier: SessionEndNotifier): void {
    this.notifiers.push(notifier);
  }

  /** By the id the browser holds; the ended record, if there was one. */
  async endById(id: unknown, reason: EndReason): Promise<SessionRecord | undefined> {
    const record = await this.sessions.delete(id);
    if (record) await this.afterEnd(record, reason);
    return record;
  }

  /** By its handle (the session management page names sessions this way). */
  async endByHandle(handle: string, reason: EndReason): Promise<SessionRecord | undefined> {
    const record = await this.sessions.deleteByHandle(handle);
    if (record) await this.afterEnd(record, reason);
    return record;
  }

  /** Every session of one collector but `keep` (a handle); how many ended. */
  async endAllOf(sub: string, reason: EndReason, keep?: string): Promise<number> {
    return this.endListed(await this.sessions.listForSubject(sub), reason, keep);
  }

  /**
   * Every session of the sign-in `record` belonged to (its family: the browser's own session and the
   * `si` each brand received from it). A sign-out in that browser ends them all: its binding cookie
   * goes, so none of them is usable there any more, and each brand that received one is told.
   */
  async endFamilyOf(record: SessionRecord, reason: EndReason): Promise<number> {
    if (!record.family) return 0;
    const listed = await this.sessions.listForSubject(record.sub);
    return this.endListed(
      listed.filter((s) => s.record.family === record.family),
      reason,
    );
  }

  /** Every session started in one IdP session (back-channel logout by sid). */
  async endByIdpSid(sid: string, reason: EndReason): Promise<number> {
    return this.endListed(await this.sessions.listForIdpSid(sid), reason);
  }

  private async endListed(
    listed: readonly ListedSession[],
    reason: EndReason,
    keep?: string,
  ): Promise<number> {
    let ended = 0;
    for (const { handle } of listed) {
      if (handle === keep) continue;
      if (await this.endByHandle(handle, reason)) ended += 1;
    }
    return ended;
  }

  private async afterEnd(record: SessionRecord, reason: EndReason): Promise<void> {
    this.logger.info({ event: 'session-ended', reason, brand: record.brand }, 'session ended');
    // The session's own refresh token always goes. The grants it handed to brands (issue 31 item 4)
    // go only when the collector signs out: a new sign-in or a lapse here is no reason to sign a
    // brand out.
    const signedOut = SIGNOUT_REASONS.has(reason);
    const handedOver = signedOut ? (record.tokens.handedOver ?? []) : [];
    // Issue 32 item 2: the access tokens handed to brands from this sign-in sign nobody in any more.
    if (signedOut) await this.handed.familyEnded(record.family);
    if (record.tokens.refreshToken) await this.revocations.revoke(record.tokens.refreshToken);
    // Each brand's grant with the brand's own client (docs/brand-contract.md §1).
    for (const grant of handedOver) {
      if (typeof grant === 'string') await this.revocations.revoke(grant);
      else await this.revocations.revoke(grant.refreshToken, grant.brand);
    }
    // A browser that signs in again has not signed out: its brands are not told (the new sign-in may
    // even continue the same IdP session); only the old refresh token goes.
    if (reason === 'signed-in-again') return;
    // docs/brand-contract.md §7: only the brands this session handed something to are told.
    const owed = owedLogouts(record);
    if (owed.length === 0) return;
    for (const notifier of this.notifiers) notifier.sessionEnded({ sub: record.sub, owed });
  }
}
