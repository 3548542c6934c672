import type { Locale } from '../../shared/locale';
import type { Translate } from '../../shared/translate';
import type { Theme } from '../../../views/shell/shell-data';

/**
 * What every step page is rendered with: the language, its translator, and what the request says
 * about the collector (theme, an explicit ?lang=). The controller reads it from the request; the
 * service only passes it on to the pages, so neither file imports the other for it.
 */
export interface PageContext {
  readonly locale: Locale;
  readonly t: Translate;
  readonly termsUrl: string;
  /** Keeps an explicit ?lang= across the post/redirect/get hops. */
  readonly langQuery: string;
  /** The collector's theme (the shell's theme cookie); light without one. */
  readonly theme: Theme;
}
