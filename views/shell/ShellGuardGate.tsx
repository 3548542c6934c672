import { useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  shellGuard,
  shellSigninUrl,
  SIGNED_OUT,
  type AuthUserState,
} from '../../src/shared/shell-guard';
import type { Translate } from '../../src/shared/translate';
import { LoadingOverlay, LoadingScreen } from '../ui/LoadingOverlay';
import type { ShellData } from './shell-data';
import { ShellServicesContext } from './shell-services';

/** §3: the browser's flag that skips the second-factor set-up prompt when 'false'. */
export const PROMPT_MFA_SIGNIN_KEY = 'promptMfaSignin';

/**
 * §2 Signed-in shell, in the browser: the server has rendered the page for a signed-in collector;
 * here the full rule runs with the browser's promptMfaSignin flag (migrating, second-factor set-up,
 * survey), stored first from the page data when the session holds it. If it says no, a loading
 * screen replaces the page while the browser goes to /signin with r, b, QTM_SID and QTM_UID. The
 * first render is the server's, so hydration matches.
 *
 * The rule runs again whenever the auth state may have changed elsewhere (issue 16 item 2: the page
 * comes back from the back-forward cache, or its tab is shown again after a sign-out in another
 * one): the page-level loading overlay shows while account.status is asked (§2 "while the auth state
 * is being determined"), and its answer goes through the same rule. A check that gets no answer
 * (§8 network failure, shown as a toast by the API client) leaves the page as it was.
 */
export function ShellGuardGate({
  data,
  t,
  children,
}: {
  data: ShellData;
  t: Translate;
  children: ReactNode;
}) {
  const services = useContext(ShellServicesContext);
  const [phase, setPhase] = useState<'shown' | 'checking' | 'leaving'>('shown');
  const leaving = useRef(false);
  const checking = useRef(false);

  /** Applies the §2 rule to an auth state; true when the browser is sent to /signin. */
  const leaveIfRefused = useCallback(
    (account: AuthUserState): boolean => {
      const promptMfaSignin =
        data.promptMfaSignin ?? services.storage?.getItem(PROMPT_MFA_SIGNIN_KEY) ?? undefined;
      const reason = shellGuard(account, {
        ...(data.referrerBrand ? { brand: data.referrerBrand } : {}),
        ...(promptMfaSignin !== undefined ? { promptMfaSignin } : {}),
      });
      if (!reason) return false;
      leaving.current = true;
      setPhase('leaving');
      const current = services.currentUrl();
      const qtmSid = services.readCookie('QTM_SID');
      const qtmUid = services.readCookie('QTM_UID');
      services.replaceLocation(
        shellSigninUrl(new URL(current).origin, {
          currentUrl: current,
          ...(data.referrerBrand ? { brand: data.referrerBrand } : {}),
          ...(qtmSid ? { qtmSid } : {}),
          ...(qtmUid ? { qtmUid } : {}),
          locale: data.locale,
        }),
      );
      return true;
    },
    [data, services],
  );

  useEffect(() => {
    // §3: the collector's "Not now" (issue 14 item 6) lives in browser storage; the session that
    // learned it from the IdP hands it over in the page data. Nothing else writes the flag. The
    // session's word counts even where storage is unavailable, so the two rules always agree.
    if (data.promptMfaSignin === 'false')
      services.storage?.setItem(PROMPT_MFA_SIGNIN_KEY, data.promptMfaSignin);
    leaveIfRefused(data.account ?? SIGNED_OUT);
  }, [data, services, leaveIfRefused]);

  useEffect(() => {
    let active = true;
    const stop = services.onAuthMayHaveChanged(() => {
      if (checking.current || leaving.current) return;
      checking.current = true;
      setPhase('checking');
      services.accountStatus().then(
        (account) => {
          checking.current = false;
          if (active && !leaveIfRefused(account)) setPhase('shown');
        },
        () => {
          checking.current = false;
          if (active) setPhase('shown');
        },
      );
    });
    return () => {
      active = false;
      stop();
    };
  }, [services, leaveIfRefused]);

  if (phase === 'leaving') return <LoadingScreen t={t} />;
  return (
    <>
      {children}
      {phase === 'checking' ? <LoadingOverlay t={t} /> : null}
    </>
  );
}
