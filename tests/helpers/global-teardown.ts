import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const started = globalThis.knackTestDatabase;
  if (!started) return;
  globalThis.knackTestDatabase = undefined;
  delete process.env.KNACK_TEST_DB_URI;
  await started.db?.stop();
  rmSync(started.dir, { recursive: true, force: true });
}
