import { ZodError } from 'zod';
import type { z } from 'zod';

/** An issue without a path is about the input as a whole. */
const WHOLE_INPUT = 'input';

/** Keys are the caller's text: one is repeated only when it is plainly a name. */
const PLAIN_KEY = /^[A-Za-z0-9_$-]{1,64}$/;
const namedKey = (key: string): string => (PLAIN_KEY.test(key) ? key : '(an unreadable key)');

/**
 * §8, issue 5: a refused input's message names each field at fault and says what is wrong with it,
 * as "field: reason; field: reason" (the cookie rules' messages have the same form), instead of
 * zod's issue list as JSON. Nested fields are dotted (`a.b`, `list.0`); a key the procedure does not
 * take is named as such. The input's values are never repeated, so a message cannot echo a secret.
 */
export function describeInputIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .flatMap((issue) => {
      const at = issue.path.map((part) => namedKey(String(part))).join('.');
      if (issue.code === 'unrecognized_keys')
        return issue.keys.map(
          (key) => `${at ? `${at}.` : ''}${namedKey(key)}: not a field of this call`,
        );
      return [`${at || WHOLE_INPUT}: ${issue.message}`];
    })
    .join('; ');
}

/** The message a refused call answers with: readable for zod's refusals, unchanged otherwise. */
export function inputErrorMessage(cause: unknown, message: string): string {
  return cause instanceof ZodError ? describeInputIssues(cause.issues) : message;
}
