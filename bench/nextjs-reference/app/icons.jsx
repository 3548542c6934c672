// The header's and footer's inline SVG icons, as the service renders them (views/shell/header/icons.tsx).
function Icon({ size, className, children }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="currentColor"
      className={className}
    >
      {children}
    </svg>
  );
}

function Rays() {
  return (
    <>
      <rect x="11" y="1" width="2" height="4" rx="1" />
      <rect x="11" y="19" width="2" height="4" rx="1" />
      <rect x="1" y="11" width="4" height="2" rx="1" />
      <rect x="19" y="11" width="4" height="2" rx="1" />
    </>
  );
}

export function SunIcon({ className }) {
  return (
    <Icon size="20" className={className}>
      <circle cx="12" cy="12" r="5" />
      <Rays />
      <g transform="rotate(45 12 12)">
        <Rays />
      </g>
    </Icon>
  );
}

export function MoonIcon({ className }) {
  return (
    <Icon size="20" className={className}>
      <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
    </Icon>
  );
}

export function MenuIcon() {
  return (
    <Icon size="24">
      <rect x="3" y="5" width="18" height="2" rx="1" />
      <rect x="3" y="11" width="18" height="2" rx="1" />
      <rect x="3" y="17" width="18" height="2" rx="1" />
    </Icon>
  );
}

export function ChevronIcon() {
  return (
    <Icon size="16" className="site-header__chevron">
      <path d="M6.4 8.6 12 14.2l5.6-5.6 1.4 1.4-7 7-7-7z" />
    </Icon>
  );
}

const SOCIAL_PATHS = {
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

export function SocialIcon({ network }) {
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
      {SOCIAL_PATHS[network]}
    </svg>
  );
}
