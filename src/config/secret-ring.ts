/**
 * SESSION_SECRET as a ring (docs/operating.md "Rotating secrets"): a comma-separated list, newest
 * first. The first secret names every session made from now on; every secret in the ring still
 * finds the sessions made under it, so a rotation signs nobody out.
 */

/** What separates the ring's secrets. A secret therefore cannot hold one. */
export const SECRET_RING_SEPARATOR = ',';

/**
 * The most secrets a ring may hold. A session id that names no session is looked up under every one
 * (a store read each), so the ring is kept short: the secret in use, the next and the previous, and
 * one to spare.
 */
export const MAX_RING_SECRETS = 4;

/** The secrets of a ring, newest first, or the one problem that makes the text no ring. */
export type SecretRingReading =
  { readonly secrets: readonly string[] } | { readonly problem: string };

const ordinal = (index: number, count: number): string => `secret ${index + 1} of ${count}`;

/**
 * Reads `NEW,OLD`. Each secret is taken exactly as written: a secret that has always ended in a
 * newline (a Kubernetes Secret made with `echo`) still names the sessions made under it. Only
 * whitespace next to a comma is refused, as the typo it is (`NEW, OLD` would make the old secret
 * " OLD", which names no session, and so sign everyone out).
 */
export function readSecretRing(text: string): SecretRingReading {
  const secrets = text.split(SECRET_RING_SEPARATOR);
  const count = secrets.length;
  const hint = 'SESSION_SECRET is a comma-separated list of secrets, newest first';
  if (count > MAX_RING_SECRETS)
    return { problem: `holds ${count} secrets; at most ${MAX_RING_SECRETS} (${hint})` };
  for (const [index, secret] of secrets.entries()) {
    const which = ordinal(index, count);
    if (secret === '')
      return { problem: `${which} is empty (${hint}; a secret cannot hold a comma)` };
    if (index > 0 && /^\s/.test(secret))
      return { problem: `${which} starts with whitespace: write the list as NEW,OLD, no spaces` };
    if (index < count - 1 && /\s$/.test(secret))
      return { problem: `${which} ends with whitespace: write the list as NEW,OLD, no spaces` };
    const earlier = secrets.indexOf(secret);
    if (earlier < index)
      return { problem: `${which} repeats secret ${earlier + 1}: each secret appears once` };
  }
  return { secrets };
}

/**
 * How a problem names one secret of the ring: the variable alone for a ring of one (as before rings
 * existed), else with the secret's place, first = 1 (`SESSION_SECRET[2]`).
 */
export function ringEntryName(name: string, index: number, count: number): string {
  return count === 1 ? name : `${name}[${index + 1}]`;
}
