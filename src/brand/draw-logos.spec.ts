import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { PROJECT_ROOT } from '../config/project-paths';

/**
 * The brand SVGs in client/public/brand/ are what scripts/draw-logos.js draws, byte for byte: a
 * hand edit of one file, or a change to the script without its SVGs, fails here.
 */
describe('scripts/draw-logos.js', () => {
  it('draws exactly the committed logos and favicons', () => {
    const out = execFileSync(process.execPath, [
      path.join(PROJECT_ROOT, 'scripts/draw-logos.js'),
      '--check',
    ]);
    expect(out.toString()).toContain('as drawn');
  });
});
