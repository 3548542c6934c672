import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { AppError } from '../errors/app-error';
import { errorSummary } from '../errors/error-summary';
import { SessionStore, assertValidKey, assertValidMember, assertValidTtl } from './session-store';

/** The longest a command waits for an answer (or for a connection being made), so requests fail fast. */
const COMMAND_TIMEOUT_MS = 2000;
/** Connection states in which Redis is known to be gone: commands fail at once instead of queueing. */
const UNREACHABLE_STATES: ReadonlySet<string> = new Set(['reconnecting', 'close', 'end']);

/** INCR, and start the window on the first increment, atomically. */
/** Compare-and-delete in one step (a GET then a DEL could delete a lock another instance took). */
const DELETE_IF_EQUALS_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

const INCREMENT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** SADD, and keep the set at least ARGV[2] seconds more, atomically. */
const ADD_MEMBER_SCRIPT = `
redis.call('SADD', KEYS[1], ARGV[1])
local ttl = redis.call('TTL', KEYS[1])
if ttl < tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 1`;

/**
 * Redis adapter for several instances behind a load balancer. Commands fail fast while Redis is
 * unreachable: at once while ioredis knows the connection is down, otherwise after the command timeout
 * (or one retry), so a request gets a clear error (503, AppError ServiceUnavailable) instead of
 * hanging. ioredis reconnects on its own (every 2 s at most) when Redis returns. Losing and regaining
 * the connection are logged once each.
 */
export class RedisSessionStore implements SessionStore {
  readonly kind = 'redis' as const;
  private readonly client: Redis;
  private readonly logger = new Logger(RedisSessionStore.name);
  private reachable = true;
  /** close() was called: the connection ending is no outage. */
  private closing = false;

  /**
   * `label` names the store in its log lines and errors (the embedded IdP keeps its state in a store
   * of its own, so an outage reads as two distinct stores going down).
   */
  constructor(
    url: string,
    private readonly prefix = 'cs:',
    private readonly label = 'session store',
  ) {
    this.client = new Redis(url, {
      maxRetriesPerRequest: 1,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: COMMAND_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    // Without a listener ioredis would print every failed reconnect attempt to stderr; the commands
    // that fail meanwhile report themselves (the exception filter logs each with its correlation id).
    this.client.on('error', (error: Error) => this.lost(errorSummary(error)));
    this.client.on('close', () => {
      if (!this.closing) this.lost('the connection closed');
    });
    this.client.on('ready', () => {
      if (!this.reachable) this.logger.log(`${this.label} (redis) reachable again`);
      this.reachable = true;
    });
  }

  /** Logs the start of an outage once, however many reconnect attempts fail during it. */
  private lost(why: string): void {
    if (!this.reachable) return;
    this.reachable = false;
    this.logger.error(
      `${this.label} (redis) unreachable, requests that need it fail with 503 until it returns: ${why}`,
    );
  }

  /**
   * Runs one command; an unreachable or silent Redis becomes ServiceUnavailable. A reply error (Redis
   * answered, and refused) is a programming error and stays one.
   */
  private async call<T>(command: () => Promise<T>): Promise<T> {
    const status = this.client.status;
    if (UNREACHABLE_STATES.has(status))
      throw new AppError(
        'ServiceUnavailable',
        `the ${this.label} (redis) is not connected (${status})`,
      );
    try {
      return await command();
    } catch (error) {
      if ((error as { name?: unknown } | null)?.name === 'ReplyError') throw error;
      throw new AppError(
        'ServiceUnavailable',
        `the ${this.label} (redis) did not answer: ${errorSummary(error)}`,
        { cause: error },
      );
    }
  }

  private k(key: string): string {
    assertValidKey(key);
    return this.prefix + key;
  }

  // Keys and arguments are checked before call(): a bad one is a programming error, not an outage.

  async get(key: string): Promise<string | undefined> {
    const k = this.k(key);
    return (await this.call(() => this.client.get(k))) ?? undefined;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    assertValidTtl(ttlSeconds);
    const k = this.k(key);
    await this.call(() => this.client.set(k, value, 'EX', ttlSeconds));
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    assertValidTtl(ttlSeconds);
    const k = this.k(key);
    return (await this.call(() => this.client.set(k, value, 'EX', ttlSeconds, 'NX'))) === 'OK';
  }

  async replace(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    assertValidTtl(ttlSeconds);
    const k = this.k(key);
    return (await this.call(() => this.client.set(k, value, 'EX', ttlSeconds, 'XX'))) === 'OK';
  }

  async take(key: string): Promise<string | undefined> {
    const k = this.k(key);
    return (await this.call(() => this.client.getdel(k))) ?? undefined;
  }

  async deleteIfEquals(key: string, value: string): Promise<boolean> {
    const k = this.k(key);
    return (
      Number(await this.call(() => this.client.eval(DELETE_IF_EQUALS_SCRIPT, 1, k, value))) === 1
    );
  }

  async delete(key: string): Promise<void> {
    const k = this.k(key);
    await this.call(() => this.client.del(k));
  }

  async increment(key: string, windowSeconds: number): Promise<number> {
    assertValidTtl(windowSeconds);
    const k = this.k(key);
    return Number(await this.call(() => this.client.eval(INCREMENT_SCRIPT, 1, k, windowSeconds)));
  }

  async addMember(key: string, member: string, ttlSeconds: number): Promise<void> {
    assertValidMember(member);
    assertValidTtl(ttlSeconds);
    const k = this.k(key);
    await this.call(() => this.client.eval(ADD_MEMBER_SCRIPT, 1, k, member, ttlSeconds));
  }

  async removeMember(key: string, member: string): Promise<void> {
    assertValidMember(member);
    const k = this.k(key);
    await this.call(() => this.client.srem(k, member));
  }

  async members(key: string): Promise<string[]> {
    const k = this.k(key);
    return this.call(() => this.client.smembers(k));
  }

  async ping(): Promise<void> {
    await this.call(() => this.client.ping());
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.client.status === 'ready') await this.client.quit().catch(() => undefined);
    this.client.disconnect();
  }
}
