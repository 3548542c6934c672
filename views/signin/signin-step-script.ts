import { PASSWORD_FIELDS_SCRIPT } from './password-fields-script';
import { REQUIRED_FIELDS_SCRIPT } from './required-fields-script';

/**
 * The one inline script of a sign-in step, under the page's CSP nonce (PageRenderer.framed): the
 * product's messages for empty fields, then the password fields' show button and rules. Both are
 * small, plain and self-contained, so the sign-in pages load no bundle for them.
 */
export const SIGNIN_STEP_SCRIPT = `${REQUIRED_FIELDS_SCRIPT}\n${PASSWORD_FIELDS_SCRIPT}`;
