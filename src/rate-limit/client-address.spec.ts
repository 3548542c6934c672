import { rateLimitAddress } from './client-address';

/**
 * docs/security.md, unauthenticated writes: per-address limits count IPv4 by address, IPv6 by /64
 * and an IPv4-mapped IPv6 address as the IPv4 address it maps.
 */
describe(rateLimitAddress.name, () => {
  it.each([
    ['IPv4', '203.0.113.7', '203.0.113.7'],
    ['IPv4 loopback', '127.0.0.1', '127.0.0.1'],
    ['IPv4-mapped IPv6', '::ffff:203.0.113.7', '203.0.113.7'],
    ['IPv4-mapped IPv6, upper case', '::FFFF:203.0.113.7', '203.0.113.7'],
    ['IPv4-mapped IPv6 in hex', '::ffff:cb00:7107', '203.0.113.7'],
    ['IPv4-mapped IPv6 written out', '0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
    ['IPv6', '2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['IPv6, compressed', '2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['IPv6, leading zeros and upper case', '2001:0DB8:0001:0002::1', '2001:db8:1:2::/64'],
    ['IPv6, zeros in the prefix', '2001:db8::1', '2001:db8:0:0::/64'],
    ['IPv6 with a zone id', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['IPv6 loopback', '::1', '0:0:0:0::/64'],
    ['IPv6 with an embedded IPv4 that is not mapped', '64:ff9b::203.0.113.7', '64:ff9b:0:0::/64'],
    ['no address', undefined, 'unknown'],
    ['an empty address', '', 'unknown'],
  ])('%s: %s counts as %s', (_name, ip, key) => {
    expect(rateLimitAddress(ip)).toBe(key);
  });

  it('counts every address of one /64 as one client, and the next /64 apart', () => {
    const rotated = ['2001:db8:a:b::1', '2001:db8:a:b:ffff:ffff:ffff:ffff', '2001:db8:a:b:1234::'];
    expect(new Set(rotated.map(rateLimitAddress))).toEqual(new Set(['2001:db8:a:b::/64']));
    expect(rateLimitAddress('2001:db8:a:c::1')).not.toBe(rateLimitAddress('2001:db8:a:b::1'));
  });

  it('keeps whatever else a proxy wrote short and apart', () => {
    const key = rateLimitAddress('unknown, or a very long proxy placeholder '.repeat(100));
    expect(key).toMatch(/^other:[A-Za-z0-9_-]{22}$/);
    expect(rateLimitAddress('unknown')).not.toBe(key);
  });
});
