/**
 * A second app process on the current test file's database, for the tests that matter for money and
 * permissions: requests shared between it and the test's own app show that correctness does not hang on
 * anything kept in one process's memory (the app must scale out to several stateless instances on one
 * database).
 */
import { fork } from 'node:child_process';
import mongoose from 'mongoose';
import { withDatabaseName } from '../../server/db/connection';
import { seedReferenceData } from '../../server/db/seed';
import { clearDatabase } from './db';
import { processEntry } from './process-entries';

export interface SecondApp {
  /** Its base URL, for supertest: `request(second.url)`. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the app in a child process on this test file's database (call after useTestDatabase has connected).
 * `storageRoot`: the folder of the test app's local file storage, for tests whose two processes change the same
 * files (else the second process stores files in a folder of its own).
 */
export function startSecondApp({ timeoutMs = 60_000, storageRoot }: { timeoutMs?: number; storageRoot?: string } = {}): Promise<SecondApp> {
  const base = new URL(process.env.KNACK_TEST_DB_URI!);
  base.pathname = '/';
  const entry = processEntry('app-process');
  const child = fork(entry.file, [], {
    execArgv: entry.execArgv,
    env: {
      ...process.env,
      KNACK_SECOND_APP_DB_URI: withDatabaseName(base.toString(), mongoose.connection.name),
      ...(storageRoot ? { KNACK_SECOND_APP_STORAGE_ROOT: storageRoot } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill();
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the second app process did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('message', (message: { url: string }) => {
      clearTimeout(timer);
      resolve({ url: message.url, stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the second app process stopped before it listened (exit code ${code})`));
    });
  });
}

/**
 * A second process around each test or the whole file: before, the reference data seeded (for each test, on a database
 * emptied first: a process that outlived an emptied database would still remember the ends of chains the database no
 * longer has, as a running app never sees its database emptied under it) and a new second process started; after, it
 * stops. Answers the current second process (its `url`).
 */
function useSecondApp(per: 'test' | 'file', timeoutMs: number): Pick<SecondApp, 'url'> {
  let current: SecondApp | undefined;
  (per === 'test' ? beforeEach : beforeAll)(async () => {
    if (per === 'test') await clearDatabase();
    await seedReferenceData();
    current = await startSecondApp();
  }, timeoutMs);
  (per === 'test' ? afterEach : afterAll)(async () => current?.stop());
  return {
    get url() {
      if (!current) throw new Error('The second app runs only inside a test');
      return current.url;
    },
  };
}

/** For a test file whose tests each start from an empty database, shared with a second process. */
export const useSecondAppPerTest = ({ timeoutMs = 120_000 } = {}) => useSecondApp('test', timeoutMs);

/** For a test file whose tests share one database, and one second process started before them. */
export const useSecondAppPerFile = ({ timeoutMs = 60_000 } = {}) => useSecondApp('file', timeoutMs);
