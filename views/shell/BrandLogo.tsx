import { type Logo, logoBox, logoPath } from '../../src/shared/brand';

export interface BrandLogoProps {
  readonly logo: Logo;
  readonly alt: string;
  readonly className?: string;
}

/**
 * A brand's colour logo, 32 px high, loaded after the first paint. Issue 18 item 5: an SVG <img> is
 * a document of its own, which Chromium builds on the page's main thread when the file arrives (its
 * load, style and text layout: 150-250 ms on the phone profile of `npm run bench:page`). Fetched with
 * the page, it arrived before the page's first full layout and held the paint back; lazy, it is
 * fetched once the page is laid out (the logo is never the largest paint). Measured in the same run,
 * 7 loads each: /collection 1,260 -> 1,108 ms LCP, the first sign-in step 1,148 -> 968 ms. The box
 * is reserved from the artwork's size, so nothing moves when the file arrives. Lazy also keeps
 * React 19 from hoisting a <link rel="preload"> for it into <head>, which the client render would
 * not produce (hydration must match).
 */
export function BrandLogo({ logo, alt, className }: BrandLogoProps) {
  return (
    <img
      className={className}
      src={logoPath(logo, 'color')}
      alt={alt}
      {...logoBox(logo, 32)}
      loading="lazy"
      decoding="async"
    />
  );
}
