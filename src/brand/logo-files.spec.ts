import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from '../config/project-paths';
import {
  FAVICONS,
  LOGO_ARTWORK,
  LOGO_VARIANTS,
  LOGOS,
  type Logo,
  type LogoVariant,
  faviconPath,
  logoPath,
} from '../shared/brand';

/**
 * Issue 33: the §9 logo files are drawn artwork, not a brand name typed in a box. Each one is a
 * small, self-contained SVG (outlined paths: no text, no font, nothing fetched), named with the
 * brand's display name, and its colours stand out from the background of the theme it is for.
 */

const read = (logo: Logo, variant: LogoVariant) =>
  fs.readFileSync(
    path.join(PROJECT_ROOT, 'client/public', logoPath(logo, variant).replace('/static/', '')),
    'utf8',
  );

/** How the product names the brands (the footer's logo text alternatives). */
const DISPLAY_NAMES = (
  JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'locales/en-US/footer.json'), 'utf8')) as {
    brandNames: Record<Logo, string>;
  }
).brandNames;

/** A theme's background colours from base.css: the page's and the footer's surface. */
function themeBackgrounds(selector: ':root' | '.theme-dark'): string[] {
  const css = fs.readFileSync(path.join(PROJECT_ROOT, 'client/styles/base.css'), 'utf8');
  const block = new RegExp(
    `(?:^|\\n)[^{}]*${selector.replace('.', '\\.')}[^{}]*\\{([^}]*)\\}`,
  ).exec(css)?.[1];
  const token = (name: string) =>
    new RegExp(`--color-${name}:\\s*(#[0-9a-f]{6})`).exec(block ?? '')?.[1];
  return [token('bg'), token('surface')].map((c) => {
    if (!c) throw new Error(`no --color-bg/--color-surface in ${selector}`);
    return c;
  });
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * A well-formedness check small enough to read: every tag is closed in order, attributes are quoted
 * and unique. Returns the element names in document order.
 */
function elementsOf(xml: string): { name: string; attrs: Record<string, string> }[] {
  const open: string[] = [];
  const seen: { name: string; attrs: Record<string, string> }[] = [];
  const tag = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  let end = 0;
  for (let m = tag.exec(xml); m; m = tag.exec(xml)) {
    if (/[<>]/.test(xml.slice(end, m.index))) throw new Error(`stray markup before ${m[0]}`);
    end = tag.lastIndex;
    const [, closing, name, attrText, selfClosing] = m as unknown as string[];
    if (closing) {
      if (open.pop() !== name) throw new Error(`</${name}> closes nothing open`);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const [, key, value] of attrText!.matchAll(/([\w:-]+)="([^"]*)"/g)) {
      if (key! in attrs) throw new Error(`${name} repeats ${key}`);
      attrs[key!] = value!;
    }
    seen.push({ name: name!, attrs });
    if (!selfClosing) open.push(name!);
  }
  if (open.length > 0 || xml.slice(end).trim() !== '')
    throw new Error('unclosed or trailing markup');
  return seen;
}

describe('the §9 logo files (issue 33)', () => {
  const files = LOGOS.flatMap((logo) => LOGO_VARIANTS.map((variant) => ({ logo, variant })));

  it.each(files)(
    '$logo $variant: a well-formed SVG of paths with a viewBox',
    ({ logo, variant }) => {
      const svg = read(logo, variant);
      const elements = elementsOf(svg);
      expect(elements[0]).toMatchObject({
        name: 'svg',
        attrs: {
          xmlns: 'http://www.w3.org/2000/svg',
          viewBox: `0 0 ${LOGO_ARTWORK[logo].width} ${LOGO_ARTWORK[logo].height}`,
        },
      });
      // Outlines only: a <text> would depend on the viewer's fonts, an <image>/<use>/href or url()
      // on another file (which an SVG loaded as an <img> may not fetch anyway).
      expect(new Set(elements.map((e) => e.name))).toEqual(new Set(['svg', 'title', 'path']));
      expect(svg).not.toMatch(/<text|font-family|font:|href|url\(|<style|<script/);
      expect(
        elements.filter((e) => e.name === 'path').every((e) => e.attrs.d && e.attrs.fill),
      ).toBe(true);
      // Small: a logo is drawn on every page.
      expect(Buffer.byteLength(svg)).toBeLessThan(4096);
    },
  );

  it.each(files)('$logo $variant: named with the brand’s display name', ({ logo, variant }) => {
    const svg = read(logo, variant);
    const name = DISPLAY_NAMES[logo];
    expect(name).toBeTruthy();
    expect(elementsOf(svg)[0]?.attrs).toMatchObject({ role: 'img', 'aria-label': name });
    expect(/<title>([^<]*)<\/title>/.exec(svg)?.[1]).toBe(name);
  });

  it.each(files)(
    '$logo $variant: every colour has 3:1 against the backgrounds it is drawn for',
    ({ logo, variant }) => {
      const fills = [...read(logo, variant).matchAll(/fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]!);
      expect(fills.length).toBeGreaterThan(0);
      if (variant !== 'color') {
        // A mono variant is one colour: black for light paper, white for dark backgrounds.
        expect(new Set(fills)).toEqual(new Set([variant === 'black' ? '#000000' : '#ffffff']));
      }
      const backgrounds =
        variant === 'white'
          ? themeBackgrounds('.theme-dark')
          : [...themeBackgrounds(':root'), '#f7fafc' /* signin.css's page */];
      for (const fill of fills)
        for (const background of backgrounds)
          expect({ fill, background, ok: contrast(fill, background) >= 3 }).toEqual({
            fill,
            background,
            ok: true,
          });
    },
  );

  it.each(FAVICONS)('favicon %s: drawn with the same letters, no text or fonts', (favicon) => {
    const svg = fs.readFileSync(
      path.join(PROJECT_ROOT, 'client/public', faviconPath(favicon).replace('/static/', '')),
      'utf8',
    );
    expect(elementsOf(svg)[0]).toMatchObject({ name: 'svg', attrs: { viewBox: '0 0 64 64' } });
    expect(svg).not.toMatch(/<text|font-family|href|url\(/);
    expect(Buffer.byteLength(svg)).toBeLessThan(2048);
  });
});
