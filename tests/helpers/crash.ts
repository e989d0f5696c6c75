/**
 * Crash tests: the app in a child process (crash-process.ts) on the test file's database, started with a fault
 * point armed, driven (a request, a job) until it kills itself there by SIGKILL; then started again without it,
 * "later" (its clock past every lock and lease the dead process held), to retry as a client would and to run the
 * jobs and their sweepers. What must then hold is checked by tests/helpers/invariants.ts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { withDatabaseName } from '../../server/db/connection';
import { signAccessToken } from '../../server/lib/access-token';
import type { FaultPointName } from '../../server/lib/fault-points';
import { testConfig } from './app';
import { freezeDate } from './clock';
import { processEntry } from './process-entries';
import type { CrashCommand, CrashReply, JobOutcome } from './crash-process';

/** How far ahead the restarted process's clock runs: past the longest lock or lease a crash can leave (a payout run's 30 minutes). */
export const RESTART_LATER_MS = 31 * 60_000;

export interface CrashApp {
  /** Its base URL, for supertest: `request(app.url)`. */
  url: string;
  /** Runs one job under its lease, as the scheduler does. */
  runJob(name: string): Promise<JobOutcome[]>;
  /** Runs every job once, each under its lease: what the scheduler of a restarted deployment runs. */
  runAllJobs(): Promise<JobOutcome[]>;
  /** Resolves when the process has exited, with how. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

/** A folder for the apps of one crash scenario: their outbox, uploads and sandbox payouts, kept across restarts. */
export const crashFolder = () => mkdtempSync(path.join(os.tmpdir(), 'knack-crash-'));

/** Starts the app process on this test file's database (after useTestDatabase connected). */
export function startCrashApp(
  dir: string,
  {
    faultPoint,
    clockShiftMs = 0,
    timeoutMs = 60_000,
  }: { faultPoint?: `${FaultPointName}` | `${FaultPointName}:${number}`; clockShiftMs?: number; timeoutMs?: number } = {},
): Promise<CrashApp> {
  const base = new URL(process.env.KNACK_TEST_DB_URI!);
  base.pathname = '/';
  const { KNACK_FAULT_POINT: _unset, ...env } = process.env;
  const entry = processEntry('crash-process');
  const child: ChildProcess = fork(entry.file, [], {
    execArgv: entry.execArgv,
    env: {
      ...env,
      KNACK_CRASH_DB_URI: withDatabaseName(base.toString(), mongoose.connection.name),
      KNACK_CRASH_DIR: dir,
      KNACK_CRASH_CLOCK_SHIFT_MS: String(clockShiftMs),
      ...(faultPoint ? { KNACK_FAULT_POINT: faultPoint } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let nextId = 1;
  const ask = (command: Omit<CrashCommand, 'id'>) =>
    new Promise<JobOutcome[]>((resolve, reject) => {
      const id = nextId++;
      const onMessage = (reply: CrashReply) => {
        if (reply.id !== id) return;
        child.off('message', onMessage);
        resolve(reply.outcomes);
      };
      child.on('message', onMessage);
      void exited.then(({ signal, code }) => reject(new Error(`the app process exited (signal ${signal}, code ${code}) before it finished the jobs`)));
      child.send({ id, ...command } as CrashCommand);
    });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the crash test's app process did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('message', (message: { url: string }) => {
      clearTimeout(timer);
      resolve({ url: message.url, runJob: (job) => ask({ job }), runAllJobs: () => ask({ jobs: 'all' }), exited, stop });
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the crash test's app process stopped before it listened (code ${code}, signal ${signal})`));
    });
  });
}

/**
 * Runs `drive` (a request, a job) against `app`, started with a fault point armed, until the process dies. Answers
 * how it ended: the signal must be SIGKILL (the fault point's), and `drive` must not have got its answer first.
 */
export async function crashDuring(app: CrashApp, drive: () => Promise<unknown>): Promise<{ signal: NodeJS.Signals | null; driveFinished: boolean }> {
  const driving = drive().then(
    () => 'finished' as const,
    () => 'failed' as const, // the connection dies with the process: what a client sees of a crash
  );
  const first = await Promise.race([driving, app.exited.then(() => 'exited' as const)]);
  // Answered: the point was not reached (the process is stopped, and the test sees no SIGKILL).
  if (first === 'finished') await app.stop();
  const { signal } = await app.exited;
  return { signal, driveFinished: (await driving) === 'finished' };
}

/** An access token of `userId` as the restarted process's clock sees "now" (the token signed before has expired for it). */
export function tokenAfterRestart(userId: string): string {
  const clock = freezeDate(Date.now() + RESTART_LATER_MS);
  try {
    return signAccessToken(testConfig().auth, { userId, tokenVersion: 0 });
  } finally {
    clock.restore();
  }
}
