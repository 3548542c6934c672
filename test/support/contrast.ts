/**
 * WCAG 2.x colour arithmetic for the browser specs, on colours as Chromium computes them
 * (`rgb(r, g, b)` or `rgba(r, g, b, a)`; an alpha is ignored).
 */

/** The relative luminance of a computed colour: 0 for black, 1 for white. */
export function luminance(rgb: string): number {
  const [r = 0, g = 0, b = 0] = (rgb.match(/[\d.]+/g) ?? []).map(Number).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two computed colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
