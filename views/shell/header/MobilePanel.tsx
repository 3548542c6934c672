import type { KeyboardEvent } from 'react';
import type { Translate } from '../../../src/shared/translate';
import { Button } from '../../ui/Button';
import type { MobileNav, NavLink } from './header-nav';
import { ChevronIcon } from './icons';
import { NavLinkItem } from './NavLinkItem';

export const MOBILE_PANEL_ID = 'site-header-mobile-panel';
const sectionId = (key: string) => `site-header-section-${key}`;
const ACCOUNT_HEADING_ID = 'site-header-mobile-account';
const NEW_TAB_HINT_ID = 'site-header-new-tab-hint';

export interface MobilePanelProps {
  readonly nav: MobileNav;
  readonly t: Translate;
  readonly currentPath: string;
  readonly open: boolean;
  /** Keys of the expanded sections. */
  readonly expanded: readonly string[];
  readonly onToggleSection: (key: string) => void;
  /** Escape inside the panel: the header closes it and returns focus to the toggle. */
  readonly onEscape: () => void;
  /** Shown in the account section when nobody is signed in (then there are no account entries). */
  readonly signIn?: NavLink;
  /**
   * The start-submission button, first in the panel: on a phone the header bar has no room for it on
   * one line (issue 33), so header.css shows it here below 640 px and in the bar above.
   */
  readonly submit?: NavLink;
}

function LinkList({
  links,
  t,
  currentPath,
}: {
  readonly links: readonly NavLink[];
  readonly t: Translate;
  readonly currentPath: string;
}) {
  return (
    <ul className="site-header__mobile-list">
      {links.map((link) => (
        <li key={link.key}>
          <NavLinkItem
            link={link}
            t={t}
            currentPath={currentPath}
            className="site-header__mobile-link"
            newTabHintId={NEW_TAB_HINT_ID}
          />
        </li>
      ))}
    </ul>
  );
}

/**
 * §2 mobile navigation: the panel the header's menu button opens, with the shared site sections
 * (plain links, and expandable sections, each a button with aria-expanded and aria-controls) and an
 * account section, the settings menu titled "Menu" (issue 16 item 1).
 */
export function MobilePanel(props: MobilePanelProps) {
  const { nav, t, currentPath, open, expanded } = props;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    props.onEscape();
  };
  // Signed out, the account section offers Sign In instead of the settings menu's entries.
  const accountLinks = props.signIn ? [props.signIn] : [...nav.account.links, nav.account.signOut];
  return (
    <div id={MOBILE_PANEL_ID} className="site-header__mobile" hidden={!open} onKeyDown={onKeyDown}>
      {/* A closed panel holds nothing: its links are drawn when it opens (fewer bytes on every page). */}
      {open ? (
        <>
          {props.submit ? (
            <Button href={props.submit.href} size="md" className="site-header__mobile-submit">
              {t(props.submit.label)}
            </Button>
          ) : null}
          <nav aria-label={t('header.a11y.mobileNavigation')}>
            <ul className="site-header__mobile-sections">
              {nav.sections.map((item) => {
                if (item.kind === 'link')
                  return (
                    <li key={item.key}>
                      <NavLinkItem
                        link={item}
                        t={t}
                        currentPath={currentPath}
                        className="site-header__mobile-link site-header__mobile-link--top"
                      />
                    </li>
                  );
                const isExpanded = expanded.includes(item.key);
                return (
                  <li key={item.key}>
                    <button
                      type="button"
                      className="site-header__section-button"
                      aria-expanded={isExpanded}
                      aria-controls={sectionId(item.key)}
                      onClick={() => props.onToggleSection(item.key)}
                    >
                      <span>{t(item.label)}</span>
                      <ChevronIcon className="site-header__chevron" />
                    </button>
                    <div id={sectionId(item.key)} hidden={!isExpanded}>
                      {isExpanded ? (
                        <LinkList links={item.links} t={t} currentPath={currentPath} />
                      ) : null}
                    </div>
                  </li>
                );
              })}
            </ul>
          </nav>
          <nav className="site-header__mobile-account" aria-labelledby={ACCOUNT_HEADING_ID}>
            <p id={ACCOUNT_HEADING_ID} className="site-header__mobile-heading">
              {t(nav.account.title)}
            </p>
            <LinkList links={accountLinks} t={t} currentPath={currentPath} />
          </nav>
          {/* Read after each link that opens in a new tab (aria-describedby reads hidden text). */}
          <span id={NEW_TAB_HINT_ID} hidden>
            {t('header.a11y.opensInNewTab')}
          </span>
        </>
      ) : null}
    </div>
  );
}
