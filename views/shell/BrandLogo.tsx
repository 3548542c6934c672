import { useContext } from 'react';
import { type Logo, type LogoVariant, logoBox, logoPath } from '../../src/shared/brand';
import type { Theme } from './shell-data';
import { ThemeContext } from './theme-context';

export interface BrandLogoProps {
  readonly logo: Logo;
  readonly alt: string;
  readonly className?: string;
  /**
   * The page's theme (ShellData.theme), what the server renders; in the browser the ThemeContext's
   * current theme wins, so the logo follows the dark-mode switch. Pages without a theme (the IdP's
   * steps, the message pages) are light.
   */
  readonly theme?: Theme | undefined;
}

/**
 * The artwork for a theme (issue 33): the colour logo on the light theme's white, the white one on the
 * dark theme's near-black, where the colour artwork's navy, blue and green fall under 3:1 (WCAG
 * 1.4.11). The file is chosen, not tinted by CSS, so each theme gets artwork drawn for it.
 */
export function logoVariantFor(theme: Theme): LogoVariant {
  return theme === 'dark' ? 'white' : 'color';
}

/**
 * A brand's logo, 32 px high, loaded after the first paint. Issue 18 item 5: an SVG <img> is
 * a document of its own, which Chromium builds on the page's main thread when the file arrives (its
 * load, style and text layout: 150-250 ms on the phone profile of `npm run bench:page`). Fetched with
 * the page, it arrived before the page's first full layout and held the paint back; lazy, it is
 * fetched once the page is laid out (the logo is never the largest paint). Measured in the same run,
 * 7 loads each: /collection 1,260 -> 1,108 ms LCP, the first sign-in step 1,148 -> 968 ms. The box
 * is reserved from the artwork's size, so nothing moves when the file arrives. Lazy also keeps
 * React 19 from hoisting a <link rel="preload"> for it into <head>, which the client render would
 * not produce (hydration must match).
 */
export function BrandLogo({ logo, alt, className, theme }: BrandLogoProps) {
  const control = useContext(ThemeContext);
  const variant = logoVariantFor(control?.theme ?? theme ?? 'light');
  return (
    <img
      className={className}
      src={logoPath(logo, variant)}
      alt={alt}
      {...logoBox(logo, 32)}
      loading="lazy"
      decoding="async"
    />
  );
}
