import type { Translate } from '../../src/shared/translate';
import { Spinner, SpinnerGraphic } from './Spinner';

export interface LoadingProps {
  readonly t: Translate;
}

/**
 * §2 Signed-in shell: the page-level overlay while the auth state is being determined, a busy
 * progressbar labelled "Loading". It has no value (the wait has no known length); its ring is
 * decorative because a progressbar's children are presentational.
 */
export function LoadingOverlay({ t }: LoadingProps) {
  return (
    <div className="ui-loading-overlay">
      <div
        role="progressbar"
        aria-label={t('common.loading')}
        aria-busy="true"
        className="ui-loading-overlay-indicator"
      >
        <SpinnerGraphic size="lg" />
      </div>
    </div>
  );
}

/** §2 Signed-in shell: the full loading screen shown while the client-side shell check runs. */
export function LoadingScreen({ t }: LoadingProps) {
  return (
    <div className="ui-loading-screen">
      <Spinner size="xl" t={t} />
    </div>
  );
}
