// The signed-in header of the service's /collection page: skip link, logo, the submit link, the
// theme and menu buttons, the desktop navigation with its (closed, empty) dropdowns, the account menu.
import { HeaderState, MenuButton, MobilePanel, ThemeSwitch } from './header-controls';
import { ChevronIcon } from './icons';

const GRADING = 'https://dev.psacard.com';

const NAV = [
  { link: 'How It Works', href: `${GRADING}/how-it-works` },
  { menu: 'pricingAndServices', label: 'Pricing & Services' },
  { menu: 'vaultAndSell', label: 'Vault & Sell' },
  { link: 'Set Registry', href: `${GRADING}/setregistry` },
  { menu: 'research', label: 'Research' },
  { menu: 'nearMe', label: 'PSA Near Me' },
];

function Dropdown({ menu, label, end }) {
  const id = `site-header-menu-${menu}`;
  return (
    <div
      className={end ? 'site-header__dropdown site-header__dropdown--end' : 'site-header__dropdown'}
    >
      <button
        type="button"
        className="site-header__dropdown-button"
        aria-expanded="false"
        aria-controls={id}
      >
        <span>{label}</span>
        <ChevronIcon />
      </button>
      <div id={id} className="site-header__dropdown-panel" hidden />
    </div>
  );
}

export function SiteHeader() {
  return (
    <HeaderState>
      <header className="site-header">
        <a className="site-header__skip" href="#main">
          Skip to main content
        </a>
        <div className="site-header__bar">
          <a className="site-header__logo" href={`${GRADING}/`}>
            <img
              src="/static/brand/logo-psa-color.svg"
              alt="PSA home"
              width="46"
              height="32"
              loading="lazy"
              decoding="async"
            />
          </a>
          <div className="site-header__actions">
            <a
              href={`${GRADING}/submit`}
              className="ui-button ui-button--md ui-button--primary site-header__submit"
            >
              Start Submission
            </a>
            <ThemeSwitch />
            <MenuButton />
          </div>
        </div>
        <div className="site-header__desktop-row">
          <nav className="site-header__nav" aria-label="Main navigation">
            <ul className="site-header__nav-list">
              {NAV.map((item) => (
                <li key={item.menu ?? item.href} className="site-header__nav-item">
                  {item.menu ? (
                    <Dropdown menu={item.menu} label={item.label} />
                  ) : (
                    <a className="site-header__nav-link" href={item.href}>
                      {item.link}
                    </a>
                  )}
                </li>
              ))}
            </ul>
          </nav>
          <nav className="site-header__account" aria-label="Account menu">
            <Dropdown menu="account" label="My Account" end />
          </nav>
        </div>
        <MobilePanel />
      </header>
    </HeaderState>
  );
}
