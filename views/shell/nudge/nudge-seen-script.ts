import { NUDGE_INTERVAL_MS, NUDGE_LAST_SHOWN_KEY } from './nudge-timing';

/** The class on <html> that hides the server-drawn nudge before the first paint (nudge.css). */
export const NUDGE_SEEN_CLASS = 'app-nudge-seen';

/**
 * The <head> script of a page a phone asks for, inlined under the page's CSP nonce. The
 * server draws the app nudge at the top of such a page, so that it has its room before the first
 * paint; only the browser knows whether it was shown in the last 168 hours (§9, localStorage). This
 * says so before the body is drawn, so a nudge not due never shows and never takes room: the rule
 * of shouldShowNudge and parseNudgeLastShown (a stored time that is not a whole number counts as
 * none; a storage that cannot be read keeps the nudge hidden). The component decides again after
 * hydration, with the same rule. Plain ES5, no imports: it runs before the bundle.
 */
export const NUDGE_SEEN_SCRIPT = `(function () {
  var hide = function () {
    document.documentElement.classList.add(${JSON.stringify(NUDGE_SEEN_CLASS)});
  };
  try {
    var stored = (localStorage.getItem(${JSON.stringify(NUDGE_LAST_SHOWN_KEY)}) || '').trim();
    var last = /^\\d+$/.test(stored) ? Number(stored) : NaN;
    if (Number.isSafeInteger(last) && Date.now() - last < ${NUDGE_INTERVAL_MS}) hide();
  } catch (e) {
    hide();
  }
})();`
  // Every line ends a statement or opens or closes a block, so the lines join without their
  // indentation: it is sent with every page a phone asks for.
  .replace(/\n\s*/g, '');
