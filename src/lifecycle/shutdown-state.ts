import { Injectable } from '@nestjs/common';

/**
 * Whether this instance is shutting down. The signal handler (graceful-shutdown.ts) sets it once;
 * readiness reads it, so that the load balancer stops sending traffic before connections are refused.
 */
@Injectable()
export class ShutdownState {
  private since: number | undefined;

  get draining(): boolean {
    return this.since !== undefined;
  }

  beginDraining(now = Date.now()): void {
    this.since ??= now;
  }
}
