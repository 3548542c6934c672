import type { ComponentType } from 'react';
import type { FooterVariant } from '../shell/footer/footer-links';
import { CollectionPage } from './CollectionPage';
import { ErrorShellPage } from './ErrorShellPage';
import type { PageProps } from './page-props';
import { SessionsPage } from './SessionsPage';
import { SignedOutPage } from './SignedOutPage';

export interface PageDefinition {
  readonly Component: ComponentType<PageProps>;
  /** §2: the full grading-site header, or the simple one (logo and optional back button). */
  readonly header: 'full' | 'simple';
  readonly footer: FooterVariant;
  /** §2: shown only to a collector the shell rule lets in (checked again in the browser). */
  readonly guarded: boolean;
}

/** Every hydrated page, by the name the server puts in ShellData.page. */
export const PAGES: Readonly<Record<string, PageDefinition>> = {
  collection: { Component: CollectionPage, header: 'full', footer: 'default', guarded: true },
  sessions: { Component: SessionsPage, header: 'full', footer: 'default', guarded: true },
  error: { Component: ErrorShellPage, header: 'simple', footer: 'legal', guarded: false },
  signedOut: { Component: SignedOutPage, header: 'simple', footer: 'legal', guarded: false },
};
