import { PassThrough } from 'node:stream';
import pino from 'pino';
import { logDestination } from './log-destination';
import { serializeRequest, serializeResponse } from './log-format';

/** What one line looks like at the other end of the logger, by LOG_FORMAT (issue 17 item 4). */
async function written(
  format: 'json' | 'pretty',
  log: (logger: pino.Logger) => void,
): Promise<string> {
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  const destination = await logDestination(format, out);
  const logger = pino(
    {
      base: { pid: 1, hostname: 'host', env: 'local' },
      serializers: { req: serializeRequest, res: serializeResponse },
    },
    destination,
  );
  log(logger);
  await new Promise((resolve) => setImmediate(resolve));
  return chunks.join('');
}

const REQUEST = {
  id: 'req-1',
  method: 'GET',
  url: '/signin?b=psa&t=tok-SECRET',
  headers: { 'user-agent': 'spec' },
  socket: { remoteAddress: '127.0.0.1' },
};

describe(logDestination.name, () => {
  it('passes JSON lines through untouched (the default)', async () => {
    const out = await written('json', (l) => l.info({ context: 'Spec', n: 1 }, 'hello'));
    expect(JSON.parse(out)).toMatchObject({ level: 30, context: 'Spec', n: 1, msg: 'hello' });
  });

  it('leaves the destination to pino (stdout) when none is given for JSON', async () => {
    expect(await logDestination('json')).toBeUndefined();
  });

  // Issue 33 item 4: local's default reads as text in a terminal and stays JSON anywhere else.
  it.each<[string, NodeJS.WritableStream | undefined, boolean, 'json' | 'pretty']>([
    ['stdout, a terminal', undefined, true, 'pretty'],
    ['stdout, a pipe or file', undefined, false, 'json'],
    ['a stream of its own, beside a terminal', new PassThrough(), true, 'json'],
  ])('terminal: %s gets %s', async (_where, destination, isTerminal, expected) => {
    const chosen = await logDestination('terminal', destination, isTerminal);
    if (expected === 'json') expect(chosen).toBe(destination);
    else expect(chosen).toEqual(expect.objectContaining({ write: expect.any(Function) }));
  });

  it.each<[string, (l: pino.Logger) => void, RegExp, string[]]>([
    [
      'a service line: level, [context], message, its fields',
      (l) => l.warn({ context: 'BackchannelNotifier', brand: 'psa' }, 'logout not delivered'),
      /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: \[BackchannelNotifier\] logout not delivered\n {4}brand: "psa"\n$/,
      ['pid', 'hostname', '"env"'],
    ],
    [
      'an access line: method, redacted path, status and duration on one line',
      (l) =>
        l.info(
          {
            req: REQUEST,
            res: { statusCode: 302, getHeader: () => undefined },
            responseTime: 4,
          },
          'request completed',
        ),
      /^\[[\d:.]+\] INFO: request completed GET \/signin\?b=psa&t=\[Redacted\] → 302 4 ms\n$/,
      ['tok-SECRET', 'user-agent', 'req-1'],
    ],
  ])('writes %s for a person', async (_name, log, line, absent) => {
    const out = await written('pretty', log);
    expect(out).toMatch(line);
    for (const text of absent) expect(out).not.toContain(text);
  });
});
