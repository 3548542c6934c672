import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOCALES_DIR } from '../config/project-paths';
import { BROWSER_NAMESPACES, DEFAULT_LOCALE, LOCALES, NAMESPACES } from '../shared/locale';

type Tree = { [key: string]: string | Tree };

function load(locale: string, ns: string): Tree {
  return JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, locale, `${ns}.json`), 'utf8')) as Tree;
}

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [k2, v2] of flatten(v, key)) out.set(k2, v2);
  }
  return out;
}

/** nestjs-i18n formats with string-format: `{name}` placeholders. */
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
/** Proper nouns may read the same in every language; they live under `brandNames` only. */
const isBrandName = (key: string) => key.startsWith('brandNames.');
/** Texts French spells exactly as English does (`namespace.key`). */
const SAME_IN_FRENCH: ReadonlySet<string> = new Set([
  // vanilla-cookieconsent's `singular|plural` counter: « Service|Services » in French too.
  'consent.preferencesModal.serviceCounter',
  // §2 "Settings menu: Menu": the French word is « Menu » too (issue 33).
  'header.settingsMenu.title',
  // A wait of "{count} minutes" (or « minute ») is written the same way in French.
  'common.waitTime.minutes',
  'common.waitTime.minutesOne',
]);
/** Every file the server's loader reads: the namespaces pages embed and those the browser loads. */
const ALL_NAMESPACES = [...NAMESPACES, ...BROWSER_NAMESPACES];
const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]/;

describe('locale files (§7: locales/{locale}/{namespace}.json)', () => {
  it('exist for every locale and namespace, and no other file does', () => {
    for (const locale of LOCALES) {
      const files = fs.readdirSync(path.join(LOCALES_DIR, locale)).sort();
      expect(files).toEqual(ALL_NAMESPACES.map((ns) => `${ns}.json`).sort());
    }
  });

  describe.each(ALL_NAMESPACES)('%s', (ns) => {
    const reference = flatten(load(DEFAULT_LOCALE, ns));

    it.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))(
      '%s has exactly the keys of en-US',
      (locale) => {
        const keys = [...flatten(load(locale, ns)).keys()].sort();
        expect(keys).toEqual([...reference.keys()].sort());
      },
    );

    it.each(LOCALES)(
      '%s has only non-empty strings with the same placeholders as en-US',
      (locale) => {
        for (const [key, value] of flatten(load(locale, ns))) {
          expect(value.trim()).not.toBe('');
          expect(placeholders(value)).toEqual(placeholders(reference.get(key) ?? ''));
        }
      },
    );

    it('fr-CA is French, not an English copy', () => {
      for (const [key, value] of flatten(load('fr-CA', ns))) {
        if (!isBrandName(key) && !SAME_IN_FRENCH.has(`${ns}.${key}`))
          expect({ key, value }).not.toEqual({ key, value: reference.get(key) });
      }
    });

    it('ja-JP is Japanese, not an English copy', () => {
      for (const [key, value] of flatten(load('ja-JP', ns))) {
        if (!isBrandName(key))
          expect({ key, japanese: JAPANESE.test(value) }).toEqual({ key, japanese: true });
      }
    });

    // Japanese text asks with the full-width ？ (and exclaims with ！), as every other question in
    // these files does; an ASCII ? after Japanese reads as a typo.
    it('ja-JP asks with a full-width ？ after Japanese text', () => {
      for (const [key, value] of flatten(load('ja-JP', ns))) {
        const halfWidth = /[\u3040-\u30ff\u3400-\u9fff][?!]/.test(value);
        expect({ key, value, halfWidth }).toEqual({ key, value, halfWidth: false });
      }
    });
  });
});
