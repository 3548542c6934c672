import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOCALES_DIR } from '../../config/project-paths';
import type { Locale } from '../../shared/locale';

/**
 * Issue 33 item 7: one term per concept on the sign-in pages (the steps' `signin.*` texts and the
 * IdP's own pages' `idp.*`), in each language: the term the pages use, never its synonym.
 */
const OTHER_TERMS: Readonly<Record<Locale, readonly RegExp[]>> = {
  // "Sign in" / "sign out", never "log in" / "log out" / "login".
  'en-US': [/\blog ?(in|out)\b/i, /\blogin\b/i],
  'en-CA': [/\blog ?(in|out)\b/i, /\blogin\b/i],
  // « Se connecter » / « connexion », never « ouvrir une session » or « identifiez-vous ».
  'fr-CA': [/ouvrir une session|ouverture de session|identifiez-vous/i],
  // サインイン / サインアウト as the shell, never ログイン / ログアウト; a password is 再設定, never リセット.
  'ja-JP': [/ログイン|ログアウト/, /リセット/],
};

function texts(locale: Locale): [string, string][] {
  const common = JSON.parse(
    fs.readFileSync(path.join(LOCALES_DIR, locale, 'common.json'), 'utf8'),
  ) as Record<string, unknown>;
  const out: [string, string][] = [];
  const walk = (node: unknown, key: string) => {
    if (typeof node === 'string') out.push([key, node]);
    else if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) walk(v, `${key}.${k}`);
  };
  walk(common.signin, 'signin');
  walk(common.idp, 'idp');
  return out;
}

describe('the sign-in pages name each thing one way (issue 33 item 7)', () => {
  it.each(Object.keys(OTHER_TERMS) as Locale[])('%s', (locale) => {
    const found = texts(locale).filter(([, text]) =>
      OTHER_TERMS[locale].some((term) => term.test(text)),
    );
    expect(found).toEqual([]);
    expect(texts(locale).length).toBeGreaterThan(100);
  });
});
