import { useCallback, useMemo, useState } from 'react';
import type { Theme } from '../../views/shell/shell-data';
import type { ThemeControl } from '../../views/shell/theme-context';
import type { ApiClient } from '../api/api-client';

export const THEME_CLASSES: Record<Theme, string> = { light: 'theme-light', dark: 'theme-dark' };

/** Puts the theme's class on <html> (the stylesheets switch their variables on it). */
export function applyTheme(root: Element, theme: Theme): void {
  root.classList.remove(...Object.values(THEME_CLASSES));
  root.classList.add(THEME_CLASSES[theme]);
}

/**
 * §4 Other: toggling switches light <-> dark at once and saves the choice in the theme cookie through
 * cookie.setCookie (unbatched, §7). A failed save keeps the switch for this page and is not retried.
 */
export function useThemeControl(initial: Theme, api: ApiClient): ThemeControl {
  const [theme, setTheme] = useState<Theme>(initial);
  const toggle = useCallback(() => {
    setTheme((current) => {
      const next: Theme = current === 'dark' ? 'light' : 'dark';
      applyTheme(document.documentElement, next);
      void api.cookie.setCookie.mutate({ cookieName: 'theme', value: next }).catch(() => undefined);
      return next;
    });
  }, [api]);
  return useMemo(() => ({ theme, toggle }), [theme, toggle]);
}
