import type { Page } from 'playwright-core';
import { useChromium } from '../support/chromium';
import { EMAIL } from '../support/signin-journey';
import { seriousViolations } from '../support/shell-browser';
import { useTestApp } from '../support/test-app';

/**
 * Issue 14 item 3 in a real browser: a collector who follows a brand's sign-in link sees that brand
 * on the IdP's steps: the logo in the simple header (loaded, named), the tab's favicon, and the legal
 * footer, or the power-pack footer for powerpacks. The frame passes axe.
 */
describe('the brand on the IdP’s sign-in steps in Chromium (issue 14 item 3)', () => {
  const t = useTestApp();
  const chromium = useChromium();

  /** What the collector sees of the brand on the current page. */
  async function shownBrand(page: Page) {
    const logo = page.locator('header.simple-site-header img');
    await logo.waitFor({ state: 'visible' });
    return {
      logoSrc: await logo.getAttribute('src'),
      logoAlt: await logo.getAttribute('alt'),
      // The image really loaded (a wrong path would leave it broken, 0 wide). It is lazy (BrandLogo),
      // with its box reserved, so it can be visible before its file has arrived: wait for the file.
      logoLoaded: await logo.evaluate((img: HTMLImageElement) =>
        img.complete
          ? img.naturalWidth > 0
          : new Promise<boolean>((resolve) => {
              img.addEventListener('load', () => resolve(img.naturalWidth > 0));
              img.addEventListener('error', () => resolve(false));
            }),
      ),
      favicon: await page.getAttribute('link[rel="icon"]', 'href'),
      footer: await page
        .locator('footer.site-footer')
        .evaluate((f) => [...f.classList].find((c) => c.startsWith('site-footer--'))),
      footerLinks: await page.locator('footer .site-footer__link').allTextContents(),
      consentButtons: await page.locator('footer button[data-consent-open]').allTextContents(),
    };
  }

  it.each([
    {
      b: 'pcgs',
      logo: '/static/brand/logo-pcgs-color.svg',
      alt: 'PCGS',
      favicon: '/static/brand/favicon-pcgs.svg',
      footer: 'site-footer--legal',
      links: ['Terms & Conditions', 'Privacy', 'Help & Support'],
    },
    {
      b: 'powerpacks',
      logo: '/static/brand/logo-collectors-color.svg',
      alt: 'Collectors',
      favicon: '/static/brand/favicon-collectors.svg',
      footer: 'site-footer--powerpacks',
      links: ['User Agreement', 'Privacy', 'Help & Support'],
    },
  ])(
    '/signin?b=$b: the IdP’s first steps show its logo, favicon and $footer',
    async ({ b, logo, alt, favicon, footer, links }) => {
      const context = await chromium.browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${t.url}/signin?b=${b}`);
        await page.waitForURL(/\/idp\/signin\//);
        const expected = {
          logoSrc: logo,
          logoAlt: alt,
          logoLoaded: true,
          favicon,
          footer,
          footerLinks: links,
          consentButtons: ['Your Privacy Choices'],
        };
        expect(await shownBrand(page)).toEqual(expected);
        expect(await seriousViolations(page)).toEqual([]);

        // The next step of the same interaction keeps the brand.
        await page.fill('#field-email', EMAIL);
        await page.click('button[value="submit"]');
        await page.waitForSelector('#field-password');
        expect(await shownBrand(page)).toEqual(expected);
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    60_000,
  );
});
