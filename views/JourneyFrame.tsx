import type { ReactNode } from 'react';
import type { Translate } from '../src/shared/translate';
import { Footer } from './shell/footer/Footer';
import { SimpleHeader } from './shell/header/SimpleHeader';
import type { PageFrameData } from './shell/shell-data';

export interface JourneyFrameProps {
  readonly frame: PageFrameData;
  readonly t: Translate;
  readonly children: ReactNode;
  /** A wider card, for a table (the local tools' pages). */
  readonly wide?: boolean;
}

/**
 * The frame of the journey's server-only pages (the IdP's sign-in steps, the message pages): a skip
 * link, the §2 simple header with the logo of the brand the collector came from, the page in a card,
 * and the legal footer (the power-pack footer for powerpacks, see footerVariantFor). Issue 14 item 3.
 *
 * Debt: these pages load no bundle (they work without JavaScript; a sign-in step has only its
 * inline check of empty fields), so the footer's 'your privacy choices' / 'cookie preferences'
 * button cannot open the consent manager here as it does on the hydrated shell pages; it needs a
 * small consent-only script from client/.
 */
export function JourneyFrame({ frame, t, children, wide }: JourneyFrameProps) {
  // The theme the collector chose in the shell (§4 Other), on the frame: the stylesheets switch
  // their colours on this class as the shell's do on <html>. Without one the page is light.
  return (
    <div className={frame.theme ? `shell theme-${frame.theme}` : 'shell'}>
      <a className="skip-link" href="#main">
        {t('header.a11y.skipToMain')}
      </a>
      <SimpleHeader data={frame} t={t} />
      <main
        id="main"
        className={wide ? 'signin-card signin-card--wide' : 'signin-card'}
        tabIndex={-1}
      >
        {children}
      </main>
      <Footer data={frame} t={t} variant="legal" />
    </div>
  );
}
