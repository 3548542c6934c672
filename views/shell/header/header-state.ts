/**
 * What is open in the full header, and how it changes: pure functions the header applies through
 * useState's functional updates, so the rules are tested without a DOM. At most one desktop dropdown
 * (a navigation dropdown or the account menu) is open at a time.
 */
export interface HeaderMenus {
  /** The key of the open desktop dropdown, or null. */
  readonly dropdown: string | null;
  readonly mobileOpen: boolean;
  /** Keys of the expanded sections of the mobile panel. */
  readonly sections: readonly string[];
}

/** Server render and first client render: everything closed, so hydration matches. */
export const CLOSED_MENUS: HeaderMenus = { dropdown: null, mobileOpen: false, sections: [] };

/** The account menu's key among the dropdowns. */
export const ACCOUNT_MENU_KEY = 'account';

export function toggleDropdown(state: HeaderMenus, key: string): HeaderMenus {
  return { ...state, dropdown: state.dropdown === key ? null : key };
}

export function closeDropdown(state: HeaderMenus): HeaderMenus {
  return state.dropdown === null ? state : { ...state, dropdown: null };
}

export function toggleMobilePanel(state: HeaderMenus): HeaderMenus {
  return { ...state, mobileOpen: !state.mobileOpen, dropdown: null };
}

export function closeMobilePanel(state: HeaderMenus): HeaderMenus {
  return state.mobileOpen ? { ...state, mobileOpen: false } : state;
}

export function toggleSection(state: HeaderMenus, key: string): HeaderMenus {
  return {
    ...state,
    sections: state.sections.includes(key)
      ? state.sections.filter((k) => k !== key)
      : [...state.sections, key],
  };
}

/**
 * After a (debounced, §9) resize: at desktop width the mobile panel closes, since its toggle is hidden
 * there; below it an open desktop dropdown closes, since the desktop navigation is hidden.
 */
export function viewportChanged(state: HeaderMenus, isDesktop: boolean): HeaderMenus {
  return isDesktop ? closeMobilePanel(state) : closeDropdown(state);
}
