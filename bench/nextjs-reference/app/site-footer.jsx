// The service's default footer: five link lists, the privacy-choices button, the logo, the copyright
// and the social links.
import { SocialIcon } from './icons';

const PSA = 'https://dev.psacard.com';
const COLLECTORS = 'https://dev.collectors.com';
const CID = 'https://dev-cid.collectors.com';

const SECTIONS = [
  {
    key: 'company',
    heading: 'Company',
    items: [
      { label: 'About Us', href: `${PSA}/about` },
      { label: 'Careers', href: `${COLLECTORS}/careers` },
      { label: 'Press & Media', href: `${PSA}/press` },
      { label: 'Apps', href: `${PSA}/apps` },
    ],
  },
  {
    key: 'resources',
    heading: 'Resources',
    items: [
      { label: 'Sales', href: `${PSA}/sales` },
      { label: 'Advertise With Us', href: `${PSA}/advertise` },
      { label: 'Forums', href: `${COLLECTORS}/forums` },
      { label: 'Articles', href: `${PSA}/articles` },
    ],
  },
  {
    key: 'affiliates',
    heading: 'Affiliates',
    items: [
      { label: 'Collectors', href: `${COLLECTORS}/` },
      { label: 'Card Ladder', href: 'https://www.cardladder.com/' },
      { label: 'Long Beach Expo', href: 'https://www.longbeachexpo.com/' },
      { label: 'PSA Japan', href: 'https://dev.psacard.co.jp/' },
    ],
  },
  {
    key: 'privacyAndTerms',
    heading: 'Privacy & Terms',
    items: [
      { label: 'Privacy', href: 'https://dev-privacy.collectors.com/' },
      {
        label: 'Your Privacy Choices',
        consent: 'yourPrivacyChoices',
        description: 'Open the privacy preferences dialog',
      },
      { label: 'Guarantee', href: `${PSA}/guarantee` },
      { label: 'Terms & Conditions', href: `${PSA}/terms` },
    ],
  },
  {
    key: 'support',
    heading: 'Support',
    items: [
      { label: 'Help & Support', href: `${PSA}/support` },
      { label: 'Customer Request Center', href: `${CID}/requestcenter` },
      {
        label: 'Find My Package',
        href: `${CID}/myorders`,
        hint: { id: 'footer-findMyPackage-hint', text: 'Track it from My Orders' },
      },
      { label: 'FAQ', href: `${PSA}/faq` },
    ],
  },
];

const SOCIAL = [
  { network: 'facebook', href: 'https://www.facebook.com/PSAcard', name: 'Facebook' },
  { network: 'x', href: 'https://x.com/PSAcard', name: 'X' },
  { network: 'instagram', href: 'https://www.instagram.com/psacard/', name: 'Instagram' },
  { network: 'youtube', href: 'https://www.youtube.com/@PSAcard', name: 'YouTube' },
];

function FooterItem({ item }) {
  if (item.consent) {
    const descriptionId = `footer-${item.consent}-description`;
    return (
      <li className="site-footer__item">
        <button
          type="button"
          className="site-footer__action"
          data-consent-open={item.consent}
          aria-haspopup="dialog"
          aria-describedby={descriptionId}
        >
          {item.label}
        </button>
        <span id={descriptionId} className="visually-hidden">
          {item.description}
        </span>
      </li>
    );
  }
  return (
    <li className="site-footer__item">
      <a className="site-footer__link" href={item.href} aria-describedby={item.hint?.id}>
        {item.label}
      </a>
      {item.hint && (
        <span id={item.hint.id} className="site-footer__hint">
          {item.hint.text}
        </span>
      )}
    </li>
  );
}

export function SiteFooter({ year }) {
  return (
    <footer className="site-footer site-footer--default" aria-label="Site footer">
      <div className="site-footer__inner">
        <nav className="site-footer__grid" aria-label="Footer links">
          {SECTIONS.map((section) => {
            const headingId = `footer-heading-${section.key}`;
            return (
              <div key={section.key} className="site-footer__section">
                <h2 id={headingId} className="site-footer__heading">
                  {section.heading}
                </h2>
                <ul className="site-footer__list" aria-labelledby={headingId}>
                  {section.items.map((item) => (
                    <FooterItem key={item.label} item={item} />
                  ))}
                </ul>
              </div>
            );
          })}
        </nav>
        <div className="site-footer__bottom">
          <img
            className="site-footer__logo"
            src="/static/brand/logo-psa-color.svg"
            alt="PSA"
            width="46"
            height="32"
            loading="lazy"
            decoding="async"
          />
          <p className="site-footer__copyright">{`© ${year} Collectors Universe, Inc. All rights reserved.`}</p>
          <div className="site-footer__social">
            <h2 id="footer-heading-social" className="visually-hidden">
              Follow us
            </h2>
            <ul className="site-footer__social-list" aria-labelledby="footer-heading-social">
              {SOCIAL.map((s) => (
                <li key={s.network}>
                  <a
                    className="site-footer__social-link"
                    href={s.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${s.name} (opens in a new tab)`}
                  >
                    <SocialIcon network={s.network} />
                  </a>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </footer>
  );
}
