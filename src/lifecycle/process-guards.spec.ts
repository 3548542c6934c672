import type { LoggerService } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { installProcessGuards } from './process-guards';

describe(installProcessGuards.name, () => {
  function guarded() {
    const target = new EventEmitter();
    const lines: { level: string; obj: unknown; msg: unknown }[] = [];
    const logger: LoggerService = {
      log: () => undefined,
      warn: () => undefined,
      error: (obj: unknown, msg: unknown) => lines.push({ level: 'error', obj, msg }),
      fatal: (obj: unknown, msg: unknown) => lines.push({ level: 'fatal', obj, msg }),
    };
    const exits: number[] = [];
    installProcessGuards(logger, (code) => exits.push(code), target);
    return { target, lines, exits };
  }

  it('logs a rejection nobody handled and keeps running', () => {
    const g = guarded();
    g.target.emit('unhandledRejection', new Error('store went away'));
    g.target.emit('unhandledRejection', 'a bare string');
    expect(g.exits).toEqual([]);
    expect(g.lines.map((l) => [l.level, l.msg])).toEqual([
      ['error', 'unhandled promise rejection (the process keeps running)'],
      ['error', 'unhandled promise rejection (the process keeps running)'],
    ]);
    expect(g.lines[1]?.obj).toEqual({ err: new Error('a bare string') });
  });

  it('logs an uncaught exception and exits 1', () => {
    const g = guarded();
    g.target.emit('uncaughtException', new Error('boom'));
    expect(g.exits).toEqual([1]);
    expect(g.lines).toEqual([
      { level: 'fatal', obj: { err: new Error('boom') }, msg: 'uncaught exception: exiting 1' },
    ]);
  });
});
