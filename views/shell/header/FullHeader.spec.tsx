import { renderToString } from 'react-dom/server';
import { APP_ENVS } from '../../../src/shared/environment';
import { LOCALES, type Locale } from '../../../src/shared/locale';
import type { ShellData } from '../shell-data';
import { ThemeContext } from '../theme-context';
import { FullHeader } from './FullHeader';
import {
  attributeValues,
  escapeHtml,
  shellData,
  translateFor,
} from '../../../test/fixtures/header.fixtures';

function render(data: ShellData, theme: 'light' | 'dark' = 'light'): string {
  return renderToString(
    <ThemeContext.Provider value={{ theme, toggle: () => undefined }}>
      <FullHeader data={data} t={translateFor(data.locale)} />
    </ThemeContext.Provider>,
  );
}

const label = (locale: Locale, key: string) => escapeHtml(translateFor(locale)(key));

describe(FullHeader.name, () => {
  const cases = APP_ENVS.flatMap((env) => LOCALES.map((locale) => [locale, env] as const));

  describe.each(cases)('%s in %s', (locale, env) => {
    const data = shellData({ locale, env, features: ['gettingStarted'] });
    const html = render(data);

    it('renders the landmarks, skip link and logo, with no text-node separators or styles', () => {
      expect(html).toMatch(/^<header class="site-header">/);
      expect(html).toContain(`href="#main">${label(locale, 'header.a11y.skipToMain')}</a>`);
      expect(html).toContain('src="/static/brand/logo-psa-color.svg"');
      expect(html).toContain(`alt="${label(locale, 'header.logoAlt.psa')}"`);
      expect(html).toContain(`aria-label="${label(locale, 'header.a11y.mainNavigation')}"`);
      expect(html).not.toContain('<!-- -->');
      expect(html).not.toContain('style=');
      // Every message resolved: no key is left showing.
      expect(html).not.toMatch(/>header\.[\w.]+</);
      expect(html).not.toMatch(/="header\.[\w.]+"/);
    });

    it('links only to the configured sites, sign-out and the skip target', () => {
      const base = locale === 'ja-JP' ? data.services.gradingJapan : data.services.grading;
      for (const href of attributeValues(html, 'href')) {
        const allowed =
          href === '#main' ||
          href === '/logout/collectorsid?b=psa' ||
          href === base ||
          href.startsWith(`${base}/`);
        expect({ href, allowed }).toEqual({ href, allowed: true });
      }
    });

    it('ties every dropdown button to a panel it controls, with unique ids', () => {
      const ids = attributeValues(html, 'id');
      expect(new Set(ids).size).toBe(ids.length);
      const controls = attributeValues(html, 'aria-controls');
      expect(controls.length).toBeGreaterThanOrEqual(2); // the account menu and the mobile toggle, at least
      for (const id of controls) expect(ids).toContain(id);
      // Server render: everything closed.
      expect(html).not.toContain('aria-expanded="true"');
    });

    it('shows the dark-mode switch only in local and dev', () => {
      const developer = env === 'local' || env === 'dev';
      expect(html.includes('aria-pressed=')).toBe(developer);
      expect(html.includes(`aria-label="${label(locale, 'header.themeToggle.darkMode')}"`)).toBe(
        developer,
      );
    });
  });

  it.each(['en-US', 'en-CA', 'fr-CA'] as const)(
    '%s: full navigation and Start Submission',
    (locale) => {
      const html = render(shellData({ locale, features: ['gettingStarted'] }));
      expect(html).toContain(label(locale, 'header.actions.startSubmission'));
      for (const key of [
        'header.nav.gettingStarted.title',
        'header.nav.pricingAndServices.title',
        'header.nav.vaultAndSell.title',
        'header.nav.setRegistry',
        'header.nav.research.title',
        'header.nav.nearMe.title',
      ])
        expect(html).toContain(label(locale, key));
      // Closed dropdowns, the account menu and the mobile panel hold no links until opened (their
      // entries are checked in header-nav.spec.ts; opening them in Chromium).
      expect(html).not.toContain(label(locale, 'header.actions.signOut'));
      expect(html).not.toContain(label(locale, 'header.japanNav.contact'));
    },
  );

  it('ja-JP: the reduced navigation and the Submit label', () => {
    const html = render(shellData({ locale: 'ja-JP', features: ['gettingStarted'] }));
    expect(html).toContain('>申し込む</a>');
    expect(html).not.toContain(label('ja-JP', 'header.actions.startSubmission'));
    for (const key of ['about', 'gradingStandards', 'research', 'contact'])
      expect(html).toContain(label('ja-JP', `header.japanNav.${key}`));
    for (const key of [
      'header.nav.gettingStarted.title',
      'header.nav.pricingAndServices.title',
      'header.nav.nearMe.title',
      'header.account.submissionsDashboard',
    ])
      expect(html).not.toContain(label('ja-JP', key));
  });

  it('without the gettingStarted flag, How It Works is a plain link', () => {
    const html = render(shellData());
    expect(html).not.toContain('Getting Started');
    expect(html).toContain(
      '<a class="site-header__nav-link" href="https://grading.test/how-it-works">How It Works</a>',
    );
  });

  it('the dark-mode switch reflects the theme with aria-pressed', () => {
    expect(render(shellData({ env: 'dev' }), 'dark')).toContain('aria-pressed="true"');
    expect(render(shellData({ env: 'local' }), 'light')).toContain('aria-pressed="false"');
  });

  it.each([
    ['no account state', undefined],
    ['a signed-out state', { ...shellData().account!, isSignedIn: false }],
  ])('offers Sign In instead of the account menu with %s', (_name, account) => {
    const html = render(shellData({ account }));
    expect(html).toContain('href="/signin">Sign In</a>');
    expect(html).not.toContain('Sign Out');
    expect(html).not.toContain('site-header-menu-account');
  });

  it('marks the link of the current page with aria-current', () => {
    const html = render(shellData({ currentPath: '/setregistry' }));
    expect(html).toContain('href="https://grading.test/setregistry" aria-current="page"');
  });
});
