import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

describe('generated code', () => {
  it('when openapi.yaml is generated again, then the committed files are identical (not stale)', () => {
    const run = () => execFileSync(process.execPath, [require.resolve('tsx/cli'), 'scripts/gen.ts', '--check'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    expect(run()).toContain('Generated files are up to date.');
  });
});
