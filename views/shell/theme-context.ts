import { createContext } from 'react';
import type { Theme } from './shell-data';

export interface ThemeControl {
  readonly theme: Theme;
  /** Switches light <-> dark and saves the choice in the theme cookie (§4 Other, §9). */
  readonly toggle: () => void;
}

/**
 * The current theme and its switch. On the server the value is fixed (from the theme cookie); in the
 * browser the client's provider makes toggle work. Components read it with useContext.
 */
export const ThemeContext = createContext<ThemeControl>({
  theme: 'light',
  toggle: () => undefined,
});
