import { hash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a client's per-address limits count under (docs/security.md, unauthenticated writes),
 * from the address Express gives (`req.ip`, which TRUST_PROXY decides: the socket's, or the one
 * that many proxies back in X-Forwarded-For):
 *
 * - IPv4: the address itself.
 * - IPv4-mapped IPv6 (`::ffff:203.0.113.7`, how a dual-stack socket shows an IPv4 client): the IPv4
 *   address, so one client is one counter whichever way it reached the service.
 * - any other IPv6: its /64, written `2001:db8:1:2::/64`. The low 64 bits are the interface id
 *   (RFC 4291 §2.5.1), which a host picks and rotates itself (RFC 8981), and a subscriber is given a
 *   /64 or more: counted by address, one client would get a fresh budget for every address it cares
 *   to pick.
 * - anything else (no address, or a proxy's placeholder such as `unknown`): `unknown`, or a hash of
 *   the text, so that a counter key stays short whatever a proxy wrote.
 */
export function rateLimitAddress(ip: string | undefined): string {
  if (ip === undefined || ip === '') return 'unknown';
  if (isIPv4(ip)) return ip;
  const hextets = isIPv6(ip) ? ipv6Hextets(ip) : undefined;
  if (!hextets) return `other:${hash('sha256', ip, 'base64url').slice(0, 22)}`;
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) {
    const [high = 0, low = 0] = hextets.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${hextets
    .slice(0, 4)
    .map((h) => h.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address Node calls valid (zone id and embedded IPv4 allowed). */
function ipv6Hextets(ip: string): number[] | undefined {
  let text = ip.split('%')[0] ?? '';
  // An embedded IPv4 address (`::ffff:1.2.3.4`) is the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail, extra] = text.split('::');
  if (extra !== undefined) return undefined;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const before = groups(head);
  const after = tail === undefined ? [] : groups(tail);
  const missing = 8 - before.length - after.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const all = [...before, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...after];
  const hextets = all.map((group) => (/^[0-9a-f]{1,4}$/i.test(group) ? parseInt(group, 16) : NaN));
  return hextets.some(Number.isNaN) ? undefined : hextets;
}
