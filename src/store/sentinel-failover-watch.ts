import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import type { ConnectionOptions } from 'node:tls';
import type { RedisAddress } from '../config/app-config';
import { COMMAND_TIMEOUT_MS, reconnectDelay } from './redis-client';

/** A failover that announced no end within this long is taken as over (the hold is a guard, not a lock). */
const HOLD_LIMIT_MS = 20_000;
/** After a switch, reconnections that land on another node than the announced master, at most. */
const MAX_WRONG_NODE = 5;

export interface SentinelFailoverWatchOptions {
  readonly sentinels: readonly RedisAddress[];
  /** The master group name. */
  readonly name: string;
  readonly sentinelPassword?: string;
  readonly tls?: ConnectionOptions;
  /** Names the store in log lines. */
  readonly label: string;
  /** Drops the store's connection so that it asks the sentinels for the master again. */
  readonly reconnect: () => void;
}

/**
 * Holds a store's commands while Redis Sentinel replaces the master (issue 17 item 1: sessions intact
 * through a failover).
 *
 * Why: Redis replication is asynchronous, and Sentinel promotes the replica (SLAVEOF NO ONE) a good
 * second before it announces the new master (+switch-master), while the old master keeps accepting
 * writes until Sentinel turns it into a replica, seconds later; what it accepted in between is
 * dropped when it resynchronises (Redis Sentinel documentation, "Consistency under partitions").
 * ioredis' own failover detector reconnects only at +switch-master, so writes of that second would be
 * acknowledged and lost: a refreshed session would keep a refresh token that the IdP's store, written
 * through another connection, no longer has, and the collector would be signed out.
 *
 * How: Sentinel publishes each step of a failover on its Pub/Sub channels (same documentation,
 * "Pub/Sub messages"). From +try-failover, sent before any replica is promoted, the store sends
 * nothing (each command waits, at most the command timeout, then answers 503); at +switch-master it
 * reconnects, the sentinels name the new master, and once connected there the commands go on. A
 * failover given up (-failover-abort-*, +failover-end-for-timeout) releases them where they were.
 * Commands already sent before +try-failover reach the old master while it is still the master, so
 * they are replicated like any other.
 */
export class SentinelFailoverWatch {
  private readonly logger = new Logger('RedisSessionStore');
  private readonly subscribers: Redis[];
  /** Sentinels that announced a failover of this master and have neither ended nor given it up. */
  private readonly failingOver = new Set<string>();
  /** The new master (host, port) once announced, until the store is connected to it. */
  private switchedTo: RedisAddress | undefined;
  private wrongNode = 0;
  private holdTimer: NodeJS.Timeout | undefined;
  private waiters: (() => void)[] = [];

  constructor(private readonly options: SentinelFailoverWatchOptions) {
    this.subscribers = options.sentinels.map((sentinel) => {
      const subscriber = new Redis({
        host: sentinel.host,
        port: sentinel.port,
        ...(options.sentinelPassword === undefined ? {} : { password: options.sentinelPassword }),
        ...(options.tls ? { tls: options.tls } : {}),
        connectTimeout: COMMAND_TIMEOUT_MS,
        retryStrategy: reconnectDelay,
        // Subscriptions are renewed by ioredis after each reconnection.
        maxRetriesPerRequest: null,
      });
      // A sentinel that is down tells nothing; the store's own connection reports outages.
      subscriber.on('error', () => undefined);
      const from = `${sentinel.host}:${sentinel.port}`;
      subscriber.on('message', (channel: string, message: string) =>
        this.onSentinelEvent(from, channel, message),
      );
      subscriber.on('pmessage', (_pattern: string, channel: string, message: string) =>
        this.onSentinelEvent(from, channel, message),
      );
      subscriber
        .subscribe('+try-failover', '+switch-master', '+failover-end-for-timeout')
        .then(() => subscriber.psubscribe('-failover-abort-*'))
        .catch(() => undefined);
      return subscriber;
    });
  }

  /** True while a failover of the master is under way (commands wait). */
  get holding(): boolean {
    return this.failingOver.size > 0 || this.switchedTo !== undefined;
  }

  /** Resolves true once no failover is under way, false when `ms` passed first. */
  settled(ms: number): Promise<boolean> {
    if (!this.holding) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve(false);
      }, ms);
      const done = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(done);
    });
  }

  /**
   * The store's connection is ready on `remote` (its socket's address). After a switch, that ends the
   * failover when it is the new master; another node (a sentinel that had not heard of the switch yet
   * answered first) means reconnecting again, a few times at most.
   */
  connected(remote: { address?: string; port?: number }): void {
    const target = this.switchedTo;
    if (!target) return;
    const sameNode =
      remote.port === target.port &&
      (!isIpAddress(target.host) || normaliseIp(remote.address ?? '') === normaliseIp(target.host));
    if (!sameNode && this.wrongNode < MAX_WRONG_NODE) {
      this.wrongNode += 1;
      this.options.reconnect();
      return;
    }
    this.logger.log(
      `${this.options.label} (redis) connected to the new master ${target.host}:${target.port} of ${this.options.name}`,
    );
    this.release();
  }

  close(): void {
    this.release();
    for (const subscriber of this.subscribers) subscriber.disconnect();
  }

  /** One message of `sentinel` (`host:port`) on a failover channel, as Sentinel publishes it. */
  onSentinelEvent(sentinel: string, channel: string, message: string): void {
    const parts = message.split(' ');
    if (channel === '+switch-master') {
      // <name> <old ip> <old port> <new ip> <new port>
      if (parts[0] !== this.options.name || this.switchedTo) return;
      this.failingOver.clear();
      this.switchedTo = { host: parts[3] ?? '', port: Number(parts[4]) };
      this.wrongNode = 0;
      this.hold();
      this.options.reconnect();
      return;
    }
    // master <name> <ip> <port>
    if (parts[0] !== 'master' || parts[1] !== this.options.name) return;
    if (channel === '+try-failover') {
      if (!this.holding)
        this.logger.warn(
          `${this.options.label} (redis): sentinel ${sentinel} fails ${this.options.name} over; commands wait for the new master`,
        );
      this.failingOver.add(sentinel);
      this.hold();
    } else if (this.failingOver.delete(sentinel) && !this.holding) {
      // -failover-abort-*, +failover-end-for-timeout: that sentinel gave up; the master stays.
      this.logger.warn(
        `${this.options.label} (redis): the failover of ${this.options.name} was given up (${channel}); the master stays`,
      );
      this.release();
    }
  }

  /** (Re)starts the guard that ends a hold whose failover never announced its end. */
  private hold(): void {
    clearTimeout(this.holdTimer);
    this.holdTimer = setTimeout(() => {
      if (!this.holding) return;
      this.logger.warn(
        `${this.options.label} (redis): no end of the failover of ${this.options.name} announced within ${HOLD_LIMIT_MS / 1000} s; commands go on`,
      );
      this.release();
    }, HOLD_LIMIT_MS);
    this.holdTimer.unref();
  }

  private release(): void {
    clearTimeout(this.holdTimer);
    this.failingOver.clear();
    this.switchedTo = undefined;
    const waiters = this.waiters;
    this.waiters = [];
    for (const done of waiters) done();
  }
}

function isIpAddress(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/** `::ffff:10.0.0.5` (an IPv4 peer on a dual-stack socket) is `10.0.0.5`. */
function normaliseIp(address: string): string {
  return address.replace(/^::ffff:/i, '').toLowerCase();
}
