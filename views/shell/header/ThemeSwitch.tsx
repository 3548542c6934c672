import { useContext } from 'react';
import type { Translate } from '../../../src/shared/translate';
import type { Theme } from '../shell-data';
import { ThemeContext } from '../theme-context';
import { MoonIcon, SunIcon } from './icons';

/**
 * §2 dark-mode switch (sun and moon icons): a toggle button, pressed when the dark theme is on. Its
 * name stays "Dark mode" whatever the state (aria-pressed tells the state); the title says what a
 * press does. The icon shown follows aria-pressed in header.css, so no extra state is needed.
 * `pageTheme` is the page's theme (ShellData.theme): what the server renders, where no ThemeContext
 * is provided; in the browser the context's current theme wins.
 */
export function ThemeSwitch({
  t,
  pageTheme,
}: {
  readonly t: Translate;
  readonly pageTheme: Theme;
}) {
  const control = useContext(ThemeContext);
  const dark = (control?.theme ?? pageTheme) === 'dark';
  return (
    <button
      type="button"
      className="site-header__icon-button site-header__theme"
      aria-pressed={dark}
      aria-label={t('header.themeToggle.darkMode')}
      title={t(dark ? 'header.themeToggle.switchToLight' : 'header.themeToggle.switchToDark')}
      onClick={control?.toggle}
    >
      <SunIcon className="site-header__theme-sun" />
      <MoonIcon className="site-header__theme-moon" />
    </button>
  );
}
