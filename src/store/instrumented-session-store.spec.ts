import * as path from 'node:path';
import { tempDataDir } from '../../test/support/test-config';
import { describeSessionStoreContract } from './session-store.contract';
import { SqliteSessionStore } from './sqlite-session-store';
import { AppMetrics } from '../metrics/app-metrics';
import { InstrumentedSessionStore } from './instrumented-session-store';
import { NO_TRACER, Tracer } from '../tracing';

/** The instrumented store behaves exactly as the adapter it wraps: the whole contract, through it. */
describeSessionStoreContract('sqlite, instrumented', () => {
  let now = Date.now();
  const inner = new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite'), () => now);
  return Promise.resolve({
    store: new InstrumentedSessionStore(inner, new AppMetrics()),
    advance: (seconds: number) => {
      now += seconds * 1000;
      return Promise.resolve();
    },
  });
});

describe(InstrumentedSessionStore.name, () => {
  async function lines(metrics: AppMetrics, name: string): Promise<string[]> {
    return (await metrics.registry.metrics()).split('\n').filter((l) => l.startsWith(name));
  }

  it('times every call by operation and store kind, and counts failures, passing them on', async () => {
    const metrics = new AppMetrics();
    const store = new InstrumentedSessionStore(
      new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite')),
      metrics,
    );
    expect(store.kind).toBe('sqlite');
    await store.set('session:a', 'v', 60);
    expect(await store.get('session:a')).toBe('v');
    expect(await store.get('session:a')).toBe('v');
    await expect(store.set('', 'v', 60)).rejects.toThrow(RangeError);
    await store.close();
    await expect(store.ping()).rejects.toThrow();

    expect(await lines(metrics, 'session_store_operation_seconds_count')).toEqual([
      'session_store_operation_seconds_count{operation="set",store="sqlite"} 2',
      'session_store_operation_seconds_count{operation="get",store="sqlite"} 2',
      'session_store_operation_seconds_count{operation="ping",store="sqlite"} 1',
    ]);
    expect(await lines(metrics, 'session_store_operation_seconds_bucket')).toContainEqual(
      'session_store_operation_seconds_bucket{le="+Inf",operation="get",store="sqlite"} 2',
    );
    expect(await lines(metrics, 'session_store_errors_total{')).toEqual([
      'session_store_errors_total{operation="set",store="sqlite"} 1',
      'session_store_errors_total{operation="ping",store="sqlite"} 1',
    ]);
  });
});

/** Issue 17 item 2: with tracing on, each call is a client span started when the call was. */
describe(`${InstrumentedSessionStore.name} with tracing`, () => {
  function recordingTracer(enabled: boolean) {
    const spans: { name: string; options: unknown; ended: boolean; failed?: unknown }[] = [];
    const tracer: Tracer = {
      ...NO_TRACER,
      enabled,
      startSpan: (name, options) => {
        const span: (typeof spans)[number] = { name, options, ended: false };
        spans.push(span);
        return {
          setAttributes: () => undefined,
          fail: (reason) => (span.failed = reason),
          end: () => (span.ended = true),
        };
      },
    };
    return { tracer, spans };
  }

  it('spans each call by operation and key namespace (never the key), ending or failing it', async () => {
    const { tracer, spans } = recordingTracer(true);
    const store = new InstrumentedSessionStore(
      new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite')),
      new AppMetrics(),
      tracer,
    );
    const before = performance.now();
    await store.set('session:secret-handle', 'v', 60);
    await store.ping();
    await expect(store.set('', 'v', 60)).rejects.toThrow(RangeError);
    await store.close();

    expect(spans.map((s) => s.name)).toEqual(['set session', 'ping', 'set']);
    expect(spans[0]?.options).toEqual({
      kind: 'client',
      startTime: expect.any(Number),
      attributes: {
        'db.system.name': 'sqlite',
        'db.operation.name': 'set',
        'db.collection.name': 'session',
      },
    });
    expect((spans[0]?.options as { startTime: number }).startTime).toBeGreaterThanOrEqual(before);
    expect(JSON.stringify(spans)).not.toContain('secret-handle');
    expect(spans.map((s) => s.ended)).toEqual([true, true, true]);
    expect(spans[2]?.failed).toBeInstanceOf(RangeError);
  });

  it('spans a batch once, with its size, named by the namespace its keys share (never a key)', async () => {
    const { tracer, spans } = recordingTracer(true);
    const store = new InstrumentedSessionStore(
      new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite')),
      new AppMetrics(),
      tracer,
    );
    await store.writeAll([
      { op: 'set', key: 'session:secret-a', value: 'v', ttlSeconds: 60 },
      { op: 'delete', key: 'session:secret-b' },
    ]);
    await store.writeAll([
      { op: 'addMember', key: 'sessions-of:secret-c', member: 'secret-a', ttlSeconds: 60 },
      { op: 'set', key: 'session:secret-a', value: 'v', ttlSeconds: 60 },
    ]);
    await store.close();
    expect(spans.map((s) => [s.name, s.options])).toEqual([
      [
        'writeAll session',
        expect.objectContaining({
          attributes: {
            'db.system.name': 'sqlite',
            'db.operation.name': 'writeAll',
            'db.collection.name': 'session',
            'db.operation.batch.size': 2,
          },
        }),
      ],
      [
        'writeAll',
        expect.objectContaining({
          attributes: {
            'db.system.name': 'sqlite',
            'db.operation.name': 'writeAll',
            'db.collection.name': undefined,
            'db.operation.batch.size': 2,
          },
        }),
      ],
    ]);
    expect(JSON.stringify(spans)).not.toContain('secret');
  });

  it('makes no span when tracing is off', async () => {
    const { tracer, spans } = recordingTracer(false);
    const store = new InstrumentedSessionStore(
      new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite')),
      new AppMetrics(),
      tracer,
    );
    await store.set('session:a', 'v', 60);
    await store.close();
    expect(spans).toEqual([]);
  });
});
