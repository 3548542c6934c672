import { hash, timingSafeEqual } from 'node:crypto';

/**
 * A secret held only by one browser (an HttpOnly cookie) that a server-side record keeps as a hash:
 * the pending sign-in's `signinBinding` (RFC 9700 §4.7.1) and the session's `sessionBinding` (issue 14
 * item 4). A copy of the store yields no usable binding. Node's one-shot `hash` (0.5 µs here) rather
 * than a Hash object (1.8 µs): every signed-in request checks its binding (issue 18 item 2).
 */
export function bindingHashOf(binding: string): string {
  return hash('sha256', binding, 'base64url');
}

/** Whether the browser's binding matches the kept hash, in constant time. */
export function matchesBinding(expectedHash: string | undefined, binding: unknown): boolean {
  if (!expectedHash || typeof binding !== 'string' || binding === '') return false;
  const expected = Buffer.from(expectedHash);
  const actual = Buffer.from(bindingHashOf(binding));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
