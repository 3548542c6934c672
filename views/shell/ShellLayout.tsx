import { useContext, useEffect, type ReactNode } from 'react';
import type { Translate } from '../../src/shared/translate';
import { supportUrlOf } from './ErrorView';
import { Footer } from './footer/Footer';
import type { FooterVariant } from './footer/footer-links';
import { FullHeader } from './header/FullHeader';
import { SimpleHeader } from './header/SimpleHeader';
import { MobileAppNudge } from './nudge/MobileAppNudge';
import type { ShellData } from './shell-data';
import { ShellErrorBoundary } from './ShellErrorBoundary';
import { ShellGuardGate } from './ShellGuardGate';
import { ShellServicesContext } from './shell-services';
import { ToastProvider, ToastRegion, useToasts } from './toasts/Toasts';

export interface ShellLayoutProps {
  readonly data: ShellData;
  readonly t: Translate;
  readonly header: 'full' | 'simple';
  readonly footer: FooterVariant;
  readonly guarded: boolean;
  readonly children: ReactNode;
}

/**
 * The signed-in shell around every hydrated page: header, main content (guarded by the §2 rule and
 * by the render-error boundary of §8), footer, the toast region, and above them all the mobile-app
 * nudge.
 */
export function ShellLayout({ data, t, header, footer, guarded, children }: ShellLayoutProps) {
  const services = useContext(ShellServicesContext);
  const supportUrl = supportUrlOf(data.services.grading);
  const content = (
    <ShellErrorBoundary
      t={t}
      supportUrl={supportUrl}
      report={services.reportError}
      path={() => {
        try {
          return new URL(services.currentUrl()).pathname;
        } catch {
          return data.currentPath.split('?')[0] ?? '/';
        }
      }}
    >
      {children}
    </ShellErrorBoundary>
  );
  return (
    <ToastProvider>
      <div className="shell">
        {/* First, where a banner belongs: drawn by the server, so it moves nothing once drawn. */}
        <MobileAppNudge
          t={t}
          {...(data.appNudge ? { platform: data.appNudge } : {})}
          {...(services.storage ? { storage: services.storage } : {})}
        />
        {header === 'full' ? <FullHeader data={data} t={t} /> : <SimpleHeader data={data} t={t} />}
        <main id="main" className="shell-main" tabIndex={-1}>
          {guarded ? (
            <ShellGuardGate data={data} t={t}>
              {content}
            </ShellGuardGate>
          ) : (
            content
          )}
        </main>
        <Footer data={data} t={t} variant={footer} onOpenConsent={services.openConsent} />
        <ToastRegion t={t} />
        <ToastBridge t={t} />
      </div>
    </ToastProvider>
  );
}

/** Hands the toast queue to the browser's services (nothing on the server). */
function ToastBridge({ t }: { readonly t: Translate }) {
  const services = useContext(ShellServicesContext);
  const { show, dismiss } = useToasts();
  useEffect(() => {
    services.connectToasts?.({ show, dismiss }, t);
  }, [services, show, dismiss, t]);
  return null;
}
