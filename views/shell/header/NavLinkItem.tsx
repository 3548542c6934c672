import type { Translate } from '../../../src/shared/translate';
import { isActiveLink } from '../active-link';
import type { NavLink } from './header-nav';

export interface NavLinkItemProps {
  readonly link: NavLink;
  readonly t: Translate;
  readonly currentPath: string;
  readonly className?: string;
}

/** One header link; aria-current marks the page the collector is on (§2 active links). */
export function NavLinkItem({ link, t, currentPath, className }: NavLinkItemProps) {
  return (
    <a
      className={className}
      href={link.href}
      aria-current={isActiveLink(link.href, currentPath) ? 'page' : undefined}
    >
      {t(link.label)}
    </a>
  );
}
