import type { Locale } from './locale';

/**
 * Sentences written one after another, as each language writes them. Latin scripts put a space
 * after the full stop; Japanese does not: its 。 already closes the sentence, and an ASCII space
 * between two Japanese sentences reads as a typo (and gives a line a stray break opportunity).
 */
export function joinSentences(sentences: readonly string[], locale: Locale): string {
  return sentences.join(SENTENCE_SEPARATORS[locale]);
}

const SENTENCE_SEPARATORS: Readonly<Record<Locale, string>> = {
  'en-US': ' ',
  'en-CA': ' ',
  'fr-CA': ' ',
  'ja-JP': '',
};
