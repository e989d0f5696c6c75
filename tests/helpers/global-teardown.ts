import { rmSync } from 'node:fs';
import { removeProcessBundles } from './process-entries';

export default async function globalTeardown(): Promise<void> {
  removeProcessBundles();
  const started = globalThis.knackTestDatabase;
  if (started) {
    globalThis.knackTestDatabase = undefined;
    delete process.env.KNACK_TEST_DB_URI;
    await started.db?.stop();
    rmSync(started.dir, { recursive: true, force: true });
  }
  const run = globalThis.knackTestRunDir;
  if (run) {
    globalThis.knackTestRunDir = undefined;
    if (run.previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = run.previousTmpdir;
    rmSync(run.dir, { recursive: true, force: true });
  }
}
