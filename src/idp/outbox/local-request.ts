/**
 * Who may read the outbox (issue 15 item 5): a request from this machine, to this machine, with no
 * proxy in between. The socket address alone is not enough: a reverse proxy on the same host connects
 * from 127.0.0.1 on behalf of anyone, and a DNS-rebinding page in a developer's browser reaches
 * 127.0.0.1 under the attacker's host name. So the Host must be a loopback name or address, and any
 * forwarding header (which only a proxy adds) refuses the request.
 */
export interface OutboxVisit {
  readonly remoteAddress?: string;
  readonly host?: string;
  readonly headers: Readonly<Record<string, unknown>>;
}

const LOOPBACK_ADDRESS = /^(127(?:\.\d{1,3}){3}|::1|::ffff:127(?:\.\d{1,3}){3})$/;
const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/i;
/** Headers that say a proxy passed the request on (RFC 7239 and the de facto ones). */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip'];

export type OutboxRefusal = 'remote-address' | 'host' | 'forwarded';

export function outboxRefusal(visit: OutboxVisit): OutboxRefusal | undefined {
  if (!LOOPBACK_ADDRESS.test(visit.remoteAddress ?? '')) return 'remote-address';
  if (!LOOPBACK_HOST.test(visit.host ?? '')) return 'host';
  if (FORWARDING_HEADERS.some((h) => visit.headers[h] !== undefined)) return 'forwarded';
  return undefined;
}
