/** waitPhrase over the real locale files (src/shared may not read files). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOCALES_DIR } from '../config/project-paths';
import type { Locale } from '../shared/locale';
import { createTranslate } from '../shared/translate';
import { waitPhrase } from '../shared/wait-phrase';

const translate = (locale: Locale) =>
  createTranslate({
    common: JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, locale, 'common.json'), 'utf8')),
  });

describe(waitPhrase.name, () => {
  it.each([
    ['en-US', 1, '1 second'],
    ['en-US', 30, '30 seconds'],
    ['en-US', 59, '59 seconds'],
    ['en-US', 60, '1 minute'],
    ['en-US', 61, '2 minutes'],
    ['en-US', 900, '15 minutes'],
    ['en-US', undefined, 'a few minutes'],
    ['en-CA', 30, '30 seconds'],
    ['fr-CA', 1, '1 seconde'],
    ['fr-CA', 30, '30 secondes'],
    ['fr-CA', 60, '1 minute'],
    ['fr-CA', 120, '2 minutes'],
    ['fr-CA', undefined, 'quelques minutes'],
    ['ja-JP', 1, '1秒'],
    ['ja-JP', 30, '30秒'],
    ['ja-JP', 90, '2分'],
    ['ja-JP', undefined, '数分'],
  ] as const)('%s, %s s: %s', (locale, seconds, expected) => {
    expect(waitPhrase(seconds, locale, translate(locale))).toBe(expected);
  });
});
