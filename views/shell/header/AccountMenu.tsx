import type { Translate } from '../../../src/shared/translate';
import { Dropdown } from './Dropdown';
import type { AccountMenu as AccountMenuData } from './header-nav';
import { ACCOUNT_MENU_KEY } from './header-state';
import { NavLinkItem } from './NavLinkItem';
import { dropdownPanelId } from './DesktopNav';

export interface AccountMenuProps {
  readonly menu: AccountMenuData;
  readonly t: Translate;
  readonly currentPath: string;
  readonly open: boolean;
  readonly onToggle: () => void;
  readonly onClose: () => void;
}

/** §2 account menu (desktop): a dropdown of the account entries, then Sign Out. */
export function AccountMenu({ menu, t, currentPath, open, onToggle, onClose }: AccountMenuProps) {
  return (
    <nav className="site-header__account" aria-label={t('header.a11y.accountMenu')}>
      <Dropdown
        id={dropdownPanelId(ACCOUNT_MENU_KEY)}
        label={t('header.settingsMenu.myAccount')}
        open={open}
        onToggle={onToggle}
        onClose={onClose}
        className="site-header__dropdown--end"
      >
        <ul className="site-header__menu-list">
          {[...menu.links, menu.signOut].map((link) => (
            <li
              key={link.key}
              className={link === menu.signOut ? 'site-header__menu-separated' : undefined}
            >
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
    </nav>
  );
}
