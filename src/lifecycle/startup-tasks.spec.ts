import { StartupTasks } from './startup-tasks';

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
  });
});
