import type { Brand } from '../../src/shared/brand';
import type { AppEnv, ServiceBases } from '../../src/shared/environment';
import type { Locale } from '../../src/shared/locale';
import type { AuthUserState } from '../../src/shared/shell-guard';
import type { MobilePlatform } from './nudge/nudge-timing';

export type Theme = 'light' | 'dark';

/** Translations of one locale by namespace (common, header, footer), as the locale files hold them. */
export type Messages = Readonly<Record<string, unknown>>;

/**
 * Everything a shell page renders from, on the server and again in the browser: the server
 * serialises it into the page (a JSON script) and the client bundle hydrates from the same object, so
 * both sides render identical markup. It therefore holds only plain, serialisable data; anything that
 * differs between the two sides (the clock, the device, storage) is read after hydration, in effects.
 */
export interface ShellData {
  /** Which hydrated page this is; the client picks its component by this name. */
  readonly page: string;
  readonly locale: Locale;
  readonly env: AppEnv;
  /** The brand the collector came from (§2 favicons/logos, the psajapan and survey rules). */
  readonly brand: Brand;
  /** §2 b: the brand of the referring host, when it is one of ours (the shell rule's brand). */
  readonly referrerBrand?: Brand;
  /** From the theme cookie (§4 Other), light when absent. */
  readonly theme: Theme;
  /** §1: the four service base addresses of this environment. */
  readonly services: ServiceBases;
  /** §3 "Enabled-features data": e.g. 'gettingStarted' switches the header's first dropdown. */
  readonly features: readonly string[];
  /** The path (and query) of this page, for active-link matching. */
  readonly currentPath: string;
  /** The copyright year (§9), fixed by the server so that hydration renders the same text. */
  readonly year: number;
  /**
   * §3 Auth user state as the server found it (the client applies the §2 shell rule to it with the
   * browser's promptMfaSignin flag); absent on pages that do not need it.
   */
  readonly account?: AuthUserState;
  /**
   * §3 promptMfaSignin as the collector's session holds it: 'false' once they chose "Not now" on
   * PromptSetupMfa (issue 14 item 6). The browser stores it under the §3 key, so its own run of the
   * §2 rule agrees with the server's; absent when the session holds no such choice.
   */
  readonly promptMfaSignin?: 'false';
  /** The namespaces this page renders with, in its locale. */
  readonly messages: Readonly<Record<string, Messages>>;
  /** Page-specific props (serialisable). */
  readonly props?: Readonly<Record<string, unknown>>;
  /**
   * §2 Mobile-app nudge: the platform the request's user agent names (Android or iOS), for which
   * the server draws the nudge at the top of the page; absent for any other device.
   */
  readonly appNudge?: MobilePlatform;
}

/**
 * What the simple header and the footer read of a page (§2). The server-only pages of the journey
 * (the IdP's sign-in steps, message pages) build just this much; a ShellData is one too. The theme
 * picks the logos' artwork (BrandLogo); a page without one is light.
 */
export type PageFrameData = Pick<
  ShellData,
  'locale' | 'env' | 'services' | 'brand' | 'currentPath' | 'year'
> &
  Partial<Pick<ShellData, 'theme'>>;

/**
 * The sections of the common namespace every shell page may render (the error view any page can
 * fall back to, toasts, the nudge); the rest of it (the IdP's sign-in step texts, server-side error
 * texts) stays out of every page's hydration data.
 */
export const SHELL_COMMON_SECTIONS = [
  'loading',
  'errorPage',
  'network',
  'validation',
  'buttons',
  'toasts',
  'appNudge',
] as const;

/**
 * The sections only one page renders, sent with that page alone: the shell navigates between pages
 * by loading them, so /collection never needs the sessions list's texts (which it links to with one
 * of them). They kept /collection within its 45 kB for a phone (issue 18) once issue 33's texts came.
 */
export const PAGE_COMMON_SECTIONS: Readonly<Record<string, readonly string[]>> = {
  // A `section.key` entry sends that one text of a section: /collection links to the sessions page.
  collection: ['collection', 'sessions.manage'],
  sessions: ['sessions'],
  signedOut: ['signedOut'],
};

/** The common sections a page's hydration data carries. */
export function commonSectionsOf(page: string): readonly string[] {
  return [...SHELL_COMMON_SECTIONS, ...(PAGE_COMMON_SECTIONS[page] ?? [])];
}
