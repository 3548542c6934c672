import { useContext, useEffect, useState, type ReactNode } from 'react';
import { shellGuard, shellSigninUrl, SIGNED_OUT } from '../../src/shared/shell-guard';
import type { Translate } from '../../src/shared/translate';
import { LoadingScreen } from '../ui/LoadingOverlay';
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
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    // §3: the collector's "Not now" (issue 14 item 6) lives in browser storage; the session that
    // learned it from the IdP hands it over in the page data. Nothing else writes the flag. The
    // session's word counts even where storage is unavailable, so the two rules always agree.
    if (data.promptMfaSignin === 'false')
      services.storage?.setItem(PROMPT_MFA_SIGNIN_KEY, data.promptMfaSignin);
    const promptMfaSignin =
      data.promptMfaSignin ?? services.storage?.getItem(PROMPT_MFA_SIGNIN_KEY) ?? undefined;
    const reason = shellGuard(data.account ?? SIGNED_OUT, {
      ...(data.referrerBrand ? { brand: data.referrerBrand } : {}),
      ...(promptMfaSignin !== undefined ? { promptMfaSignin } : {}),
    });
    if (!reason) return;
    setLeaving(true);
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
  }, [data, services]);

  return leaving ? <LoadingScreen t={t} /> : <>{children}</>;
}
