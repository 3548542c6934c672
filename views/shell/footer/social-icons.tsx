import type { ReactElement } from 'react';
import type { SocialNetwork } from './footer-links';

/**
 * Simple outline glyphs drawn for this footer (24×24, currentColor, so both themes colour them
 * through CSS). Decorative: the link around each one carries the name.
 */
const GLYPHS: Readonly<Record<SocialNetwork, ReactElement>> = {
  facebook: (
    <>
      <rect x="3" y="3" width="18" height="18" rx="4" />
      <path d="M15.5 7.5H14a2 2 0 0 0-2 2V21M9 12.5h6" />
    </>
  ),
  x: (
    <>
      <path d="M4 4h4.5L20 20h-4.5z" />
      <path d="M20 4l-6.6 7.3M4 20l6.6-7.3" />
    </>
  ),
  instagram: (
    <>
      <rect x="3" y="3" width="18" height="18" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <circle cx="17.3" cy="6.7" r="0.6" />
    </>
  ),
  youtube: (
    <>
      <rect x="2" y="5" width="20" height="14" rx="4" />
      <path d="M10 9l5 3-5 3z" />
    </>
  ),
};

export function SocialIcon({ network }: { network: SocialNetwork }) {
  return (
    <svg
      className="site-footer__icon"
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {GLYPHS[network]}
    </svg>
  );
}
