import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from './project-paths';

/**
 * The name this service goes by in traces (the resource's service.name default), log lines
 * (`service`) and metrics; fixed, unlike the instance's APP_ENV.
 */
export const SERVICE_NAME = 'collectors-signon';

/**
 * The running build's version, from package.json (the image ships it beside dist/, see the
 * Dockerfile): `build_info`, the resource's service.version and every log line's `version`, so an
 * on-call engineer can tell which release an alert, a trace or a line came from
 * (docs/operating.md "On-call metrics").
 */
export const SERVICE_VERSION: string = readVersion(path.join(PROJECT_ROOT, 'package.json'));

function readVersion(file: string): string {
  const { version } = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown };
  if (typeof version !== 'string' || version === '') throw new Error(`${file} names no version`);
  return version;
}
