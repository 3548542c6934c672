import { renderToString } from 'react-dom/server';
import { LOCALES, type Locale } from '../../../src/shared/locale';
import type { ShellData } from '../shell-data';
import { Footer } from './Footer';
import { FOOTER_VARIANTS, type FooterVariant } from './footer-links';
import { footerTranslate, shellData } from '../../../test/fixtures/footer-test-data';

function render(variant: FooterVariant, locale: Locale, overrides: Partial<ShellData> = {}) {
  return renderToString(
    <Footer
      data={shellData({ locale, ...overrides })}
      t={footerTranslate(locale)}
      variant={variant}
    />,
  );
}

/** The opening tags of one element name, with their attributes. */
const tags = (html: string, name: string) => html.match(new RegExp(`<${name}\\b[^>]*>`, 'g')) ?? [];
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
/** Visible texts of the elements of one name (no nested markup inside them in this footer). */
const texts = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`<${name}\\b[^>]*>([^<]*)</${name}>`, 'g'))].map((m) => m[1]);

describe(Footer.name, () => {
  describe.each(FOOTER_VARIANTS.flatMap((v) => LOCALES.map((l) => [v, l] as const)))(
    '%s footer in %s',
    (variant, locale) => {
      const html = render(variant, locale);

      it('is a labelled <footer> landmark with the copyright of this year', () => {
        expect(html.startsWith('<footer')).toBe(true);
        expect(attr(tags(html, 'footer')[0] ?? '', 'aria-label')).toBeTruthy();
        expect(html).toContain('© 2031 ');
      });

      it('renders no text separators, no inline styles and no untranslated keys', () => {
        expect(html).not.toContain('<!-- -->');
        expect(html).not.toMatch(/\sstyle=/);
        expect(html).not.toMatch(/>footer\.[a-zA-Z.]+</);
        expect(html).not.toMatch(/"footer\.[a-zA-Z.]+"/);
      });

      it('makes the consent entries buttons that carry data-consent-open', () => {
        for (const tag of tags(html, 'button')) {
          expect(attr(tag, 'type')).toBe('button');
          expect(attr(tag, 'data-consent-open')).toMatch(
            /^(yourPrivacyChoices|cookiePreferences)$/,
          );
        }
        expect(tags(html, 'a').filter((a) => a.includes('data-consent-open'))).toEqual([]);
        expect(tags(html, 'button')).toHaveLength(1);
      });

      it('opens social links in a new tab, without opener or referrer, named as such', () => {
        for (const tag of tags(html, 'a').filter((a) => a.includes('target='))) {
          expect(attr(tag, 'target')).toBe('_blank');
          expect(attr(tag, 'rel')).toBe('noopener noreferrer');
          expect(attr(tag, 'aria-label')).toMatch(/\(|（/);
        }
      });
    },
  );

  it('renders the default grid with a heading per section and a social list', () => {
    const html = render('default', 'en-US');
    expect(texts(html, 'h2')).toEqual([
      'Company',
      'Resources',
      'Affiliates',
      'Privacy &amp; Terms',
      'Support',
      'Follow us',
    ]);
    expect(texts(html, 'a')).toEqual([
      'About Us',
      'Careers',
      'Press &amp; Media',
      'Apps',
      'Sales',
      'Advertise With Us',
      'Forums',
      'Articles',
      'Collectors',
      'Card Ladder',
      'Long Beach Expo',
      'PSA Japan',
      'Privacy',
      'Guarantee',
      'Terms &amp; Conditions',
      'Help &amp; Support',
      'Customer Request Center',
      'Find My Package',
      'FAQ',
    ]);
    expect(texts(html, 'button')).toEqual(['Your Privacy Choices']);
    expect(html).toContain('© 2031 Collectors Universe, Inc. All rights reserved.');
    expect(html).toContain('alt="PSA"');
    const social = tags(html, 'a').filter((a) => a.includes('target="_blank"'));
    expect(social.map((a) => attr(a, 'aria-label'))).toEqual([
      'Facebook (opens in a new tab)',
      'X (opens in a new tab)',
      'Instagram (opens in a new tab)',
      'YouTube (opens in a new tab)',
    ]);
    expect(tags(html, 'svg')).toHaveLength(4);
    for (const svg of tags(html, 'svg')) expect(attr(svg, 'aria-hidden')).toBe('true');
  });

  it('describes find my package with its hint (via my orders)', () => {
    const html = render('default', 'en-US');
    const link = tags(html, 'a').find((a) => a.includes('/myorders')) ?? '';
    const hintId = attr(link, 'aria-describedby');
    expect(hintId).toBeTruthy();
    expect(html).toContain(`id="${hintId}" class="site-footer__hint">Track it from My Orders<`);
  });

  it('renders the legal footer: its four entries, no grid, no social icons', () => {
    const html = render('legal', 'en-US');
    expect(texts(html, 'a')).toEqual(['Terms &amp; Conditions', 'Privacy', 'Help &amp; Support']);
    expect(texts(html, 'button')).toEqual(['Your Privacy Choices']);
    expect(tags(html, 'h2')).toEqual([]);
    expect(html).not.toContain('target="_blank"');
    expect(html).toContain('<img');
  });

  it('renders the power-pack footer: its own copyright and no brand logo', () => {
    const html = render('powerpacks', 'fr-CA', { brand: 'powerpacks' });
    expect(texts(html, 'a')).toEqual([
      'Entente d’utilisation',
      'Confidentialité',
      'Aide et soutien',
    ]);
    expect(texts(html, 'button')).toEqual(['Vos choix en matière de confidentialité']);
    expect(html).toContain('© 2031 Powerpacks. Tous droits réservés.');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('target="_blank"');
  });

  it('renders the Japanese footer: no grid, the Japan links, Japanese social accounts', () => {
    const html = render('default', 'ja-JP');
    expect(tags(html, 'nav').map((n) => attr(n, 'aria-label'))).toEqual(['規約とサポートのリンク']);
    expect(texts(html, 'a')).toEqual([
      '利用規約および特定商取引法に基づく表記',
      'プライバシーポリシー',
      '採用情報',
    ]);
    expect(texts(html, 'button')).toEqual(['クッキー設定']);
    expect(html).toContain('href="https://x.com/PSAJapan"');
    expect(html).toContain('href="https://www.instagram.com/psa_japan/"');
    expect(html).toContain('© 2031 Collectors Universe, Inc. 無断転載を禁じます。');
  });

  it('renders the Japanese legal footer without social icons', () => {
    const html = render('legal', 'ja-JP');
    expect(texts(html, 'a')).toEqual([
      '利用規約および特定商取引法に基づく表記',
      'プライバシーポリシー',
    ]);
    expect(texts(html, 'button')).toEqual(['クッキー設定']);
    expect(html).not.toContain('target="_blank"');
  });

  it('marks the link of the current page with aria-current, by path only', () => {
    const html = render('default', 'en-US', { currentPath: '/support/tickets?open=1' });
    const current = tags(html, 'a').filter((a) => a.includes('aria-current'));
    expect(current.map((a) => [attr(a, 'href'), attr(a, 'aria-current')])).toEqual([
      ['https://www.psacard.example/support', 'page'],
    ]);
    expect(render('default', 'en-US', { currentPath: '/collection' })).not.toContain(
      'aria-current',
    );
  });

  it('never marks another site’s home page (affiliates, privacy site) as the current page', () => {
    expect(render('default', 'fr-CA', { currentPath: '/' })).not.toContain('aria-current');
    const html = render('default', 'en-US', { currentPath: '/articles/grading-101' });
    expect(tags(html, 'a').filter((a) => a.includes('aria-current'))).toEqual([
      '<a class="site-footer__link" href="https://www.psacard.example/articles" aria-current="page">',
    ]);
  });

  it('shows the year from the data, not the clock', () => {
    expect(render('legal', 'en-CA', { year: 2040 })).toContain('© 2040 Collectors Universe');
  });

  it('defaults to the default variant', () => {
    const data = shellData();
    expect(renderToString(<Footer data={data} t={footerTranslate('en-US')} />)).toBe(
      render('default', 'en-US'),
    );
  });
});
