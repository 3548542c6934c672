import { RETRY_WAIT_MS, StartupTasks } from './startup-tasks';

describe(StartupTasks.name, () => {
  it('is not ready while a task runs, ready once all have finished', async () => {
    const tasks = new StartupTasks();
    await expect(tasks.check()).resolves.toBeUndefined();
    let finish: () => void = () => undefined;
    tasks.run('seed', new Promise<void>((resolve) => (finish = resolve)));
    await expect(tasks.check()).rejects.toThrow('starting: seed');
    finish();
    await tasks.settled();
    await expect(tasks.check()).resolves.toBeUndefined();
  });

  it('keeps readiness down after a task failed, saying which and why', async () => {
    const tasks = new StartupTasks();
    tasks.run('keys', Promise.reject(new Error('disk full')));
    await tasks.settled();
    await expect(tasks.check()).rejects.toThrow('start-up failed: keys: disk full');
    expect(tasks.recoverable).toBe(false);
  });
});

describe(`${StartupTasks.name} with a retry`, () => {
  it('is recoverable while every failed task has a retry, and not once one without fails', async () => {
    const tasks = new StartupTasks();
    expect(tasks.recoverable).toBe(true);
    tasks.run('idp', Promise.reject(new Error('store not connected')), () =>
      Promise.reject(new Error('store not connected')),
    );
    await tasks.settled();
    expect(tasks.recoverable).toBe(true);
    tasks.run('keys', Promise.reject(new Error('disk full')));
    await tasks.settled();
    expect(tasks.recoverable).toBe(false);
  });

  it('tries a failed task again at each check, and is ready once an attempt succeeds', async () => {
    const tasks = new StartupTasks();
    let storeUp = false;
    let attempts = 0;
    const build = (): Promise<void> => {
      attempts += 1;
      return storeUp ? Promise.resolve() : Promise.reject(new Error('store not connected'));
    };
    tasks.run('idp', build(), build);
    await tasks.settled();
    await expect(tasks.check()).rejects.toThrow('start-up failed: idp: store not connected');
    expect(attempts).toBe(2);
    storeUp = true;
    await expect(tasks.check()).resolves.toBeUndefined();
    expect(attempts).toBe(3);
    // Done for good: no further attempts.
    await expect(tasks.check()).resolves.toBeUndefined();
    expect(attempts).toBe(3);
  });

  it('shares one attempt between checks that arrive while it runs', async () => {
    const tasks = new StartupTasks();
    let attempts = 0;
    let finish: () => void = () => undefined;
    const retry = (): Promise<void> => {
      attempts += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    };
    tasks.run('idp', Promise.reject(new Error('down')), retry);
    await tasks.settled();
    const first = tasks.check();
    const second = tasks.check();
    expect(attempts).toBe(1);
    finish();
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
  });

  it(`answers with the last failure when a retry takes longer than ${RETRY_WAIT_MS} ms`, async () => {
    jest.useFakeTimers();
    try {
      const tasks = new StartupTasks();
      tasks.run(
        'idp',
        Promise.reject(new Error('store not connected')),
        () => new Promise(() => {}),
      );
      await tasks.settled();
      const answered = expect(tasks.check()).rejects.toThrow(
        'start-up failed: idp: store not connected',
      );
      await jest.advanceTimersByTimeAsync(RETRY_WAIT_MS);
      await answered;
    } finally {
      jest.useRealTimers();
    }
  });

  it('never retries a task that has no retry', async () => {
    const tasks = new StartupTasks();
    tasks.run('seed', Promise.reject(new Error('disk full')));
    await tasks.settled();
    await expect(tasks.check()).rejects.toThrow('start-up failed: seed: disk full');
    await expect(tasks.check()).rejects.toThrow('start-up failed: seed: disk full');
  });
});
