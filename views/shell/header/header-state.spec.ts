import {
  CLOSED_MENUS,
  closeDropdown,
  closeMobilePanel,
  toggleDropdown,
  toggleMobilePanel,
  toggleSection,
  viewportChanged,
  type HeaderMenus,
} from './header-state';

const state = (overrides: Partial<HeaderMenus>): HeaderMenus => ({ ...CLOSED_MENUS, ...overrides });

describe('header menus', () => {
  it.each<[string, HeaderMenus, (s: HeaderMenus) => HeaderMenus, HeaderMenus]>([
    [
      'a dropdown opens',
      CLOSED_MENUS,
      (s) => toggleDropdown(s, 'research'),
      state({ dropdown: 'research' }),
    ],
    [
      'its button closes it again',
      state({ dropdown: 'research' }),
      (s) => toggleDropdown(s, 'research'),
      CLOSED_MENUS,
    ],
    [
      'opening another closes the first',
      state({ dropdown: 'research' }),
      (s) => toggleDropdown(s, 'account'),
      state({ dropdown: 'account' }),
    ],
    [
      'Escape or an outside click closes it',
      state({ dropdown: 'account' }),
      closeDropdown,
      CLOSED_MENUS,
    ],
    [
      'the mobile panel opens, closing a dropdown',
      state({ dropdown: 'account' }),
      toggleMobilePanel,
      state({ mobileOpen: true }),
    ],
    [
      'the mobile toggle closes the panel',
      state({ mobileOpen: true }),
      toggleMobilePanel,
      CLOSED_MENUS,
    ],
    [
      'Escape closes the panel and keeps its sections',
      state({ mobileOpen: true, sections: ['research'] }),
      closeMobilePanel,
      state({ sections: ['research'] }),
    ],
    [
      'a section expands',
      state({ mobileOpen: true }),
      (s) => toggleSection(s, 'research'),
      state({ mobileOpen: true, sections: ['research'] }),
    ],
    [
      'sections expand independently',
      state({ sections: ['research'] }),
      (s) => toggleSection(s, 'nearMe'),
      state({ sections: ['research', 'nearMe'] }),
    ],
    [
      'a section collapses',
      state({ sections: ['research', 'nearMe'] }),
      (s) => toggleSection(s, 'research'),
      state({ sections: ['nearMe'] }),
    ],
    [
      '§9 resize to desktop width closes the mobile panel',
      state({ mobileOpen: true }),
      (s) => viewportChanged(s, true),
      CLOSED_MENUS,
    ],
    [
      'resize below desktop width closes a desktop dropdown',
      state({ dropdown: 'research' }),
      (s) => viewportChanged(s, false),
      CLOSED_MENUS,
    ],
    [
      'resize below desktop width keeps the mobile panel',
      state({ mobileOpen: true }),
      (s) => viewportChanged(s, false),
      state({ mobileOpen: true }),
    ],
  ])('%s', (_name, before, change, after) => {
    expect(change(before)).toEqual(after);
  });

  it('closing what is already closed keeps the same object (no re-render)', () => {
    expect(closeDropdown(CLOSED_MENUS)).toBe(CLOSED_MENUS);
    expect(closeMobilePanel(CLOSED_MENUS)).toBe(CLOSED_MENUS);
    expect(viewportChanged(CLOSED_MENUS, true)).toBe(CLOSED_MENUS);
  });
});
