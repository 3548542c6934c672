import { createContext } from 'react';
import type { Theme } from './shell-data';

export interface ThemeControl {
  readonly theme: Theme;
  /** Switches light <-> dark and saves the choice in the theme cookie (§4 Other, §9). */
  readonly toggle: () => void;
}

/**
 * The current theme and its switch, provided by the client (client/shell/theme.ts). The server has
 * no provider: there the value is null and components show the page's theme (ShellData.theme, from
 * the theme cookie), which is also the client's first value, so hydration sees the same markup.
 */
export const ThemeContext = createContext<ThemeControl | null>(null);
