import type { DestinationStream } from 'pino';
import type { LogFormat } from '../config/app-config';

/**
 * How a pretty line reads (issue 17 item 4): time, level, `[context]`, the message, the method and
 * path of the request it was logged in, and for the access line the status and duration. The fields
 * every JSON line carries for machines (pid, hostname, env, service, version, the request and
 * response objects) are left out; anything else a line logs (an error, an event's fields) follows,
 * indented.
 */
export const PRETTY_OPTIONS = {
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,env,service,version,context,req,res,responseTime',
  messageFormat:
    '{if context}[{context}] {end}{msg}{if req.method} {req.method} {req.url}{end}' +
    '{if res.statusCode} → {res.statusCode}{end}{if responseTime} {responseTime} ms{end}',
} as const;

/**
 * Where the root logger writes. `json`: JSON lines to `destination`, stdout when absent. `pretty`:
 * the same lines through pino-pretty, in process and synchronously (no worker thread, so nothing is
 * lost when the process exits at once), in colour when stdout is a terminal. pino-pretty is imported
 * only then. `terminal` (local's default): pretty when the lines go to a terminal, JSON when they go
 * anywhere else (a pipe, a file, a test's stream).
 */
export async function logDestination(
  format: LogFormat | 'terminal',
  destination?: NodeJS.WritableStream,
  stdoutIsTerminal: boolean = process.stdout.isTTY === true,
): Promise<NodeJS.WritableStream | DestinationStream | undefined> {
  switch (format) {
    case 'terminal':
      return logDestination(!destination && stdoutIsTerminal ? 'pretty' : 'json', destination);
    case 'json':
      return destination;
    case 'pretty': {
      const { default: pretty } = await import('pino-pretty');
      return pretty({
        ...PRETTY_OPTIONS,
        destination: destination ?? 1,
        sync: true,
        ...(destination ? { colorize: false } : {}),
      });
    }
  }
}
