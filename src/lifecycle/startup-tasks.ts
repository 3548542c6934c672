import { Injectable } from '@nestjs/common';

/**
 * Work that may finish after the listener is up (issue 18 item 4, cold start): the process answers
 * /healthz at once, and /readyz says 503 (check `startup`) until every task here has finished, so a
 * load balancer sends nothing before the instance can serve it. A task that fails keeps readiness
 * down and says why.
 */
@Injectable()
export class StartupTasks {
  private readonly pending = new Map<string, Promise<void>>();
  private readonly failed = new Map<string, string>();

  /** Starts tracking `work` under `name`; never rejects (a failure is kept for readiness). */
  run(name: string, work: Promise<unknown>): void {
    const tracked = work.then(
      () => {
        this.pending.delete(name);
      },
      (error: unknown) => {
        this.pending.delete(name);
        this.failed.set(name, error instanceof Error ? error.message : String(error));
      },
    );
    this.pending.set(name, tracked);
  }

  /** Resolves when every task started so far has finished, well or not. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending.values());
  }

  /** For readiness: throws while a task runs or after one failed. */
  check(): Promise<void> {
    if (this.failed.size > 0)
      return Promise.reject(
        new Error(`start-up failed: ${[...this.failed].map(([n, e]) => `${n}: ${e}`).join('; ')}`),
      );
    if (this.pending.size > 0)
      return Promise.reject(new Error(`starting: ${[...this.pending.keys()].join(', ')}`));
    return Promise.resolve();
  }
}
