/** The part of `window` the watch listens on. */
export interface RecheckWindow {
  readonly document: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
  addEventListener(type: 'pageshow', listener: (event: PageTransitionEvent) => void): void;
  removeEventListener(type: 'pageshow', listener: (event: PageTransitionEvent) => void): void;
}

/**
 * §2 (issue 16 item 2): the moments when the auth state a shell page shows may be out of date,
 * because the session could have ended while the page was not looked at (a sign-out in another tab,
 * on another device, by the IdP):
 * - `pageshow` with `persisted`: the page comes back from the back-forward cache, with the state it
 *   had when it was left;
 * - `visibilitychange` to visible: its tab is shown again.
 * A first load is not one of them: the server has just applied the rule (§4 App start). This is
 * not a refetch on window focus (§7 turns those off): only the auth state is asked again, and only
 * at these two moments.
 */
export function watchAuthMayHaveChanged(target: RecheckWindow, listener: () => void): () => void {
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) listener();
  };
  const onVisibilityChange = () => {
    if (target.document.visibilityState === 'visible') listener();
  };
  target.addEventListener('pageshow', onPageShow);
  target.document.addEventListener('visibilitychange', onVisibilityChange);
  return () => {
    target.removeEventListener('pageshow', onPageShow);
    target.document.removeEventListener('visibilitychange', onVisibilityChange);
  };
}
