import Redis from 'ioredis';
import { SessionStore, assertValidKey, assertValidMember, assertValidTtl } from './session-store';

const COMMAND_TIMEOUT_MS = 2000;

/** INCR, and start the window on the first increment, atomically. */
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
 * unreachable (a command timeout and one retry), so a request gets a clear error instead of hanging;
 * ioredis reconnects on its own when Redis returns.
 */
export class RedisSessionStore implements SessionStore {
  readonly kind = 'redis' as const;
  private readonly client: Redis;

  constructor(
    url: string,
    private readonly prefix = 'cs:',
  ) {
    this.client = new Redis(url, {
      maxRetriesPerRequest: 1,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: COMMAND_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    // Connection errors surface through the commands that fail; without a listener ioredis would
    // print them to stderr on every reconnect attempt.
    this.client.on('error', () => undefined);
  }

  private k(key: string): string {
    assertValidKey(key);
    return this.prefix + key;
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.client.get(this.k(key))) ?? undefined;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    assertValidTtl(ttlSeconds);
    await this.client.set(this.k(key), value, 'EX', ttlSeconds);
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    assertValidTtl(ttlSeconds);
    return (await this.client.set(this.k(key), value, 'EX', ttlSeconds, 'NX')) === 'OK';
  }

  async replace(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    assertValidTtl(ttlSeconds);
    return (await this.client.set(this.k(key), value, 'EX', ttlSeconds, 'XX')) === 'OK';
  }

  async take(key: string): Promise<string | undefined> {
    return (await this.client.getdel(this.k(key))) ?? undefined;
  }

  async delete(key: string): Promise<void> {
    await this.client.del(this.k(key));
  }

  async increment(key: string, windowSeconds: number): Promise<number> {
    assertValidTtl(windowSeconds);
    return Number(await this.client.eval(INCREMENT_SCRIPT, 1, this.k(key), windowSeconds));
  }

  async addMember(key: string, member: string, ttlSeconds: number): Promise<void> {
    assertValidMember(member);
    assertValidTtl(ttlSeconds);
    await this.client.eval(ADD_MEMBER_SCRIPT, 1, this.k(key), member, ttlSeconds);
  }

  async removeMember(key: string, member: string): Promise<void> {
    assertValidMember(member);
    await this.client.srem(this.k(key), member);
  }

  async members(key: string): Promise<string[]> {
    return this.client.smembers(this.k(key));
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    if (this.client.status === 'ready') await this.client.quit().catch(() => undefined);
    this.client.disconnect();
  }
}
