import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderToString } from 'react-dom/server';
import { LOCALES, type Locale } from '../../src/shared/locale';
import type { LandingData } from '../../src/shared/landing';
import { createTranslate } from '../../src/shared/translate';
import { shellData } from '../../test/fixtures/header.fixtures';
import { CollectionPage } from './CollectionPage';

/** The locale files (views/ reads nothing of src/config: the dependency rules). */
const LOCALES_DIR = path.join(__dirname, '..', '..', 'locales');

const common = (locale: Locale) =>
  JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, locale, 'common.json'), 'utf8')) as Record<
    string,
    unknown
  >;

const landing = (sessionCount: number): LandingData => ({
  account: { name: 'Casey', email: 'casey@example.com', collectorsId: 42, factors: ['totp'] },
  sessionCount,
  continueTo: [{ brand: 'psa', name: 'PSA', href: '/signin?b=psa' }],
});

function render(locale: Locale, sessionCount: number): string {
  const messages = { common: common(locale) };
  const data = shellData({ locale, messages, props: { ...landing(sessionCount) } });
  return renderToString(<CollectionPage data={data} t={createTranslate(messages)} />);
}

/** The text of the sessions block's count line. */
function countLine(html: string): string {
  const block = html.slice(html.indexOf('id="sessions-title"'));
  return /<p>([^<]*)<\/p>/.exec(block)?.[1] ?? '';
}

/** Issue 33: /collection in every locale: counted words agree with the count, an honest heading. */
describe('CollectionPage', () => {
  it.each([
    ['en-US', 1, 'Signed in on 1 device or site'],
    ['en-US', 2, 'Signed in on 2 devices or sites'],
    ['en-US', 0, 'Signed in on 0 devices or sites'],
    ['en-CA', 1, 'Signed in on 1 device or site'],
    // French: 0 and 1 are singular.
    ['fr-CA', 0, 'Connecté sur 0 appareil ou site'],
    ['fr-CA', 1, 'Connecté sur 1 appareil ou site'],
    ['fr-CA', 2, 'Connecté sur 2 appareils ou sites'],
    // Japanese counts with a counter word, and has no plural.
    ['ja-JP', 1, '1か所の端末・サイトでサインインしています'],
    ['ja-JP', 3, '3か所の端末・サイトでサインインしています'],
  ] as const)('%s, %i sessions: "%s"', (locale, count, expected) => {
    expect(countLine(render(locale, count))).toBe(expected);
  });

  it.each(LOCALES)('%s: headed as the account it shows, not as a collection', (locale) => {
    const html = render(locale, 1);
    const h1 = /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1] ?? '';
    expect(h1).not.toBe('');
    expect(h1).not.toMatch(/collection|コレクション/i);
    // The page's other headings do not repeat it.
    const h2s = [...html.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1]);
    expect(h2s).not.toContain(h1);
  });

  it.each(LOCALES)('%s: no {placeholder} and no message key left in the page', (locale) => {
    for (const count of [0, 1, 2]) {
      const html = render(locale, count);
      expect(html).not.toMatch(/\{\w+\}/);
      expect(html).not.toMatch(/common\.\w+/);
    }
  });

  it('the sites to continue to are link cards', () => {
    const html = render('en-US', 1);
    expect(html).toContain('class="continue-card"');
    expect(html).toContain('aria-label="Continue to PSA, signed in"');
  });
});
