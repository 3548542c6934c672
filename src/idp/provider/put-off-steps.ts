import type { SessionStore } from '../../store/session-store';
import { TOKEN_TTL } from './okta-shape';

/** The optional steps a collector may put off: "Not now" on PromptSetupMfa, "Skip" on Survey. */
export type PutOffStep = 'setupMfa' | 'survey';

const PUT_OFF_STEPS: readonly PutOffStep[] = ['setupMfa', 'survey'];

/** The put-off steps a stored or handed-over value names (anything else is ignored). */
export function putOffStepsIn(value: unknown): PutOffStep[] {
  return Array.isArray(value) ? PUT_OFF_STEPS.filter((step) => value.includes(step)) : [];
}

/**
 * The key of the login result under which a sign-in hands what the collector put off to the consent
 * prompt that follows it in the same authorization request (oidc-provider keeps a finished
 * interaction's result as the next one's `lastSubmission`). Only then is the IdP session, and so the
 * key its put-off steps are kept under, known (first-party-consent.ts sends such a request through
 * that prompt's interaction).
 */
export const PUT_OFF_RESULT = 'putOff';

/** The store key of what was put off in one IdP session (oidc-provider's session uid). */
export const putOffKey = (sessionUid: string): string => `idp:put-off:${sessionUid}`;

/**
 * What a collector put off during one IdP session (issue 14 item 6), in the IdP's state store. The
 * choice belongs to the sign-in it was made in, as §3's promptMfaSignin flag belongs to the browser
 * until sign-out: the ID tokens of that IdP session say so (promptMfaSignin=false, no showSurvey,
 * oidc-configuration.ts), the pending steps shown to the collector in it leave those steps out, and
 * the next sign-in (a new IdP session) offers them again. It lives as long as the IdP session can.
 */
export class PutOffSteps {
  constructor(private readonly store: SessionStore) {}

  async read(sessionUid: string | undefined): Promise<readonly PutOffStep[]> {
    if (!sessionUid) return [];
    const raw = await this.store.get(putOffKey(sessionUid));
    if (raw === undefined) return [];
    try {
      return putOffStepsIn(JSON.parse(raw));
    } catch {
      return [];
    }
  }

  /** Adds steps to the session's record (nothing to add: nothing written). */
  async add(sessionUid: string | undefined, steps: readonly PutOffStep[]): Promise<void> {
    if (!sessionUid || steps.length === 0) return;
    const all = new Set([...(await this.read(sessionUid)), ...steps]);
    await this.store.set(
      putOffKey(sessionUid),
      JSON.stringify(PUT_OFF_STEPS.filter((step) => all.has(step))),
      TOKEN_TTL.Session,
    );
  }
}
