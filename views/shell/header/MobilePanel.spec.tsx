import { renderToString } from 'react-dom/server';
import { LOCALES } from '../../../src/shared/locale';
import {
  attributeValues,
  escapeHtml,
  shellData,
  translateFor,
} from '../../../test/fixtures/header.fixtures';
import { mobileNav, signInLink } from './header-nav';
import { MobilePanel } from './MobilePanel';

/** The panel as it is once opened, every section expanded (the server renders it closed). */
function renderOpen(locale: (typeof LOCALES)[number], signedIn = true): string {
  const data = shellData({ locale });
  const nav = mobileNav(data);
  return renderToString(
    <MobilePanel
      nav={nav}
      t={translateFor(locale)}
      currentPath={data.currentPath}
      open
      expanded={nav.sections.map((section) => section.key)}
      onToggleSection={() => undefined}
      onEscape={() => undefined}
      {...(signedIn ? {} : { signIn: signInLink(locale) })}
    />,
  );
}

describe(MobilePanel.name, () => {
  describe.each(LOCALES)('%s, open with every section expanded', (locale) => {
    const html = renderOpen(locale);
    const t = translateFor(locale);

    it('ties every section button and every described link to an element of the panel', () => {
      const ids = attributeValues(html, 'id');
      expect(new Set(ids).size).toBe(ids.length);
      const referenced = [
        ...attributeValues(html, 'aria-controls'),
        ...attributeValues(html, 'aria-describedby'),
        ...attributeValues(html, 'aria-labelledby'),
      ];
      expect(attributeValues(html, 'aria-controls')).toHaveLength(3); // Research, Info Center, More
      for (const id of referenced) expect(ids).toContain(id);
      expect(html).not.toContain('aria-expanded="false"');
      expect(html).not.toContain('<!-- -->');
    });

    it('opens the social links, and only them, in a new tab that does not get this window', () => {
      const newTab = [...html.matchAll(/<a [^>]*target="_blank"[^>]*>([^<]*)<\/a>/g)];
      expect(newTab.map((m) => m[1])).toEqual(
        ['facebook', 'x', 'instagram', 'youtube'].map((n) =>
          escapeHtml(t(`header.brandNames.${n}`)),
        ),
      );
      for (const [tag] of newTab) {
        expect(tag).toContain('rel="noopener noreferrer"');
        expect(tag).toContain('aria-describedby="site-header-new-tab-hint"');
      }
      expect(html).toContain(
        `<span id="site-header-new-tab-hint" hidden="">${escapeHtml(t('header.a11y.opensInNewTab'))}</span>`,
      );
    });

    it('titles the account section with the settings menu’s Menu and ends it with Sign Out', () => {
      expect(html).toContain(`>${escapeHtml(t('header.settingsMenu.title'))}</p>`);
      expect(html).toMatch(
        new RegExp(
          `href="/logout/collectorsid\\?b=psa[^"]*">${escapeHtml(t('header.settingsMenu.signOut'))}</a></li></ul></nav>`,
        ),
      );
    });
  });

  it('signed out, the account section offers Sign In instead of the settings menu', () => {
    const html = renderOpen('en-US', false);
    expect(html).toContain('>Menu</p>');
    expect(html).toContain('href="/signin">Sign In</a>');
    expect(html).not.toContain('Profile');
    expect(html).not.toContain('Sign Out');
  });
});
