/**
 * The cron jobs (UTC). Every run takes its lease first (withLease: a lock inserted under the job's name), so
 * with many instances each job runs once; a failing run is logged and the next one tries again.
 */
import cron, { type ScheduledTask } from 'node-cron';
import { isSandbox } from '../integrations/payments';
import type { Storage } from '../integrations/storage';
import type { Logger } from '../lib/logger';
import { purgeExpiredLocks, withLease } from '../lib/mutex';
import { purgeExpiredLimits } from '../lib/rate-limit';
import { purgeSpentTokens } from '../modules/auth';
import { runEarningsRollups } from '../modules/analytics';
import { repairLostCommentSteps } from '../modules/comments';
import { refreshAdminStats } from '../modules/dashboard';
import { countProductEvents, purgeOldProductEvents } from '../modules/events';
import { updateRankings } from '../modules/feeds';
import { repairLostFollowEvents } from '../modules/follows';
import { purgeExpiredIdempotencyKeys } from '../modules/idempotency';
import { purgeStaleKnackRecords } from '../modules/knacks';
import { followLedgerBalances } from '../modules/ledger';
import { purgeMailOutbox } from '../modules/mail-outbox';
import { mediaHousekeeping } from '../modules/media';
import { purgeExpiredWalletChallenges } from '../modules/stellar';
import { PAYOUT_CRON } from '../modules/wallet';
import type { Services } from '../services';

export interface JobDeps {
  logger: Logger;
  storage: Storage;
  /** The process's services (server/services.ts): the same ones the app calls. */
  services: Pick<
    Services,
    'media' | 'contents' | 'payouts' | 'mailings' | 'mailOutbox' | 'provider' | 'subscriptions' | 'payments' | 'account' | 'anchors' | 'bids' | 'messages'
  >;
}

export interface Job {
  name: string;
  /** Cron expression, in UTC. */
  schedule: string;
  /** How long a run may hold the lease; if the process dies, another instance takes over after it. */
  leaseMs: number;
  run: () => Promise<unknown>;
}

