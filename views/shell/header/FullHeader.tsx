import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { isDeveloperEnv } from '../../../src/shared/environment';
import type { Translate } from '../../../src/shared/translate';
import { Button } from '../../ui/Button';
import { BrandLogo } from '../BrandLogo';
import type { ShellData } from '../shell-data';
import { AccountMenu } from './AccountMenu';
import { debounce } from './debounce';
import { DesktopNav } from './DesktopNav';
import { brandLogo } from './header-brand';
import {
  DESKTOP_MIN_WIDTH,
  MENU_RESIZE_DELAY_MS,
  accountMenu,
  desktopNav,
  signInLink,
  homeHref,
  mobileNav,
  startSubmissionLink,
} from './header-nav';
import {
  ACCOUNT_MENU_KEY,
  CLOSED_MENUS,
  closeDropdown,
  closeMobilePanel,
  toggleDropdown,
  toggleMobilePanel,
  toggleSection,
  viewportChanged,
  type HeaderMenus,
} from './header-state';
import { CloseIcon, MenuIcon } from './icons';
import { MOBILE_PANEL_ID, MobilePanel } from './MobilePanel';
import { ThemeSwitch } from './ThemeSwitch';

export interface FullHeaderProps {
  readonly data: ShellData;
  readonly t: Translate;
}

/**
 * §2 full header, the grading brand's site header: skip link, logo, desktop navigation with
 * dropdowns, start-submission button, account menu (the alternative one in the collectors brand's
 * shell), the dark-mode switch (local and dev only) and, below the desktop width, a menu button that
 * opens the mobile panel (the shared site sections and the settings menu). Everything renders closed on
 * the server and on the first client render; menus open only through events after hydration.
 */
export function FullHeader({ data, t }: FullHeaderProps) {
  const desktop = useMemo(() => desktopNav(data), [data]);
  const account = useMemo(() => accountMenu(data), [data]);
  const mobile = useMemo(() => mobileNav(data), [data]);
  const signIn = signInLink(data.locale);
  const submit = useMemo(() => startSubmissionLink(data), [data]);
  const [menus, setMenus] = useState<HeaderMenus>(CLOSED_MENUS);
  const mobileToggle = useRef<HTMLButtonElement>(null);

  const toggleMenu = useCallback((key: string) => setMenus((s) => toggleDropdown(s, key)), []);
  const closeMenu = useCallback(() => setMenus(closeDropdown), []);
  const toggleAccount = useCallback(() => toggleMenu(ACCOUNT_MENU_KEY), [toggleMenu]);
  const toggleMobile = useCallback(() => setMenus(toggleMobilePanel), []);
  const escapeMobile = useCallback(() => {
    setMenus(closeMobilePanel);
    mobileToggle.current?.focus();
  }, []);
  const toggleMobileSection = useCallback(
    (key: string) => setMenus((s) => toggleSection(s, key)),
    [],
  );

  // §9 "Menu resize handler delay": once resizing settles, the menus hidden at the new width close.
  useEffect(() => {
    const desktop = window.matchMedia(`(min-width: ${DESKTOP_MIN_WIDTH}px)`);
    const onResize = debounce(
      () => setMenus((s) => viewportChanged(s, desktop.matches)),
      MENU_RESIZE_DELAY_MS,
    );
    window.addEventListener('resize', onResize);
    return () => {
      onResize.cancel();
      window.removeEventListener('resize', onResize);
    };
  }, []);

  const signedIn = data.account?.isSignedIn === true;
  // Issue 33: the session's brand, as in the footer and the favicon (header-brand.ts).
  const logo = brandLogo(data.brand);
  return (
    <header className="site-header">
      <a className="site-header__skip" href="#main">
        {t('header.a11y.skipToMain')}
      </a>
      <div className="site-header__bar">
        <a className="site-header__logo" href={homeHref(data)}>
          <BrandLogo logo={logo} alt={t(`header.logoAlt.${logo}`)} theme={data.theme} />
        </a>
        <div className="site-header__actions">
          <Button href={submit.href} size="md" className="site-header__submit">
            {t(submit.label)}
          </Button>
          {isDeveloperEnv(data.env) ? <ThemeSwitch t={t} pageTheme={data.theme} /> : null}
          <button
            ref={mobileToggle}
            type="button"
            className="site-header__icon-button site-header__mobile-toggle"
            aria-expanded={menus.mobileOpen}
            aria-controls={MOBILE_PANEL_ID}
            aria-label={t(menus.mobileOpen ? 'header.a11y.closeMenu' : 'header.a11y.openMenu')}
            onClick={toggleMobile}
          >
            {menus.mobileOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </div>
      <div className="site-header__desktop-row">
        <DesktopNav
          items={desktop}
          t={t}
          currentPath={data.currentPath}
          openKey={menus.dropdown}
          onToggle={toggleMenu}
          onClose={closeMenu}
        />
        {signedIn ? (
          <AccountMenu
            menu={account}
            t={t}
            currentPath={data.currentPath}
            open={menus.dropdown === ACCOUNT_MENU_KEY}
            onToggle={toggleAccount}
            onClose={closeMenu}
          />
        ) : (
          <a className="site-header__sign-in" href={signIn.href}>
            {t(signIn.label)}
          </a>
        )}
      </div>
      <MobilePanel
        nav={mobile}
        t={t}
        currentPath={data.currentPath}
        open={menus.mobileOpen}
        expanded={menus.sections}
        onToggleSection={toggleMobileSection}
        onEscape={escapeMobile}
        signIn={signedIn ? undefined : signIn}
        submit={submit}
      />
    </header>
  );
}
