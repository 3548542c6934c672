import { Injectable } from '@nestjs/common';

/**
 * How long a readiness check waits for a retry before it answers with the last failure: within the
 * check's own limit (CHECK_TIMEOUT_MS, 2 s), so that readiness says why rather than "no answer".
 */
export const RETRY_WAIT_MS = 1_000;

/**
 * Work that may finish after the listener is up (issue 18 item 4, cold start): the process answers
 * /healthz at once, and /readyz says 503 (check `startup`) until every task here has finished, so a
 * load balancer sends nothing before the instance can serve it. A task that fails keeps readiness
 * down and says why; one given a `retry` is tried again by each readiness probe until it succeeds
 * (docs/operating.md "Redis down at start": a dependency that comes back later needs no restart).
 */
@Injectable()
export class StartupTasks {
  private readonly pending = new Map<string, Promise<void>>();
  private readonly failed = new Map<string, string>();
  private readonly retries = new Map<string, () => Promise<unknown>>();
  /** A retry under way per task, shared by the probes that arrive meanwhile. */
  private readonly retrying = new Map<string, Promise<void>>();

  /**
   * Starts tracking `work` under `name`; never rejects (a failure is kept for readiness). `retry`, if
   * given, does the work again after a failure.
   */
  run(name: string, work: Promise<unknown>, retry?: () => Promise<unknown>): void {
    if (retry) this.retries.set(name, retry);
    const tracked = work.then(
      () => {
        this.pending.delete(name);
      },
      (error: unknown) => {
        this.pending.delete(name);
        this.failed.set(name, messageOf(error));
      },
    );
    this.pending.set(name, tracked);
  }

  /**
   * Whether every task that failed can still be retried (its dependency may come back): what one who
   * waits for readiness may go on waiting for.
   */
  get recoverable(): boolean {
    return [...this.failed.keys()].every((name) => this.retries.has(name));
  }

  /** Resolves when every task started so far has finished, well or not. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending.values());
  }

  /**
   * For readiness: throws while a task runs or after one failed. A failed task that can be retried is
   * tried again first (waited for up to RETRY_WAIT_MS), so the probe that finds its dependency back
   * already answers ready.
   */
  async check(): Promise<void> {
    const retries = [...this.failed.keys()].map((name) => this.retry(name));
    if (retries.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(retries),
        new Promise((resolve) => (timer = setTimeout(resolve, RETRY_WAIT_MS))),
      ]);
      clearTimeout(timer);
    }
    if (this.failed.size > 0)
      throw new Error(
        `start-up failed: ${[...this.failed].map(([n, e]) => `${n}: ${e}`).join('; ')}`,
      );
    if (this.pending.size > 0) throw new Error(`starting: ${[...this.pending.keys()].join(', ')}`);
  }

  private retry(name: string): Promise<void> {
    const again = this.retries.get(name);
    if (!again) return Promise.resolve();
    let attempt = this.retrying.get(name);
    if (!attempt) {
      attempt = again()
        .then(
          () => void this.failed.delete(name),
          (error: unknown) => void this.failed.set(name, messageOf(error)),
        )
        .finally(() => this.retrying.delete(name));
      this.retrying.set(name, attempt);
    }
    return attempt;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
