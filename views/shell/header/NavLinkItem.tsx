import type { Translate } from '../../../src/shared/translate';
import { isActiveLink } from '../active-link';
import type { NavLink } from './header-nav';

export interface NavLinkItemProps {
  readonly link: NavLink;
  readonly t: Translate;
  readonly currentPath: string;
  readonly className?: string;
  /** The id of the text read after a link that opens in a new tab ("Opens in a new tab"). */
  readonly newTabHintId?: string;
}

/**
 * One header link; aria-current marks the page the collector is on (§2 active links). A social link
 * opens in a new tab (§2), without handing the other site this window (noopener), and says so.
 */
export function NavLinkItem({ link, t, currentPath, className, newTabHintId }: NavLinkItemProps) {
  return (
    <a
      className={className}
      href={link.href}
      aria-current={isActiveLink(link.href, currentPath) ? 'page' : undefined}
      {...(link.newTab
        ? { target: '_blank', rel: 'noopener noreferrer', 'aria-describedby': newTabHintId }
        : {})}
    >
      {t(link.label)}
    </a>
  );
}