export function defaultJobs({ logger, storage, services }: JobDeps): Job[] {
  const { media, contents, payouts, mailings, mailOutbox, provider, subscriptions, payments, account, anchors, bids, messages } = services;
  return [
    // Uploads left unused and waveforms left unfinished, then pieces' earlier files: switches a stopped process left
    // half-way settled, and versions past their 30 days removed with their files.
    {
      name: 'media-housekeeping',
      schedule: '*/10 * * * *',
      leaseMs: 10 * 60_000,
      run: async () => ({ ...(await mediaHousekeeping({ media, storage, logger })), versions: await contents.sweepFileVersions() }),
    },
    // The knacks since the last run counted into the rankings (the ledger's journal from the job's checkpoint), the
    // pieces whose trend or radar window moved settled, then the feeds' ranked lists built.
    { name: 'refresh-rankings', schedule: '*/5 * * * *', leaseMs: 5 * 60_000, run: () => updateRankings() },
    // 00:00 UTC on the 1st: every balance of at least $10 paid once (`payout:{userId}:{yyyy-mm}`).
    { name: 'monthly-payouts', schedule: PAYOUT_CRON, leaseMs: 30 * 60_000, run: () => payouts.runMonthly() },
    // The members' mails, each once per member and period (`mail_sends`): the notice of every payout or cash-out the
    // provider took that was not mailed at once (a stopped process, a refused mail), the month's statement on the 1st
    // after the payouts, and on Mondays the digest of the week before.
    { name: 'payout-notices', schedule: '4-59/10 * * * *', leaseMs: 10 * 60_000, run: () => mailings.sendPayoutNotices() },
    { name: 'monthly-statements', schedule: '0 6 1 * *', leaseMs: 2 * 60 * 60_000, run: () => mailings.sendMonthlyStatements() },
    { name: 'weekly-digest', schedule: '0 8 * * 1', leaseMs: 2 * 60 * 60_000, run: () => mailings.sendWeeklyDigests() },
    // Mails the mail server did not take when they were written (modules/mail-outbox): each due one tried again, once
    // whichever instance runs (an attempt is claimed by insert), until it is delivered or given up on.
    { name: 'mail-outbox', schedule: '* * * * *', leaseMs: 10 * 60_000, run: () => mailOutbox.deliverDue() },
    // Rate-limit hits of ended windows, marks of expired tokens, knack records no longer read, expired wallet
    // challenges, Idempotency-Keys past their 24 hours, the outbox's records of attempts past their week and mails
    // given up on past their month, and the locks and leases of holders that died: kept small without TTL indexes
    // (FerretDB refuses them). Waiting accounts whose registration link ended unused go too, with their songs.
    {
      name: 'expired-records',
      schedule: '7 * * * *',
      leaseMs: 10 * 60_000,
      run: async () => ({
        limits: await purgeExpiredLimits(),
        spentTokens: await purgeSpentTokens(),
        knacks: await purgeStaleKnackRecords(),
        walletChallenges: await purgeExpiredWalletChallenges(),
        mailOutbox: await purgeMailOutbox(),
        locks: await purgeExpiredLocks(),
        unregisteredAccounts: await account.removeUnregisteredAccounts(),
        idempotencyKeys: await purgeExpiredIdempotencyKeys(),
      }),
    },
    // Each closed UTC day's ledger entries get one Merkle root (made once: its `_id` is the day), anchored on Stellar
    // when STELLAR_ANCHOR_SECRET is set. Hourly, so that an anchor Horizon refused or could not take is tried again soon.
    { name: 'ledger-roots', schedule: '17 * * * *', leaseMs: 30 * 60_000, run: () => anchors.run() },
    // The members' running balances, the pieces' earnings and the knacked lists (modules/ledger): the entries since
    // the job's checkpoint in the ledger's journal, each past its 5-minute grace, checked against their postings, and
    // the postings a crash left missing appended.
    { name: 'ledger-balances', schedule: '* * * * *', leaseMs: 10 * 60_000, run: () => followLedgerBalances() },
    // Follows and unfollows whose process died between the follow document and the members' list events (marked
    // before the one and cleared after the other): the missing events appended, so the lists and counts are exact.
    { name: 'follow-repairs', schedule: '*/2 * * * *', leaseMs: 10 * 60_000, run: () => repairLostFollowEvents() },
    // Comments and removals whose process died between the comment (or its removal's claim) and the rest: listed in
    // the author's and the owner's lists where missing, a removed comment's text emptied, the piece's count recounted.
    { name: 'comment-repairs', schedule: '1-59/2 * * * *', leaseMs: 10 * 60_000, run: () => repairLostCommentSteps() },
    // Changes of messages whose process died half-way: a side's new version given the change of the member's counts
    // it makes (so the unread badge and the inbox counts are exact), a reply taken by the sides that lack it, a new
    // thread's missing sides written; the receiver mailed as the request would have.
    { name: 'message-repairs', schedule: '*/2 * * * *', leaseMs: 10 * 60_000, run: () => messages.repairLostSteps() },
    // Account deletions stopped half-way (a crash, a restart) are finished: every step is safe to run again.
    // Pending bid sales: settled once their transaction is in a ledger, back to open once their time bound passed.
    { name: 'bid-sales', schedule: '* * * * *', leaseMs: 60_000, run: () => bids.settlePending() },
    { name: 'account-deletions', schedule: '3-59/10 * * * *', leaseMs: 10 * 60_000, run: () => account.finishStalledDeletions() },
    // Listing payments stopped half-way (a crash between their steps): pieces whose listing is in the ledger marked
    // monetized, credits used for a listing that never happened given back, credit movements left pending applied once.
    { name: 'listing-repairs', schedule: '6-59/10 * * * *', leaseMs: 10 * 60_000, run: () => payments.repairListings() },
    // The earnings rollups of the days not yet closed, counted again from the ledger (never added to), then once a day
    // each tag's price by the market rule, from the days just counted.
    { name: 'earnings-rollups', schedule: '1-59/5 * * * *', leaseMs: 10 * 60_000, run: () => runEarningsRollups() },
    // The admin dashboard's figures of today and this month, counted again from the day's facts (never added to).
    { name: 'admin-stats', schedule: '2-59/5 * * * *', leaseMs: 5 * 60_000, run: () => refreshAdminStats() },
    // The product events of each day counted per event from the facts (never added to), and facts past their keeping
    // deleted: their days stay counted.
    {
      name: 'product-events',
      schedule: '4-59/5 * * * *',
      leaseMs: 5 * 60_000,
      run: async () => ({ ...(await countProductEvents()), purged: await purgeOldProductEvents() }),
    },
    // Only with the sandbox provider, which has no servers of its own to charge renewals: each month that
    // ended is renewed (or a cancelled subscription ended) through the same signed webhook a provider sends.
    ...(isSandbox(provider)
      ? [
          {
            name: 'sandbox-renewals',
            schedule: '*/15 * * * *',
            leaseMs: 10 * 60_000,
            run: () =>
              subscriptions.renewDueSandboxSubscriptions(({ rawBody, headers }) =>
                payments.receiveWebhook(provider.kind, rawBody, headers).then(() => undefined),
              ),
          },
        ]
      : []),
  ];
}

