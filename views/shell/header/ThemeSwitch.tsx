import { useContext } from 'react';
import type { Translate } from '../../translate';
import { ThemeContext } from '../theme-context';
import { MoonIcon, SunIcon } from './icons';

/**
 * §2 dark-mode switch (sun and moon icons): a toggle button, pressed when the dark theme is on. Its
 * name stays "Dark mode" whatever the state (aria-pressed tells the state); the title says what a
 * press does. The icon shown follows aria-pressed in header.css, so no extra state is needed.
 */
export function ThemeSwitch({ t }: { readonly t: Translate }) {
  const { theme, toggle } = useContext(ThemeContext);
  const dark = theme === 'dark';
  return (
    <button
      type="button"
      className="site-header__icon-button site-header__theme"
      aria-pressed={dark}
      aria-label={t('header.themeToggle.darkMode')}
      title={t(dark ? 'header.themeToggle.switchToLight' : 'header.themeToggle.switchToDark')}
      onClick={toggle}
    >
      <SunIcon className="site-header__theme-sun" />
      <MoonIcon className="site-header__theme-moon" />
    </button>
  );
}
