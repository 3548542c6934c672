import type { Translate } from '../../src/shared/translate';
import { JourneyFrame } from '../JourneyFrame';
import type { PageFrameData } from '../shell/shell-data';

export interface ProviderErrorPageProps {
  readonly t: Translate;
  readonly frame: PageFrameData;
  /** The OAuth error code, for the integrating team. */
  readonly code: string;
  readonly advice: string;
  /** The request's reference (its x-request-id), when it has one. */
  readonly reference?: string;
}

/**
 * The embedded IdP's own error page (an authorization request it refuses, an outage of its state
 * store), in the frame of the brand the request named. Its texts are English only: oidc-provider
 * renders it before any locale is known (a known debt, as before).
 */
export function ProviderErrorPage({ t, frame, code, advice, reference }: ProviderErrorPageProps) {
  return (
    <JourneyFrame frame={frame} t={t}>
      <h1>Sign-in could not continue</h1>
      <p role="alert">
        Error: <code>{code}</code>
      </p>
      <p>{advice}</p>
      {reference ? (
        <p>
          Reference: <code>{reference}</code>
        </p>
      ) : null}
    </JourneyFrame>
  );
}
