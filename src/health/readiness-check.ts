import { errorSummary } from '../errors/error-summary';

/** One dependency that must answer before the instance takes traffic. */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<void>;
}

export type CheckStatus = 'up' | 'down';

export interface HealthReport {
  readonly status: 'ok' | 'unavailable';
  readonly checks: Readonly<Record<string, { status: CheckStatus; error?: string }>>;
}

/** A hung dependency must not hang the probe. */
export const CHECK_TIMEOUT_MS = 2000;

export async function runChecks(
  checks: readonly ReadinessCheck[],
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<HealthReport> {
  const results = await Promise.all(
    checks.map(async (c): Promise<[string, { status: CheckStatus; error?: string }]> => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          c.check(),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`no answer within ${timeoutMs} ms`)),
              timeoutMs,
            );
          }),
        ]);
        return [c.name, { status: 'up' }];
      } catch (error) {
        // Messages only (with their causes, e.g. `fetch failed: connect ECONNREFUSED …`), never a
        // stack; errorSummary removes the password a driver error may quote from a connection URL.
        return [c.name, { status: 'down', error: errorSummary(error).slice(0, 200) || 'failed' }];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const ok = results.every(([, r]) => r.status === 'up');
  return { status: ok ? 'ok' : 'unavailable', checks: Object.fromEntries(results) };
}
