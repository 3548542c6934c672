/**
 * Inline icons (no image requests; the CSP allows inline SVG markup). All are decorative: the control
 * that holds one carries the accessible name, so each is aria-hidden and never focusable.
 */
const decorative = {
  'aria-hidden': true,
  focusable: 'false',
  viewBox: '0 0 24 24',
  width: 20,
  height: 20,
  fill: 'currentColor',
} as const;

const RAYS = (
  <>
    <rect x="11" y="1" width="2" height="4" rx="1" />
    <rect x="11" y="19" width="2" height="4" rx="1" />
    <rect x="1" y="11" width="4" height="2" rx="1" />
    <rect x="19" y="11" width="4" height="2" rx="1" />
  </>
);

export function SunIcon({ className }: { readonly className?: string }) {
  return (
    <svg {...decorative} className={className}>
      <circle cx="12" cy="12" r="5" />
      {RAYS}
      <g transform="rotate(45 12 12)">{RAYS}</g>
    </svg>
  );
}

export function MoonIcon({ className }: { readonly className?: string }) {
  return (
    <svg {...decorative} className={className}>
      <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
    </svg>
  );
}

export function ChevronIcon({ className }: { readonly className?: string }) {
  return (
    <svg {...decorative} width={16} height={16} className={className}>
      <path d="M6.4 8.6 12 14.2l5.6-5.6 1.4 1.4-7 7-7-7z" />
    </svg>
  );
}

export function MenuIcon({ className }: { readonly className?: string }) {
  return (
    <svg {...decorative} width={24} height={24} className={className}>
      <rect x="3" y="5" width="18" height="2" rx="1" />
      <rect x="3" y="11" width="18" height="2" rx="1" />
      <rect x="3" y="17" width="18" height="2" rx="1" />
    </svg>
  );
}

export function CloseIcon({ className }: { readonly className?: string }) {
  return (
    <svg {...decorative} width={24} height={24} className={className}>
      <g transform="rotate(45 12 12)">
        <rect x="3" y="11" width="18" height="2" rx="1" />
        <rect x="11" y="3" width="2" height="18" rx="1" />
      </g>
    </svg>
  );
}
