import type { Translate } from '../../src/shared/translate';
import { JourneyFrame } from '../JourneyFrame';
import type { PageFrameData } from '../shell/shell-data';

export interface DemoBrandPageProps {
  readonly t: Translate;
  readonly frame: PageFrameData;
  readonly brand: string;
  readonly companyName: string;
  /** Whether the token verified, and why not. */
  readonly status: string;
  readonly signedIn: boolean;
  /** How the token came: in the URL, or by a handoff code. */
  readonly how: string;
  readonly sessionId: boolean;
  readonly refreshToken: boolean;
  /** The verified token's claims, in order; none when it did not verify. */
  readonly claims: readonly (readonly [string, string])[];
  /** Where the brand would go on, when the journey said. */
  readonly returnTo?: string;
  readonly signOutHref: string;
}

/**
 * The stand-in brand site of local and dev (src/demo): what a brand received and verified. A
 * developer's view, in English, in the product's frame and card, so the end of a walked journey
 * looks like the rest of it.
 */
export function DemoBrandPage(props: DemoBrandPageProps) {
  const { t, frame } = props;
  return (
    <JourneyFrame frame={frame} t={t}>
      <h1>{`Demo brand site: ${props.companyName} (${props.brand})`}</h1>
      <p className="intro">
        This page stands in for the brand’s own site in local and dev, in English: it is a
        developer’s view of what the brand received. What a real brand site receives and must check
        is the brand contract (docs/brand-contract.md); a site to copy is examples/brand-site.
      </p>
      <p
        role="status"
        data-testid="status"
        className={props.signedIn ? 'notice' : 'notice notice--problem'}
      >
        {props.status}
      </p>
      <dl className="tool-facts">
        <div>
          <dt>Received by</dt>
          <dd>{props.how}</dd>
        </div>
        <div>
          <dt>Session id (si)</dt>
          <dd>{props.sessionId ? 'received' : 'none'}</dd>
        </div>
        <div>
          <dt>Refresh token (rt)</dt>
          <dd>{props.refreshToken ? 'received' : 'none'}</dd>
        </div>
        {props.claims.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd data-claim={name}>{value}</dd>
          </div>
        ))}
      </dl>
      {props.returnTo ? (
        <p>
          <span>The brand would now continue to:</span> <code>{props.returnTo}</code>
        </p>
      ) : null}
      <div className="actions">
        <a className="button secondary message-action" href={props.signOutHref}>
          Sign out
        </a>
      </div>
    </JourneyFrame>
  );
}
