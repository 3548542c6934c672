import type { Translate } from '../../../src/shared/translate';
import { Dropdown } from './Dropdown';
import type { NavItem } from './header-nav';
import { NavLinkItem } from './NavLinkItem';

export interface DesktopNavProps {
  readonly items: readonly NavItem[];
  readonly t: Translate;
  readonly currentPath: string;
  /** The open dropdown's key, or null. */
  readonly openKey: string | null;
  readonly onToggle: (key: string) => void;
  readonly onClose: () => void;
}

export const dropdownPanelId = (key: string) => `site-header-menu-${key}`;

/** §2 desktop navigation: plain links and dropdowns, hidden below the desktop width (header.css). */
export function DesktopNav({ items, t, currentPath, openKey, onToggle, onClose }: DesktopNavProps) {
  return (
    <nav className="site-header__nav" aria-label={t('header.a11y.mainNavigation')}>
      <ul className="site-header__nav-list">
        {items.map((item) => (
          <li key={item.key} className="site-header__nav-item">
            {item.kind === 'link' ? (
              <NavLinkItem
                link={item}
                t={t}
                currentPath={currentPath}
                className="site-header__nav-link"
              />
            ) : (
              <Dropdown
                id={dropdownPanelId(item.key)}
                label={t(item.label)}
                open={openKey === item.key}
                onToggle={() => onToggle(item.key)}
                onClose={onClose}
              >
                <ul className="site-header__menu-list">
                  {item.links.map((link) => (
                    <li key={link.key}>
                      <NavLinkItem
                        link={link}
                        t={t}
                        currentPath={currentPath}
                        className="site-header__menu-link"
                      />
                    </li>
                  ))}
                </ul>
              </Dropdown>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
