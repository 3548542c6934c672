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
 * store), in the frame of the brand the request named and the language of its ui_locales, when the
 * provider got as far as reading its parameters (issue 14 items 2 and 3).
 */
export function ProviderErrorPage({ t, frame, code, advice, reference }: ProviderErrorPageProps) {
  return (
    <JourneyFrame frame={frame} t={t}>
      <h1>{t('common.idp.errorTitle')}</h1>
      <p role="alert">
        {t('common.idp.errorLabel')} <code>{code}</code>
      </p>
      <p>{advice}</p>
      {reference ? (
        <p className="reference">
          {t('common.idp.referenceLabel')} <code className="reference-id">{reference}</code>
        </p>
      ) : null}
    </JourneyFrame>
  );
}