/** Runs one job under its lease; never throws. */
export async function runJob(job: Job, logger: Logger): Promise<void> {
  const log = logger.child({ job: job.name });
  try {
    const outcome = await withLease(`job:${job.name}`, job.leaseMs, job.run);
    if (outcome.taken) log.info({ result: outcome.result }, 'job done');
    else log.debug('job skipped: another instance holds the lease');
  } catch (err) {
    log.error({ err }, 'job failed');
  }
}

/** What a scheduled job is doing, as its schedule reports it. */
export interface ScheduledJobState {
  name: string;
  schedule: string;
  /** `idle` or `running` while scheduled; `destroyed` once stopped. */
  status: string;
  nextRunAt: Date | null;
}

export interface Scheduler {
  /** Each job's schedule and state, in the order they were given. */
  jobs(): ScheduledJobState[];
  /** Stops the schedules and waits for the runs under way. */
  stop(): Promise<void>;
}

export function startJobs(deps: JobDeps, jobs: Job[] = defaultJobs(deps)): Scheduler {
  const running = new Set<Promise<void>>();
  const log = deps.logger.child({ module: 'node-cron' });
  const cronLogger = {
    info: (message: string) => log.info(message),
    warn: (message: string) => log.warn(message),
    error: (message: string | Error, err?: Error) => log.error({ err: err ?? message }, String(message)),
    debug: (message: string | Error) => log.debug(String(message)),
  };
  const tasks: ScheduledTask[] = jobs.map((job) =>
    cron.schedule(
      job.schedule,
      async () => {
        const run = runJob(job, deps.logger);
        running.add(run);
        await run;
        running.delete(run);
      },
      // noOverlap: a run longer than the interval is not started again by this process.
      { name: job.name, timezone: 'UTC', noOverlap: true, logger: cronLogger },
    ),
  );
  deps.logger.info({ jobs: jobs.map((j) => `${j.name} (${j.schedule})`) }, 'jobs scheduled');
  return {
    jobs: () =>
      tasks.map((task, i) => {
        const status = task.getStatus();
        return { name: jobs[i]!.name, schedule: task.getPattern(), status, nextRunAt: status === 'destroyed' ? null : task.getNextRun() };
      }),
    async stop() {
      for (const task of tasks) await task.destroy();
      await Promise.all(running);
    },
  };
}
