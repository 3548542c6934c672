import { Injectable } from '@nestjs/common';
import { AppMetrics } from '../metrics';
import { matchesBinding } from './browser-binding';
import { SessionRecord, Sessions } from './sessions';
import { SessionEnding } from './session-ending';
import { TokenRefresher } from './token-refresher';
import { AppLogger } from '../logging/app-logger';

/**
 * A live session: one that exists, belongs to this browser (its binding cookie matches, issue 14
 * item 4: an `si` alone signs nobody in), and whose tokens are usable, refreshed once if they are not
 * (§4 Token handling). Every reader of "who is signed in" goes through here: /signin, the guarded
 * shell pages, the account API's context. So the session is read, checked, refreshed and touched the
 * same way everywhere.
 */
@Injectable()
export class LiveSessions {
  constructor(
    private readonly sessions: Sessions,
    private readonly logger: AppLogger,
    private readonly refresher: TokenRefresher,
    private readonly ending: SessionEnding,
    metrics: AppMetrics,
  ) {
    // live_sessions: the store's count of sessions not yet lapsed (Sessions.countLive), read when
    // scraped, so it is the same on every instance.
    metrics.watchLiveSessions(() => this.sessions.countLive());
  }

  /** The session the browser's id names, bound to its binding, with usable tokens; else undefined. */
  async read(
    sessionId: string | undefined,
    binding: string | undefined,
  ): Promise<SessionRecord | undefined> {
    const record = await this.bound(sessionId, binding);
    if (!record || !sessionId) return undefined;
    const fresh = await this.refresher.ensureFresh(sessionId, record);
    return fresh ? this.sessions.touch(sessionId, fresh) : undefined;
  }

  /**
   * Which of the session ids the browser sent is its own (docs/security.md, a shadowed session
   * cookie): the first whose session is bound to the browser's binding. A browser sends every
   * `sessionId` cookie it holds, a sibling subdomain's planted `sessionId; Domain=.collectors.com;
   * Path=/collection` before ours, and taking the first signed the collector out on that path and
   * back in on /signin, round and round. With one id (every browser nobody planted cookies in) it
   * is that id, unread: its reader checks the binding anyway. With none bound, the first, which
   * names no session of this browser's.
   */
  async sessionIdOf(
    candidates: readonly string[],
    binding: string | undefined,
  ): Promise<string | undefined> {
    if (candidates.length <= 1) return candidates[0];
    for (const id of candidates) {
      const record = await this.sessions.get(id);
      if (record && matchesBinding(record.bindingHash, binding)) return id;
    }
    return candidates[0];
  }

  /** The session if it exists and the browser holds its binding; no refresh, no touch. */
  async bound(
    sessionId: string | undefined,
    binding: string | undefined,
  ): Promise<SessionRecord | undefined> {
    if (!sessionId) return undefined;
    const record = await this.sessions.get(sessionId);
    if (!record) {
      // The browser is signed out. Which of these it was, nothing kept can tell: the record is
      // gone, or it cannot be found or opened (docs/operating.md "Rotating secrets": a secret or
      // token key taken out of the ring, or one instance running a key another does not have yet).
      this.logger.info(
        { context: LiveSessions.name, event: 'session-unknown' },
        'the session cookie names no session: it ended, the store forgot it, or it was made ' +
          'under a SESSION_SECRET or sealed with a TOKEN_ENCRYPTION_KEYS key not in the ring; ' +
          'signed out',
      );
      return undefined;
    }
    if (!matchesBinding(record.bindingHash, binding)) return undefined;
    if (this.sessions.hasLapsed(record)) {
      // Over: ended as any sign-out is, so its refresh token is revoked too (issue 15 item 9).
      await this.ending.endById(sessionId, 'lapsed');
      return undefined;
    }
    return record;
  }
}
