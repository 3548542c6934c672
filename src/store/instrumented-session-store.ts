import type { SessionStore, SetOptions, StoreWrite } from './session-store';
import type { AppMetrics, StoreOperation } from '../metrics/app-metrics';
import { activeTracer } from '../tracing';
import type { ActiveSpan, Tracer } from '../tracing';

/**
 * Every timed operation, once: the compiler fails here when the SessionStore port gains a call that
 * metrics/app-metrics.ts does not list (metrics sits below session, so it names them itself).
 */
const OPERATIONS: Record<Exclude<keyof SessionStore, 'kind' | 'close'>, true> = {
  get: true,
  set: true,
  setIfAbsent: true,
  replace: true,
  take: true,
  delete: true,
  deleteIfEquals: true,
  increment: true,
  addMember: true,
  removeMember: true,
  members: true,
  addExpiringMember: true,
  removeExpiringMember: true,
  countMembersAlive: true,
  writeAll: true,
  ping: true,
} as const satisfies Record<StoreOperation, true>;

type Labels = { readonly operation: StoreOperation; readonly store: SessionStore['kind'] };

/**
 * Measures any SessionStore adapter (issue 7): each call's latency in session_store_operation_seconds
 * and each failed call in session_store_errors_total, by operation and store kind. The cost per call
 * is one clock read and one histogram observation (label objects are made once, here); behaviour,
 * results and errors are the adapter's own. With tracing on (issue 17 item 2) each call is also a
 * client span of the current request, named by the database semantic conventions
 * (`get session`: the operation and the key's namespace, never the key itself).
 */
export class InstrumentedSessionStore implements SessionStore {
  readonly kind: SessionStore['kind'];
  private readonly labels: Readonly<Record<StoreOperation, Labels>>;
  /** Decided once: with tracing off, a call costs what it did before tracing existed. */
  private readonly tracer: Tracer | undefined;

  constructor(
    private readonly inner: SessionStore,
    private readonly metrics: Pick<AppMetrics, 'storeDuration' | 'storeErrors'>,
    tracer: Tracer = activeTracer(),
  ) {
    this.kind = inner.kind;
    const store = inner.kind;
    this.labels = Object.fromEntries(
      Object.keys(OPERATIONS).map((operation) => [operation, { operation, store }]),
    ) as Record<StoreOperation, Labels>;
    this.tracer = tracer.enabled ? tracer : undefined;
  }

  /**
   * Observes the call's latency when its promise settles, and counts a rejection. Written with
   * `then` rather than an async wrapper: one promise more per call, not two and a closure.
   */
  private timed<T>(
    operation: StoreOperation,
    key: string | undefined,
    start: number,
    call: Promise<T>,
    batchSize?: number,
  ): Promise<T> {
    const labels = this.labels[operation];
    const span = this.tracer ? this.span(this.tracer, operation, key, start, batchSize) : undefined;
    return call.then(
      (value) => {
        this.metrics.storeDuration.observe(labels, (performance.now() - start) / 1000);
        span?.end();
        return value;
      },
      (error: unknown) => {
        this.metrics.storeDuration.observe(labels, (performance.now() - start) / 1000);
        this.metrics.storeErrors.inc(labels);
        span?.fail(error);
        span?.end();
        throw error;
      },
    );
  }

  /**
   * The call's span, started when the call was (database semantic conventions: db.system.name,
   * db.operation.name, and the key's namespace, `session` of `session:…`, as db.collection.name; a
   * batch's number of writes as db.operation.batch.size).
   */
  private span(
    tracer: Tracer,
    operation: StoreOperation,
    key: string | undefined,
    start: number,
    batchSize: number | undefined,
  ): ActiveSpan {
    const collection = key === undefined ? undefined : namespaceOf(key);
    return tracer.startSpan(collection ? `${operation} ${collection}` : operation, {
      kind: 'client',
      startTime: start,
      attributes: {
        'db.system.name': this.kind === 'sqlite' ? 'sqlite' : 'redis',
        'db.operation.name': operation,
        'db.collection.name': collection,
        ...(batchSize === undefined ? {} : { 'db.operation.batch.size': batchSize }),
      },
    });
  }

  get(key: string): Promise<string | undefined> {
    return this.timed('get', key, performance.now(), this.inner.get(key));
  }

  set(key: string, value: string, ttlSeconds: number, options?: SetOptions): Promise<void> {
    return this.timed(
      'set',
      key,
      performance.now(),
      this.inner.set(key, value, ttlSeconds, options),
    );
  }

  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return this.timed(
      'setIfAbsent',
      key,
      performance.now(),
      this.inner.setIfAbsent(key, value, ttlSeconds),
    );
  }

  replace(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return this.timed(
      'replace',
      key,
      performance.now(),
      this.inner.replace(key, value, ttlSeconds),
    );
  }

  take(key: string): Promise<string | undefined> {
    return this.timed('take', key, performance.now(), this.inner.take(key));
  }

  delete(key: string): Promise<void> {
    return this.timed('delete', key, performance.now(), this.inner.delete(key));
  }

  deleteIfEquals(key: string, value: string): Promise<boolean> {
    return this.timed(
      'deleteIfEquals',
      key,
      performance.now(),
      this.inner.deleteIfEquals(key, value),
    );
  }

  increment(key: string, windowSeconds: number, by = 1): Promise<number> {
    return this.timed(
      'increment',
      key,
      performance.now(),
      this.inner.increment(key, windowSeconds, by),
    );
  }

  addMember(key: string, member: string, ttlSeconds: number): Promise<void> {
    return this.timed(
      'addMember',
      key,
      performance.now(),
      this.inner.addMember(key, member, ttlSeconds),
    );
  }

  removeMember(key: string, member: string): Promise<void> {
    return this.timed('removeMember', key, performance.now(), this.inner.removeMember(key, member));
  }

  members(key: string): Promise<string[]> {
    return this.timed('members', key, performance.now(), this.inner.members(key));
  }

  addExpiringMember(key: string, member: string, ttlSeconds: number): Promise<void> {
    return this.timed(
      'addExpiringMember',
      key,
      performance.now(),
      this.inner.addExpiringMember(key, member, ttlSeconds),
    );
  }

  removeExpiringMember(key: string, member: string): Promise<void> {
    return this.timed(
      'removeExpiringMember',
      key,
      performance.now(),
      this.inner.removeExpiringMember(key, member),
    );
  }

  countMembersAlive(key: string): Promise<number> {
    return this.timed(
      'countMembersAlive',
      key,
      performance.now(),
      this.inner.countMembersAlive(key),
    );
  }

  /** One observation and one span for the batch; its key namespace when all its writes share one. */
  writeAll(writes: readonly StoreWrite[]): Promise<void> {
    return this.timed(
      'writeAll',
      sharedKeyspace(writes),
      performance.now(),
      this.inner.writeAll(writes),
      writes.length,
    );
  }

  ping(): Promise<void> {
    return this.timed('ping', undefined, performance.now(), this.inner.ping());
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A key's namespace: `session` of `session:…`; none when it has no prefix before a colon. */
function namespaceOf(key: string): string | undefined {
  const colon = key.indexOf(':');
  return colon > 0 ? key.slice(0, colon) : undefined;
}

/**
 * A key standing for every key of a batch when they share one namespace, so the span names it;
 * otherwise none.
 */
function sharedKeyspace(writes: readonly StoreWrite[]): string | undefined {
  const spaces = new Set(writes.map((w) => namespaceOf(w.key)));
  const [only] = spaces;
  return spaces.size === 1 && only !== undefined ? `${only}:` : undefined;
}
