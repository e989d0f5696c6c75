/**
 * Starts one real database for the test run (same resolution as the app: MONGODB_URI, mongod, FerretDB,
 * mongodb-memory-server) with its data in a throw-away directory. Each test file then uses its own
 * database on it (tests/helpers/db.ts), so files run in parallel without sharing data.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../server/db/embedded';
import { bundleProcessEntries } from './process-entries';

declare global {
  var knackTestDatabase: { db?: EmbeddedDatabase; dir: string } | undefined;
  var knackTestRunDir: { dir: string; previousTmpdir: string | undefined } | undefined;
}

export default async function globalSetup(): Promise<void> {
  // Every temporary folder of the run (the apps' mail and upload folders, Chromium's profiles, the database) is
  // made in one folder of the run's own, which the teardown removes: the tests make hundreds of them.
  if (!globalThis.knackTestRunDir) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'knack-test-run-'));
    globalThis.knackTestRunDir = { dir, previousTmpdir: process.env.TMPDIR };
    process.env.TMPDIR = dir;
  }
  await bundleProcessEntries();
  if (process.env.KNACK_TEST_DB_URI) return; // started already by another jest project of this run
  if (process.env.MONGODB_URI) {
    process.env.KNACK_TEST_DB_URI = process.env.MONGODB_URI;
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'knack-test-db-'));
  const db = await startEmbeddedDatabase({
    dataDir: dir,
    binDir: path.resolve(__dirname, '../../data/bin'),
    log: (message) => process.stderr.write(`[test database] ${message}\n`),
  });
  globalThis.knackTestDatabase = { db, dir };
  process.env.KNACK_TEST_DB_URI = db.uri;
  process.env.KNACK_TEST_DB_KIND = db.kind;
}
