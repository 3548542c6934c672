import type { LoggerService } from '@nestjs/common';
import { createServer } from 'node:http';
import { GracefulShutdown, ShutdownSettings } from './graceful-shutdown';
import { HttpDrain } from './http-drain';
import { ShutdownState } from './shutdown-state';

function harness(close: () => Promise<void>, settings: ShutdownSettings) {
  const state = new ShutdownState();
  const lines: string[] = [];
  const logger: LoggerService = {
    log: (m: string) => lines.push(`log ${m}`),
    warn: (m: string) => lines.push(`warn ${m}`),
    error: (m: string) => lines.push(`error ${m}`),
  };
  const exits: number[] = [];
  let onExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (onExit = resolve));
  const shutdown = new GracefulShutdown(
    {
      app: { close },
      state,
      drain: new HttpDrain(createServer()),
      logger,
      exit: (code) => {
        exits.push(code);
        onExit(code);
      },
    },
    settings,
  );
  return { state, lines, exits, exited, shutdown };
}

describe(GracefulShutdown.name, () => {
  it('turns readiness off at once, waits out the drain, closes the app and exits 0', async () => {
    let closedAt = 0;
    const h = harness(
      () => {
        closedAt = Date.now();
        return Promise.resolve();
      },
      { drainMs: 100, timeoutMs: 5_000 },
    );
    const started = Date.now();
    void h.shutdown.run('SIGTERM');
    expect(h.state.draining).toBe(true);
    expect(await h.exited).toBe(0);
    expect(closedAt - started).toBeGreaterThanOrEqual(90);
    expect(h.lines[0]).toMatch(/^log SIGTERM received: readiness 503, draining for 100 ms/);
    expect(h.lines.at(-1)).toMatch(/^log shutdown complete in \d+ ms$/);
  });

  it('exits 1 when closing outlasts the limit', async () => {
    const h = harness(() => new Promise<void>(() => undefined), { drainMs: 0, timeoutMs: 50 });
    void h.shutdown.run('SIGTERM');
    expect(await h.exited).toBe(1);
    expect(h.lines.at(-1)).toMatch(/^error shutdown did not finish within 50 ms/);
  });

  it('exits 1 when closing fails', async () => {
    const h = harness(() => Promise.reject(new Error('store would not close')), {
      drainMs: 0,
      timeoutMs: 5_000,
    });
    await h.shutdown.run('SIGINT');
    expect(h.exits).toEqual([1]);
    expect(h.lines.at(-1)).toBe('error shutdown failed: store would not close');
  });

  it('exits 1 at once on a second signal', async () => {
    const h = harness(() => new Promise<void>(() => undefined), { drainMs: 0, timeoutMs: 5_000 });
    void h.shutdown.run('SIGINT');
    await h.shutdown.run('SIGINT');
    expect(h.exits).toEqual([1]);
    expect(h.lines.at(-1)).toBe('warn SIGINT received again while shutting down: exiting now');
  });
});
