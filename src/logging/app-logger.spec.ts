import { PassThrough } from 'node:stream';
import pino from 'pino';
import { AppLogger, NestLogger } from './app-logger';

function capture(): { root: pino.Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  const root = pino({ level: 'debug' }, stream);
  return {
    root,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const flush = () => new Promise((r) => setImmediate(r));

describe(AppLogger.name, () => {
  it.each<[string, (l: AppLogger) => void, Record<string, unknown>]>([
    [
      'fields and a message',
      (l) => l.info({ brand: 'psa' }, 'signed in'),
      { level: 30, brand: 'psa', msg: 'signed in' },
    ],
    ['a message alone', (l) => l.warn('careful'), { level: 40, msg: 'careful' }],
    [
      'an error as the fields',
      (l) => l.error(new Error('boom'), 'failed'),
      { level: 50, msg: 'failed', err: expect.objectContaining({ message: 'boom' }) },
    ],
  ])('logs %s with its context', async (_name, call, expected) => {
    const { root, lines } = capture();
    const logger = new AppLogger(root);
    logger.setContext('Spec');
    call(logger);
    await flush();
    expect(lines()).toEqual([expect.objectContaining({ ...expected, context: 'Spec' })]);
  });

  it('writes nothing below the configured level', async () => {
    const { root, lines } = capture();
    root.level = 'info';
    new AppLogger(root).debug({ noisy: true }, 'detail');
    await flush();
    expect(lines()).toEqual([]);
  });
});

describe(NestLogger.name, () => {
  it.each<[string, (l: NestLogger) => void, Record<string, unknown>]>([
    [
      'a message with its context',
      (l) => l.log('listening', 'Main'),
      { level: 30, msg: 'listening', context: 'Main' },
    ],
    ['a message without context', (l) => l.warn('plain'), { level: 40, msg: 'plain' }],
    [
      'an Error',
      (l) => l.error(new Error('bad'), 'Store'),
      { level: 50, msg: 'bad', context: 'Store', err: expect.objectContaining({ message: 'bad' }) },
    ],
    [
      "Nest's exception handler: message, stack, context",
      (l) => l.error('it failed', 'Error: it failed\n    at x (y.js:1:1)', 'ExceptionsHandler'),
      {
        level: 50,
        msg: 'it failed',
        context: 'ExceptionsHandler',
        err: expect.objectContaining({ stack: expect.stringContaining('at x (y.js:1:1)') }),
      },
    ],
    ['an object', (l) => l.debug({ a: 1 }, 'Ctx'), { level: 20, a: 1, context: 'Ctx' }],
    [
      "Nest's start-up bookkeeping, as debug (issue 33 item 4)",
      (l) => l.log('Mapped {/signin, GET} route', 'RouterExplorer'),
      { level: 20, msg: 'Mapped {/signin, GET} route', context: 'RouterExplorer' },
    ],
    [
      'a module loaded, as debug',
      (l) => l.log('AppModule dependencies initialized', 'InstanceLoader'),
      { level: 20, context: 'InstanceLoader' },
    ],
  ])('logs %s', async (_name, call, expected) => {
    const { root, lines } = capture();
    call(new NestLogger(root));
    await flush();
    expect(lines()).toEqual([expect.objectContaining(expected)]);
  });
});
