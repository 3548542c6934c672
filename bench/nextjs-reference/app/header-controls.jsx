'use client';
// The header's interactive parts, the only client components of the page: the theme switch, the
// menu button and the mobile panel it opens share one state, so the page hydrates as the service's
// does (views/shell/header/FullHeader.tsx, ThemeSwitch.tsx). The rest of the page is server-only.
import { createContext, useContext, useEffect, useState } from 'react';
import { MenuIcon, MoonIcon, SunIcon } from './icons';

const HeaderContext = createContext(null);

export function HeaderState({ children }) {
  const [dark, setDark] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    document.documentElement.className = dark ? 'theme-dark' : 'theme-light';
  }, [dark]);
  return (
    <HeaderContext.Provider value={{ dark, setDark, menuOpen, setMenuOpen }}>
      {children}
    </HeaderContext.Provider>
  );
}

export function ThemeSwitch() {
  const { dark, setDark } = useContext(HeaderContext);
  return (
    <button
      type="button"
      className="site-header__icon-button site-header__theme"
      aria-pressed={dark}
      aria-label="Dark mode"
      title={dark ? 'Switch to light theme' : 'Switch to dark theme'}
      onClick={() => setDark(!dark)}
    >
      <SunIcon className="site-header__theme-sun" />
      <MoonIcon className="site-header__theme-moon" />
    </button>
  );
}

export function MenuButton() {
  const { menuOpen, setMenuOpen } = useContext(HeaderContext);
  return (
    <button
      type="button"
      className="site-header__icon-button site-header__mobile-toggle"
      aria-expanded={menuOpen}
      aria-controls="site-header-mobile-panel"
      aria-label={menuOpen ? 'Close menu' : 'Open menu'}
      onClick={() => setMenuOpen(!menuOpen)}
    >
      <MenuIcon />
    </button>
  );
}

export function MobilePanel() {
  const { menuOpen } = useContext(HeaderContext);
  return <div id="site-header-mobile-panel" className="site-header__mobile" hidden={!menuOpen} />;
}
