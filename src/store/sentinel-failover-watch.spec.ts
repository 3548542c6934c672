import { SentinelFailoverWatch } from './sentinel-failover-watch';

/**
 * Issue 17 item 1: when the watch holds a store's commands during a Sentinel failover, fed with the
 * messages Sentinel publishes (their real shapes: redis-sentinel-session-store.integration.spec.ts and the
 * multi-instance test run real failovers).
 */
const NAME = 'signon';
const S1 = '10.0.0.1:26379';
const S2 = '10.0.0.2:26379';
const TRY = `master ${NAME} 10.0.0.5 6379`;
const SWITCH = `${NAME} 10.0.0.5 6379 10.0.0.6 6379`;

function watch(): { watch: SentinelFailoverWatch; reconnects: () => number } {
  let reconnects = 0;
  const w = new SentinelFailoverWatch({
    sentinels: [],
    name: NAME,
    label: 'session store',
    reconnect: () => (reconnects += 1),
  });
  return { watch: w, reconnects: () => reconnects };
}

describe(SentinelFailoverWatch.name, () => {
  afterEach(() => jest.useRealTimers());

  it('holds from +try-failover until connected to the master +switch-master names', async () => {
    const { watch: w, reconnects } = watch();
    expect(w.holding).toBe(false);
    await expect(w.settled(10)).resolves.toBe(true);

    w.onSentinelEvent(S1, '+try-failover', TRY);
    expect(w.holding).toBe(true);
    await expect(w.settled(10)).resolves.toBe(false);
    const waiting = w.settled(5000);

    w.onSentinelEvent(S1, '+switch-master', SWITCH);
    expect(reconnects()).toBe(1);
    // Another sentinel's announcement of the same switch changes nothing.
    w.onSentinelEvent(S2, '+switch-master', SWITCH);
    expect(reconnects()).toBe(1);
    // Landed on the old master (a sentinel that had not heard yet answered): once more.
    w.connected({ address: '10.0.0.5', port: 6379 });
    expect(reconnects()).toBe(2);
    expect(w.holding).toBe(true);
    w.connected({ address: '::ffff:10.0.0.6', port: 6379 });
    expect(w.holding).toBe(false);
    await expect(waiting).resolves.toBe(true);
    w.close();
  });

  it('releases when every sentinel that started a failover gave it up', () => {
    const { watch: w, reconnects } = watch();
    w.onSentinelEvent(S1, '+try-failover', TRY);
    w.onSentinelEvent(S2, '+try-failover', TRY);
    w.onSentinelEvent(S1, '-failover-abort-not-elected', TRY);
    expect(w.holding).toBe(true);
    w.onSentinelEvent(S2, '+failover-end-for-timeout', TRY);
    expect(w.holding).toBe(false);
    expect(reconnects()).toBe(0);
    w.close();
  });

  it('ignores other masters and reconnections outside a failover', () => {
    const { watch: w, reconnects } = watch();
    w.onSentinelEvent(S1, '+try-failover', 'master other 10.0.0.9 6379');
    w.onSentinelEvent(S1, '+switch-master', 'other 10.0.0.9 6379 10.0.0.8 6379');
    w.connected({ address: '10.0.0.5', port: 6379 });
    expect(w.holding).toBe(false);
    expect(reconnects()).toBe(0);
    w.close();
  });

  it('gives up holding when no end is announced within 20 s, and after a few wrong nodes', () => {
    jest.useFakeTimers();
    const { watch: w, reconnects } = watch();
    w.onSentinelEvent(S1, '+try-failover', TRY);
    jest.advanceTimersByTime(19_000);
    expect(w.holding).toBe(true);
    jest.advanceTimersByTime(1_000);
    expect(w.holding).toBe(false);

    // A master announced by name (announce-hostnames) is matched by port; past five wrong nodes the
    // hold ends anyway rather than reconnecting forever.
    w.onSentinelEvent(S1, '+switch-master', `${NAME} redis-0 6379 redis-1 6380`);
    for (let i = 0; i < 5; i++) w.connected({ address: '10.1.1.1', port: 6379 });
    expect(w.holding).toBe(true);
    w.connected({ address: '10.1.1.1', port: 6379 });
    expect(w.holding).toBe(false);
    expect(reconnects()).toBe(6);
    w.close();
  });
});
