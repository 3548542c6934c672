import type { Locator, Page } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  TEST_TIMEOUT_MS,
  THEMES,
  errorPagePath,
  useShellBrowser,
  waitForHydration,
} from '../support/shell-browser';

/**
 * Issue 33: every logo a collector sees stands out from what it is drawn on, in both themes (WCAG
 * 1.4.11, 3:1 for a graphic): the full header's and the footer's on a shell page, the simple
 * header's on the error page and on the IdP's sign-in steps. The logo is measured as rendered: its
 * opaque pixels, drawn from the loaded file, against the background of the element it sits in.
 */

interface LogoSeen {
  readonly file: string;
  /** The lowest contrast of any opaque pixel of the artwork with the background under it. */
  readonly contrast: number;
}

async function logoSeen(logo: Locator): Promise<LogoSeen> {
  await logo.scrollIntoViewIfNeeded();
  return logo.evaluate(async (img: HTMLImageElement) => {
    // Lazy (BrandLogo): wait for the file itself, not just the box reserved for it.
    if (!img.complete)
      await new Promise((resolve) => img.addEventListener('load', resolve, { once: true }));
    const luminance = ([r, g, b]: number[]) => {
      const lin = (v: number) =>
        v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4;
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    // The nearest background painted under the logo (its own included: a chip counts as one).
    let el: Element | null = img;
    let background = 'rgb(255, 255, 255)';
    for (; el; el = el.parentElement) {
      const colour = getComputedStyle(el).backgroundColor;
      if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') {
        background = colour;
        break;
      }
    }
    const bg = luminance(background.match(/\d+/g)!.map(Number));
    const canvas = document.createElement('canvas');
    canvas.width = img.width * 2;
    canvas.height = img.height * 2;
    const context = canvas.getContext('2d')!;
    context.drawImage(img, 0, 0, canvas.width, canvas.height);
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let lowest = Infinity;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! < 250) continue; // edges and the transparent ground
      const ink = luminance([data[i]!, data[i + 1]!, data[i + 2]!]);
      lowest = Math.min(lowest, (Math.max(ink, bg) + 0.05) / (Math.min(ink, bg) + 0.05));
    }
    return { file: new URL(img.src).pathname, contrast: Math.round(lowest * 100) / 100 };
  });
}

describe('brand logos in both themes in Chromium (issue 33)', () => {
  const fixture = useShellBrowser();

  async function open(
    path: string,
    theme: 'light' | 'dark',
    viewport: { width: number; height: number } = DESKTOP,
    signedIn = true,
  ): Promise<Page> {
    const context = await fixture.context({
      ...(signedIn ? { cookies: fixture.cookies } : {}),
      theme,
      viewport,
    });
    const page = await context.newPage();
    await page.goto(`${fixture.shell.t.url}${path}`);
    return page;
  }

  const artwork = (theme: 'light' | 'dark') => (theme === 'dark' ? 'white' : 'color');

  it.each(THEMES)(
    '%s theme: the full header’s and the footer’s logos are its artwork, at 3:1 or more',
    async (theme) => {
      for (const viewport of [PHONE, DESKTOP]) {
        const page = await open('/collection', theme, viewport);
        await waitForHydration(page);
        const header = await logoSeen(page.locator('.site-header__logo img'));
        const footer = await logoSeen(page.locator('img.site-footer__logo'));
        // Which brand each shows is header-brand.ts's business; the artwork is the theme's.
        const artworkOf = (file: string) => /-([a-z]+)\.svg$/.exec(file)?.[1];
        expect({
          viewport,
          header: artworkOf(header.file),
          footer: artworkOf(footer.file),
        }).toEqual({ viewport, header: artwork(theme), footer: artwork(theme) });
        expect(header.contrast).toBeGreaterThanOrEqual(3);
        expect(footer.contrast).toBeGreaterThanOrEqual(3);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it.each(THEMES)(
    '%s theme: the error page’s simple header logo is its artwork, at 3:1 or more',
    async (theme) => {
      const page = await open(errorPagePath('en-US'), theme);
      await waitForHydration(page);
      const logo = await logoSeen(page.locator('img.simple-site-header__logo'));
      expect(logo.file).toMatch(new RegExp(`^/static/brand/logo-[a-z]+-${artwork(theme)}\\.svg$`));
      expect(logo.contrast).toBeGreaterThanOrEqual(3);
    },
    TEST_TIMEOUT_MS,
  );

  it.each(THEMES)(
    'theme cookie %s: the sign-in step’s logos (header and footer) reach 3:1',
    async (theme) => {
      const page = await open('/signin?b=pcgs', theme, DESKTOP, false);
      await page.locator('header.simple-site-header img').waitFor({ state: 'visible' });
      for (const logo of [
        page.locator('header.simple-site-header img'),
        page.locator('img.site-footer__logo'),
      ])
        expect(await logoSeen(logo)).toEqual({
          file: expect.stringMatching(/^\/static\/brand\/logo-pcgs-/),
          contrast: expect.any(Number),
        });
      for (const logo of await page.locator('img[src^="/static/brand/logo-"]').all())
        expect((await logoSeen(logo)).contrast).toBeGreaterThanOrEqual(3);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the dark-mode switch (local/dev) changes the artwork with the theme',
    async () => {
      const page = await open('/collection', 'light');
      await waitForHydration(page);
      const logo = page.locator('.site-header__logo img');
      expect((await logoSeen(logo)).file).toMatch(/-color\.svg$/);
      await page.locator('.site-header__theme').click();
      await page.waitForFunction(() =>
        document
          .querySelector('.site-header__logo img')
          ?.getAttribute('src')
          ?.endsWith('-white.svg'),
      );
      const dark = await logoSeen(logo);
      expect(dark.file).toMatch(/-white\.svg$/);
      expect(dark.contrast).toBeGreaterThanOrEqual(3);
    },
    TEST_TIMEOUT_MS,
  );
});
