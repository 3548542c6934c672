import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderToString } from 'react-dom/server';
import { LOCALES, type Locale } from '../../../src/shared/locale';
import { createTranslate } from '../../../src/shared/translate';
import { shellData } from '../../../test/fixtures/header.fixtures';
import { Footer } from '../footer/Footer';
import { FOOTER_VARIANTS } from '../footer/footer-links';
import { AccountMenu } from './AccountMenu';
import { FullHeader } from './FullHeader';
import { accountMenu, mobileNav, signInLink } from './header-nav';
import { MobilePanel } from './MobilePanel';

/**
 * Issue 33, the words of the header, its menus and the footer: one term per concept in each locale
 * (the same sign-in and sign-out words as the pages' own buttons), a settings menu titled "Menu"
 * as §2 names it, and no `{placeholder}` left in any label.
 */

/** The repository's locales/ folder (views read no server configuration, even in their specs). */
const LOCALES_DIR = path.join(__dirname, '..', '..', '..', 'locales');

const load = (locale: Locale, namespace: string): Record<string, unknown> =>
  JSON.parse(
    fs.readFileSync(path.join(LOCALES_DIR, locale, `${namespace}.json`), 'utf8'),
  ) as Record<string, unknown>;

const translate = (locale: Locale) =>
  createTranslate({
    header: load(locale, 'header'),
    footer: load(locale, 'footer'),
    common: load(locale, 'common'),
  });

/** Every string of a namespace with its key. */
function strings(tree: unknown, prefix: string): [string, string][] {
  if (typeof tree === 'string') return [[prefix, tree]];
  return Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) =>
    strings(value, `${prefix}.${key}`),
  );
}

/** The footer's copyright lines take the year (Footer fills it); no other label has a placeholder. */
const FILLED_PLACEHOLDERS = new Set([
  'footer.bottomBar.copyright',
  'footer.bottomBar.powerpacksCopyright',
]);

/** §2 "Settings menu: Menu, ...": the title is the word for "menu", nothing more. */
const MENU: Readonly<Record<Locale, string>> = {
  'en-US': 'Menu',
  'en-CA': 'Menu',
  'fr-CA': 'Menu',
  'ja-JP': 'メニュー',
};

/** Words a locale uses for signing in and out that are not its chosen terms. */
const OTHER_TERMS: Readonly<Record<Locale, RegExp>> = {
  'en-US': /\blog ?(in|out)\b/i,
  'en-CA': /\blog ?(in|out)\b/i,
  'fr-CA': /\b(ouvrir|fermer) (une|la) session\b/i,
  'ja-JP': /ログイン|ログアウト/,
};

/** Everything the header, its open menus and every footer variant render, as markup. */
function renderedShell(locale: Locale): string {
  const data = shellData({ locale });
  const t = translate(locale);
  const nav = mobileNav(data);
  const panel = (signedIn: boolean) => (
    <MobilePanel
      nav={nav}
      t={t}
      currentPath={data.currentPath}
      open
      expanded={nav.sections.map((section) => section.key)}
      onToggleSection={() => undefined}
      onEscape={() => undefined}
      {...(signedIn ? {} : { signIn: signInLink(locale) })}
    />
  );
  return [
    renderToString(<FullHeader data={data} t={t} />),
    renderToString(panel(true)),
    renderToString(panel(false)),
    renderToString(
      <AccountMenu
        menu={accountMenu(data)}
        t={t}
        currentPath={data.currentPath}
        open
        onToggle={() => undefined}
        onClose={() => undefined}
      />,
    ),
    ...FOOTER_VARIANTS.map((variant) =>
      renderToString(<Footer data={data} t={t} variant={variant} onOpenConsent={() => {}} />),
    ),
  ].join('\n');
}

describe.each(LOCALES)('header and footer wording, %s (issue 33)', (locale) => {
  const t = translate(locale);
  const labels = [
    ...strings(load(locale, 'header'), 'header'),
    ...strings(load(locale, 'footer'), 'footer'),
  ];

  it('signs in and out with the words the pages’ own buttons use', () => {
    const signIn = t('common.buttons.signIn').toLocaleLowerCase(locale);
    const signOut = t('common.collection.signOut').toLocaleLowerCase(locale);
    expect(
      ['header.actions.signIn', 'header.actions.signOut', 'header.settingsMenu.signOut'].map((k) =>
        t(k).toLocaleLowerCase(locale),
      ),
    ).toEqual([signIn, signOut, signOut]);
    expect(labels.filter(([, text]) => OTHER_TERMS[locale].test(text))).toEqual([]);
  });

  it('titles the settings menu "Menu"', () => {
    expect(t('header.settingsMenu.title')).toBe(MENU[locale]);
  });

  it('holds no {placeholder} in any label but the copyright lines’ year', () => {
    expect(
      labels.filter(([key, text]) => !FILLED_PLACEHOLDERS.has(key) && /\{\w+\}/.test(text)),
    ).toEqual([]);
  });

  it('renders no {placeholder} and no untranslated key in the header, its menus or a footer', () => {
    const html = renderedShell(locale);
    expect(html.match(/\{\w+\}/g)).toBeNull();
    expect(html.match(/[>"](header|footer)\.[a-zA-Z.]+[<"]/g)).toBeNull();
  });
});
