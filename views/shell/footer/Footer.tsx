import { useContext } from 'react';
import { BrandLogo } from '../BrandLogo';
import type { Translate } from '../../../src/shared/translate';
import type { PageFrameData } from '../shell-data';
import { ShellServicesContext } from '../shell-services';
import { isActiveLink } from '../active-link';
import { footerModel, footerVariantFor, type FooterItem, type FooterVariant } from './footer-links';
import { SocialIcon } from './social-icons';

export interface FooterProps {
  readonly data: PageFrameData;
  readonly t: Translate;
  /** The page's variant; `legal` becomes the brand's own legal footer (footerVariantFor). */
  readonly variant?: FooterVariant;
  /**
   * Opens the consent manager's preference dialog (§2: 'your privacy choices' and 'cookie
   * preferences'). Defaults to the shell services' openConsent, which the client provides.
   */
  readonly onOpenConsent?: () => void;
}

/** §2 Footer: the default, legal or power-pack footer of the signed-in shell. */
export function Footer({ data, t, variant = 'default', onOpenConsent }: FooterProps) {
  const services = useContext(ShellServicesContext);
  const openConsent = onOpenConsent ?? services.openConsent;
  const shown = footerVariantFor(variant, data.brand);
  const model = footerModel(data, shown);
  const entry = (item: FooterItem) => (
    <li key={item.id} className="site-footer__item">
      <FooterEntry item={item} t={t} currentPath={data.currentPath} onOpenConsent={openConsent} />
    </li>
  );

  return (
    <footer
      className={`site-footer site-footer--${shown}`}
      aria-label={t('footer.a11y.footerLabel')}
    >
      <div className="site-footer__inner">
        {model.sections.length > 0 && (
          <nav className="site-footer__grid" aria-label={t('footer.a11y.linksHeading')}>
            {model.sections.map((section) => (
              <div key={section.id} className="site-footer__section">
                <h2 id={`footer-heading-${section.id}`} className="site-footer__heading">
                  {t(section.headingKey)}
                </h2>
                <ul className="site-footer__list" aria-labelledby={`footer-heading-${section.id}`}>
                  {section.items.map(entry)}
                </ul>
              </div>
            ))}
          </nav>
        )}
        <div className="site-footer__bottom">
          {model.logo && (
            <BrandLogo
              className="site-footer__logo"
              logo={model.logo.logo}
              alt={t(model.logo.altKey)}
              theme={data.theme}
            />
          )}
          <p className="site-footer__copyright">{t(model.copyrightKey, { year: data.year })}</p>
          {model.bottomLinks.length > 0 && (
            <nav className="site-footer__legal" aria-label={t('footer.a11y.bottomLinksLabel')}>
              <ul className="site-footer__legal-list">{model.bottomLinks.map(entry)}</ul>
            </nav>
          )}
          {model.social.length > 0 && (
            <div className="site-footer__social">
              <h2 id="footer-heading-social" className="visually-hidden">
                {t('footer.bottomBar.socialHeading')}
              </h2>
              <ul className="site-footer__social-list" aria-labelledby="footer-heading-social">
                {model.social.map((social) => (
                  <li key={social.network}>
                    <a
                      className="site-footer__social-link"
                      href={social.href}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={t(social.labelKey)}
                    >
                      <SocialIcon network={social.network} />
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </div>
    </footer>
  );
}

interface FooterEntryProps {
  readonly item: FooterItem;
  readonly t: Translate;
  readonly currentPath: string;
  readonly onOpenConsent: () => void;
}

/** One link (aria-current when it is this page) or one consent button. Ids are fixed per entry. */
function FooterEntry({ item, t, currentPath, onOpenConsent }: FooterEntryProps) {
  if (item.kind === 'consent') {
    const descriptionId = `footer-${item.id}-description`;
    return (
      <>
        <button
          type="button"
          className="site-footer__action"
          data-consent-open={item.id}
          aria-haspopup="dialog"
          aria-describedby={descriptionId}
          onClick={() => onOpenConsent()}
        >
          {t(item.labelKey)}
        </button>
        <span id={descriptionId} className="visually-hidden">
          {t(item.descriptionKey)}
        </span>
      </>
    );
  }
  const active =
    item.match !== 'never' &&
    isActiveLink(item.href, currentPath, { prefix: item.match === 'prefix' });
  const hintId = item.hintKey ? `footer-${item.id}-hint` : undefined;
  return (
    <>
      <a
        className="site-footer__link"
        href={item.href}
        aria-current={active ? 'page' : undefined}
        aria-describedby={hintId}
      >
        {t(item.labelKey)}
      </a>
      {item.hintKey && hintId && (
        <span id={hintId} className="site-footer__hint">
          {t(item.hintKey)}
        </span>
      )}
    </>
  );
}
