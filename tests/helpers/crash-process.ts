/**
 * The entry of a crash test's app process (started by crash.ts): the app and its jobs on the test's database, with
 * the fault point of KNACK_FAULT_POINT armed through the configuration, as `npm start` arms it. Its mail, uploads
 * and sandbox payouts live in KNACK_CRASH_DIR, which outlives the process, so the next process reads what the dead
 * one wrote. KNACK_CRASH_CLOCK_SHIFT_MS moves this process's `Date` ahead: the restart happens "later", past the
 * expiry of every lock and lease the dead process held.
 *
 * Over IPC it runs one job under its lease (`{ job }`, as the scheduler does), or every job once (`{ jobs: 'all' }`):
 * what a restarted deployment's scheduler would run.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import mongoose from 'mongoose';
import '../../server/db/connection'; // the database settings the app runs with (request values never become operators)
import { loadConfig } from '../../server/config';
import { localIpfsPinning } from '../../server/integrations/ipfs';
import { outboxMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { defaultJobs, type Job } from '../../server/jobs/scheduler';
import { armFaultPoint } from '../../server/lib/fault-points';
import { createLogger } from '../../server/lib/logger';
import { withLease } from '../../server/lib/mutex';
import { buildServices } from '../../server/services';
import { createTestApp, TEST_JWT_SECRET, testConfig } from './app';

/** What the test asks of this process. */
export type CrashCommand = { id: number; job: string } | { id: number; jobs: 'all' };
/** What it answers: each job run, whether its lease was taken, and its result or error. */
export interface JobOutcome {
  name: string;
  taken: boolean;
  /** How long the run took, in ms. */
  ms: number;
  result?: unknown;
  error?: string;
}
export type CrashReply = { id: number; outcomes: JobOutcome[] };

function shiftClock(ms: number): void {
  if (!ms) return;
  const RealDate = Date;
  // Only "now" moves: a Date made from a value is that value.
  class ShiftedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + ms);
      else super(...(args as [string]));
    }
    static override now() {
      return RealDate.now() + ms;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
}

async function runUnderLease(job: Job): Promise<JobOutcome> {
  const start = performance.now();
  const ms = () => Math.round(performance.now() - start);
  try {
    const outcome = await withLease(`job:${job.name}`, job.leaseMs, job.run);
    return outcome.taken ? { name: job.name, taken: true, ms: ms(), result: outcome.result } : { name: job.name, taken: false, ms: ms() };
  } catch (err) {
    return { name: job.name, taken: true, ms: ms(), error: (err as Error).stack ?? String(err) };
  }
}

async function main(): Promise<void> {
  shiftClock(Number(process.env.KNACK_CRASH_CLOCK_SHIFT_MS ?? 0));
  // The fault point as the process entries read it (server/lib/process.ts): from the configuration.
  armFaultPoint(loadConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, KNACK_FAULT_POINT: process.env.KNACK_FAULT_POINT }).faultPoint);
  await mongoose.connect(process.env.KNACK_CRASH_DB_URI!, { serverSelectionTimeoutMS: 10_000 });
  const dir = process.env.KNACK_CRASH_DIR!;
  const base = testConfig();
  const config = { payouts: { ...base.payouts, sandboxDir: path.join(dir, 'payouts') } };
  const mailer = outboxMailer(path.join(dir, 'mail'), 'Knack <no-reply@knack.test>');
  const storage = localStorage(path.join(dir, 'uploads'));
  const ipfs = localIpfsPinning(path.join(dir, 'ipfs'), base.publicUrl);
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const services = buildServices({ config: testConfig(config), logger, mailer, storage, ipfs });
  const jobs = defaultJobs({ logger, storage, services });
  const server = createTestApp({ config, mailer, storage, ipfs, services }).listen(0, '127.0.0.1', () => {
    process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  });
  process.on('message', (command: CrashCommand) => {
    const chosen = 'job' in command ? jobs.filter((job) => job.name === command.job) : jobs;
    void (async () => {
      const outcomes: JobOutcome[] = [];
      for (const job of chosen) outcomes.push(await runUnderLease(job));
      process.send!({ id: command.id, outcomes } satisfies CrashReply);
    })();
  });
  // The test that started it has ended (or died): so does this process.
  process.on('disconnect', () => process.exit(0));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
