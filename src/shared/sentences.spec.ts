import { joinSentences } from './sentences';

describe(joinSentences.name, () => {
  const table = [
    [
      'en-US',
      ['Add a number.', 'Add a special character.'],
      'Add a number. Add a special character.',
    ],
    ['en-CA', ['Add a number.', 'Use 8.'], 'Add a number. Use 8.'],
    [
      'fr-CA',
      ['Ajoutez un chiffre.', 'Ajoutez une majuscule.'],
      'Ajoutez un chiffre. Ajoutez une majuscule.',
    ],
    [
      'ja-JP',
      ['数字を含めてください。', '英大文字を含めてください。'],
      '数字を含めてください。英大文字を含めてください。',
    ],
    ['ja-JP', ['8文字以上にしてください。'], '8文字以上にしてください。'],
    ['en-US', [], ''],
  ] as const;

  it.each(table)('%s joins %j as %j', (locale, sentences, joined) => {
    expect(joinSentences(sentences, locale)).toBe(joined);
  });
});
