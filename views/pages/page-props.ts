import type { ShellData } from '../shell/shell-data';
import type { Translate } from '../../src/shared/translate';

/** What every hydrated page component receives. */
export interface PageProps {
  readonly data: ShellData;
  readonly t: Translate;
}
