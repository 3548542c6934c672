/** How deep a cause chain is followed; driver errors rarely nest more than two levels. */
const MAX_CAUSES = 4;
const MAX_LENGTH = 300;

/**
 * One line for a log that names what failed and why, e.g. `fetch failed: connect ECONNREFUSED
 * 127.0.0.1:9`: the messages (and `code`s) along the cause chain. Credentials in a connection URL
 * (`redis://user:secret@host`) are removed; a driver error may quote its URL.
 */
export function errorSummary(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSES && current !== undefined && current !== null; depth++) {
    // Duck-typed: an error made in another realm (a VM context, Node's internals under a test
    // runner) is no `instanceof Error` here.
    if (typeof current === 'object' && typeof (current as Error).message === 'string') {
      const { message: text, code, cause } = current as Error & { code?: unknown };
      const message = typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
      if (message && !parts.includes(message)) parts.push(message);
      current = cause;
    } else {
      // A thrown string or number says what it is; an object without a message says nothing useful.
      if (typeof current === 'string' || typeof current === 'number') parts.push(String(current));
      break;
    }
  }
  return parts
    .join(': ')
    .replace(/\/\/[^@\s/]*@/g, '//[redacted]@')
    .slice(0, MAX_LENGTH);
}
