import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from './project-paths';

/**
 * scripts/runtime.json says how production runs the process (Node flags, environment); `npm start`,
 * the Dockerfile and the benchmarks must all run it that way, or the memory and speed the
 * benchmarks report are not what production gets.
 */
describe('one way to run the service (scripts/runtime.json)', () => {
  const read = (file: string) => fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
  const runtime = JSON.parse(read('scripts/runtime.json')) as {
    nodeFlags: string[];
    env: Record<string, string>;
  };

  it('npm start uses the same flags and environment', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts
      .start;
    expect(start).toContain(`node ${runtime.nodeFlags.join(' ')} dist/src/main.js`);
    for (const [key, value] of Object.entries(runtime.env))
      expect(start).toContain(`${key}=${value}`);
  });

  it('the Dockerfile uses the same flags and environment', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toContain(
      `CMD ${JSON.stringify(['node', ...runtime.nodeFlags, 'dist/src/main.js']).replace(/","/g, '", "')}`,
    );
    for (const [key, value] of Object.entries(runtime.env))
      expect(dockerfile).toMatch(new RegExp(`^ENV[\\s\\S]*\\b${key}=${value}\\b`, 'm'));
  });

  it('the benchmarks start the app from it', () => {
    expect(read('bench/harness.js')).toContain("require('../scripts/runtime.json')");
  });
});
