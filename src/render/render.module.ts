import { Global, Module } from '@nestjs/common';
import { CLIENT_ASSETS, loadClientAssets } from './client-assets';
import { PageRenderer } from './page-renderer';
import { ShellRenderer } from './shell-renderer';

/**
 * Server-side rendering for every module: the plain pages (messages, sign-in steps) and the hydrated
 * shell pages with the browser bundle (read once at start: a missing bundle stops start-up).
 */
@Global()
@Module({
  providers: [
    PageRenderer,
    ShellRenderer,
    { provide: CLIENT_ASSETS, useFactory: () => loadClientAssets() },
  ],
  exports: [PageRenderer, ShellRenderer, CLIENT_ASSETS],
})
export class RenderModule {}
