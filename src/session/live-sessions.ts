import { Injectable } from '@nestjs/common';
import { SessionRecord, Sessions } from './sessions';
import { TokenRefresher } from './token-refresh';

/**
 * A live session: one that exists and whose tokens are usable, refreshed once if they are not (§4
 * Token handling). Every reader of "who is signed in" goes through here: /signin, the guarded shell
 * pages, the account API's context. So the session is read, refreshed and touched the same way
 * everywhere.
 */
@Injectable()
export class LiveSessions {
  constructor(
    private readonly sessions: Sessions,
    private readonly refresher: TokenRefresher,
  ) {}

  /** The session the browser's id names, with usable tokens; undefined when signed out. */
  async read(sessionId: string | undefined): Promise<SessionRecord | undefined> {
    if (!sessionId) return undefined;
    const record = await this.sessions.get(sessionId);
    if (!record) return undefined;
    const fresh = await this.refresher.ensureFresh(sessionId, record);
    return fresh ? this.sessions.touch(sessionId, fresh) : undefined;
  }
}
