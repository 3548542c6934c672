import type { IncomingMessage, ServerResponse } from 'node:http';
import { Step, inOnePass } from './one-pass';

const req = {} as IncomingMessage;
const res = {} as ServerResponse;

/** inOnePass behaves as the same middlewares would as separate Express layers. */
describe(inOnePass.name, () => {
  const recording =
    (log: string[], name: string): Step =>
    (_q, _s, next) => {
      log.push(name);
      next();
    };

  it('runs every step in order, then calls next once without an error', () => {
    const log: string[] = [];
    const next = jest.fn();
    inOnePass(recording(log, 'a'), recording(log, 'b'), recording(log, 'c'))(req, res, next);
    expect(log).toEqual(['a', 'b', 'c']);
    expect(next).toHaveBeenCalledTimes(1);
    expect(next).toHaveBeenCalledWith();
  });

  it('a step that passes an error skips the rest and hands the error on', () => {
    const log: string[] = [];
    const next = jest.fn();
    const failure = new Error('bad body');
    inOnePass(recording(log, 'a'), (_q, _s, n) => n(failure), recording(log, 'never'))(
      req,
      res,
      next,
    );
    expect(log).toEqual(['a']);
    expect(next).toHaveBeenCalledWith(failure);
  });

  it('a step that throws skips the rest and hands the error on', () => {
    const log: string[] = [];
    const next = jest.fn();
    const failure = new Error('thrown');
    inOnePass(
      () => {
        throw failure;
      },
      recording(log, 'never'),
    )(req, res, next);
    expect(log).toEqual([]);
    expect(next).toHaveBeenCalledWith(failure);
  });

  it('a step whose promise rejects hands the error on', async () => {
    const failure = new Error('async failure');
    const handed = await new Promise((resolve) =>
      inOnePass(() => Promise.reject(failure))(req, res, resolve),
    );
    expect(handed).toBe(failure);
  });

  it('a step that answers and does not call next ends the pass there', () => {
    const log: string[] = [];
    const next = jest.fn();
    inOnePass(recording(log, 'a'), () => undefined, recording(log, 'never'))(req, res, next);
    expect(log).toEqual(['a']);
    expect(next).not.toHaveBeenCalled();
  });

  it('a step that calls next later (asynchronously) continues the pass then', async () => {
    const log: string[] = [];
    const done = new Promise<void>((resolve) =>
      inOnePass((_q, _s, n) => void setImmediate(() => n()), recording(log, 'b'))(req, res, () =>
        resolve(),
      ),
    );
    await done;
    expect(log).toEqual(['b']);
  });
});
