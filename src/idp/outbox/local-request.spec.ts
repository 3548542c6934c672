import { OutboxRefusal, OutboxVisit, outboxRefusal } from './local-request';

describe(outboxRefusal.name, () => {
  const local = { remoteAddress: '127.0.0.1', host: 'localhost:3333', headers: {} };
  const table: [string, OutboxVisit, OutboxRefusal | undefined][] = [
    ['a developer at localhost', local, undefined],
    ['127.0.0.1 with its port', { ...local, host: '127.0.0.1:3333' }, undefined],
    ['IPv6 loopback', { ...local, remoteAddress: '::1', host: '[::1]:3333' }, undefined],
    ['IPv4-mapped loopback socket', { ...local, remoteAddress: '::ffff:127.0.0.1' }, undefined],
    ['localhost without a port', { ...local, host: 'localhost' }, undefined],
    ['another machine', { ...local, remoteAddress: '10.0.0.7' }, 'remote-address'],
    ['no socket address', { ...local, remoteAddress: undefined }, 'remote-address'],
    ['DNS rebinding: a foreign Host on loopback', { ...local, host: 'evil.example:3333' }, 'host'],
    ['a look-alike host name', { ...local, host: 'localhost.evil.example' }, 'host'],
    ['127.0.0.1 as a prefix', { ...local, host: '127.0.0.1.evil.example' }, 'host'],
    ['no Host at all', { ...local, host: undefined }, 'host'],
    [
      'a proxy on this host: X-Forwarded-For',
      { ...local, headers: { 'x-forwarded-for': '203.0.113.9' } },
      'forwarded',
    ],
    ['Forwarded (RFC 7239)', { ...local, headers: { forwarded: 'for=203.0.113.9' } }, 'forwarded'],
    ['X-Real-IP', { ...local, headers: { 'x-real-ip': '203.0.113.9' } }, 'forwarded'],
    ['X-Forwarded-Host', { ...local, headers: { 'x-forwarded-host': 'a.example' } }, 'forwarded'],
  ];
  it.each(table)('%s', (_name, visit, expected) => {
    expect(outboxRefusal(visit)).toBe(expected);
  });
});
