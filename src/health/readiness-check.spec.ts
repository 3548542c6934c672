import { runChecks } from './readiness-check';

describe(runChecks.name, () => {
  it('is ok when every check answers', async () => {
    const report = await runChecks([{ name: 'a', check: () => Promise.resolve() }]);
    expect(report).toEqual({ status: 'ok', checks: { a: { status: 'up' } } });
  });

  it('is unavailable when one fails, naming it, without credentials from the error', async () => {
    const report = await runChecks([
      { name: 'a', check: () => Promise.resolve() },
      {
        name: 'b',
        check: () =>
          Promise.reject(new Error('connect ECONNREFUSED redis://user:secret@10.0.0.1:6379')),
      },
    ]);
    expect(report.status).toBe('unavailable');
    expect(report.checks.b).toEqual({
      status: 'down',
      error: 'connect ECONNREFUSED redis://[redacted]@10.0.0.1:6379',
    });
  });

  it('times out a hung check', async () => {
    const report = await runChecks(
      [{ name: 'hung', check: () => new Promise(() => undefined) }],
      50,
    );
    expect(report.checks.hung).toEqual({ status: 'down', error: 'no answer within 50 ms' });
  });
});
