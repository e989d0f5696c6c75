/**
 * The durable outbox: every mail Knack sends is written to `mail_outbox` first, then handed to the mail server at
 * once, so a request that sends mail takes as long as it always did. When the mail server refuses it or cannot be
 * reached, the mail stays, and the mail-outbox job tries it again later (mail-outbox.backoff.ts says when), until it
 * is delivered or given up on after three days. The caller is told the mail is on its way as soon as it is kept.
 *
 * Delivered once, as far as a mail server allows: each attempt is claimed by inserting `{mailId}:{n}` into
 * `mail_outbox_attempts` (the only exclusive step on FerretDB), so of the processes and runs that see a mail due, one
 * sends it. One window remains: a process that stops after the mail server accepted the mail but before it recorded
 * that leaves the attempt `sending`; after ATTEMPT_ABANDONED_MS it is tried again, and the mail may arrive twice,
 * both copies under the same Message-ID (at least once, never lost).
 */
import { randomBytes } from 'node:crypto';
import type { Mailer, MailMessage } from '../../integrations/mail';
import { isDuplicateKey } from '../../lib/duplicate-key';
import type { Logger } from '../../lib/logger';
import { insertWhole, ours } from '../../lib/query';
import { givenUp, retryDelayMs } from './mail-outbox.backoff';
import { attemptKey, OutboxAttemptModel, OutboxMailModel, type OutboxAttemptDoc, type OutboxMailDoc } from './mail-outbox.model';

/** An attempt still `sending` after this was stopped mid-way (an SMTP send gives up well within it: smtp.driver.ts). */
export const ATTEMPT_ABANDONED_MS = 15 * 60_000;
/** The attempts' records (ids, times and outcomes, no address or body) are kept a week, to answer "was it sent?". */
export const ATTEMPTS_KEPT_MS = 7 * 86_400_000;
/** A mail given up on is listed (address and subject, its body emptied) for 30 days, then removed. */
export const FAILED_KEPT_MS = 30 * 86_400_000;
/** The most due mails one run of the job tries. */
const DUE_PER_RUN = 500;
/** A run stops after this many failures in a row: the mail server is down, and the rest wait for the next run. */
const FAILURES_IN_A_ROW_TO_STOP = 5;

export interface MailOutboxDeps {
  /** The driver that really delivers (SMTP, or the embedded outbox folder). */
  transport: Mailer;
  logger: Logger;
  /** The host part of each mail's Message-ID: the site's own host name. */
  messageIdHost: string;
}

/** What one run of the retry job did. */
export interface OutboxRunSummary {
  /** Mails the mail server accepted. */
  sent: number;
  /** Attempts that failed; those mails wait for their next attempt. */
  failed: number;
  /** Mails given up on in this run. */
  givenUp: number;
  /** Mails whose attempt another process or run holds. */
  busy: number;
  /** Due mails this run left for the next, after FAILURES_IN_A_ROW_TO_STOP failures in a row. */
  left: number;
}

type AttemptOutcome = 'sent' | 'failed' | 'given-up' | 'busy';

/** The mail server's answer or the connection's error, short: never anything of the mail's body. */
function reasonOf(err: unknown): string {
  const { message, code, responseCode } = (err ?? {}) as { message?: string; code?: string; responseCode?: number };
  const text = [responseCode, code, message].filter((part) => part !== undefined && part !== '').join(' ');
  return (text || 'unknown error').slice(0, 300);
}

const messageOf = (mail: OutboxMailDoc): MailMessage => ({
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  messageId: mail.messageId,
  ...(mail.list && { list: mail.list }),
  ...(mail.headers && { headers: mail.headers }),
});

export function createMailOutbox({ transport, logger, messageIdHost }: MailOutboxDeps) {
  const log = logger.child({ module: 'mail-outbox' });

  async function keep(message: MailMessage, now: Date): Promise<OutboxMailDoc> {
    const id = randomBytes(12).toString('hex');
    const mail: OutboxMailDoc = {
      _id: id,
      messageId: `<${id}@${messageIdHost}>`,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.list && { list: message.list }),
      ...(message.headers && { headers: message.headers }),
      state: 'waiting',
      attempts: 0,
      // Due at once: if this process stops before its first attempt, the job's next run sends it.
      nextAttemptAt: now,
      createdAt: now,
      lastError: null,
      failedAt: null,
    };
    await insertWhole(OutboxMailModel, mail);
    return mail;
  }

  /** Claims attempt `n` of `mail`: true for the one caller whose insert succeeds. */
  async function claim(mail: OutboxMailDoc, n: number, now: Date): Promise<boolean> {
    const attempt: OutboxAttemptDoc = { _id: attemptKey(mail._id, n), mailId: mail._id, messageId: mail.messageId, outcome: 'sending', at: now, endedAt: null };
    try {
      await insertWhole(OutboxAttemptModel, attempt);
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async function recordFailure(mail: OutboxMailDoc, n: number, err: unknown): Promise<AttemptOutcome> {
    const now = new Date();
    const failures = n + 1;
    const reason = reasonOf(err);
    let outcome: AttemptOutcome;
    if (givenUp(mail.createdAt, now)) {
      await OutboxMailModel.updateOne(
        { _id: mail._id },
        { $set: { state: 'failed', attempts: failures, lastError: reason, failedAt: now, text: '', html: '' }, $unset: { list: 1, headers: 1 } },
      );
      log.error({ mailId: mail._id, attempts: failures, error: reason }, 'mail given up on: the mail server did not take it in three days');
      outcome = 'given-up';
    } else {
      const nextAttemptAt = new Date(now.getTime() + retryDelayMs(failures));
      await OutboxMailModel.updateOne({ _id: mail._id }, { $set: { attempts: failures, nextAttemptAt, lastError: reason } });
      log.warn({ mailId: mail._id, attempt: n, nextAttemptAt, error: reason }, 'mail not delivered; kept to be tried again');
      outcome = 'failed';
    }
    await OutboxAttemptModel.updateOne({ _id: attemptKey(mail._id, n) }, { $set: { outcome: 'failed', endedAt: now } });
    return outcome;
  }

  /**
   * Attempt `n` of the mail was claimed before: by a process sending it now (nothing to do), one that finished (a
   * delivered mail left behind by a stop is removed), or one that stopped mid-way, whose attempt is taken over as the
   * next one.
   */
  async function settleClaimed(mail: OutboxMailDoc, n: number, now: Date): Promise<AttemptOutcome> {
    const earlier = await OutboxAttemptModel.findById(attemptKey(mail._id, n)).lean<OutboxAttemptDoc>();
    if (earlier?.outcome === 'sent') {
      await OutboxMailModel.deleteOne({ _id: mail._id });
      return 'busy';
    }
    if (earlier?.outcome !== 'sending' || now.getTime() - earlier.at.getTime() < ATTEMPT_ABANDONED_MS) return 'busy';
    // Whether the mail server took the mail is unknown: it is sent again under the same Message-ID.
    log.warn({ mailId: mail._id, attempt: n }, 'mail attempt abandoned by a stopped process; trying again');
    await OutboxMailModel.updateOne({ _id: mail._id, attempts: n }, { $set: { attempts: n + 1 } });
    return attempt({ ...mail, attempts: n + 1 }, now);
  }

  /** One attempt at delivering `mail`, under its claim. */
  async function attempt(mail: OutboxMailDoc, now = new Date()): Promise<AttemptOutcome> {
    const n = mail.attempts;
    if (!(await claim(mail, n, now))) return settleClaimed(mail, n, now);
    try {
      await transport.send(messageOf(mail));
    } catch (err) {
      return recordFailure(mail, n, err);
    }
    await OutboxAttemptModel.updateOne({ _id: attemptKey(mail._id, n) }, { $set: { outcome: 'sent', endedAt: new Date() } });
    await OutboxMailModel.deleteOne({ _id: mail._id });
    return 'sent';
  }

  /**
   * The Mailer the modules send through: resolves once the mail is kept and its first attempt is over, delivered or
   * not; rejects only when the mail could not be kept (the database refused it), which is when it would be lost.
   */
  const mailer: Mailer = {
    kind: transport.kind,
    ...(transport.outboxDir !== undefined && { outboxDir: transport.outboxDir }),
    async send(message: MailMessage): Promise<void> {
      const mail = await keep(message, new Date());
      try {
        await attempt(mail);
      } catch (err) {
        // The mail is kept: the job's next run tries it (an attempt left `sending` is taken over once abandoned).
        log.error({ err, mailId: mail._id }, 'mail kept, but its first attempt could not be recorded');
      }
    },
  };

  return {
    mailer,

    /** Job (every minute): tries each waiting mail whose time has come, oldest due first. */
    async deliverDue(now = new Date()): Promise<OutboxRunSummary> {
      const summary: OutboxRunSummary = { sent: 0, failed: 0, givenUp: 0, busy: 0, left: 0 };
      const due = await OutboxMailModel.find(ours({ state: 'waiting', nextAttemptAt: { $lte: now } }))
        .sort({ nextAttemptAt: 1, _id: 1 })
        .limit(DUE_PER_RUN)
        .lean<OutboxMailDoc[]>();
      let failuresInARow = 0;
      for (const [index, mail] of due.entries()) {
        if (failuresInARow >= FAILURES_IN_A_ROW_TO_STOP) {
          summary.left = due.length - index;
          break;
        }
        const outcome = await attempt(mail);
        if (outcome === 'sent') summary.sent += 1;
        else if (outcome === 'failed') summary.failed += 1;
        else if (outcome === 'given-up') summary.givenUp += 1;
        else summary.busy += 1;
        if (outcome === 'failed' || outcome === 'given-up') failuresInARow += 1;
        else if (outcome === 'sent') failuresInARow = 0;
      }
      return summary;
    },
  };
}

export type MailOutbox = ReturnType<typeof createMailOutbox>;

/** The outbox at a glance, for admins: mails waiting (and since when the oldest), and mails given up on. */
export async function mailOutboxCounts(): Promise<{ waiting: number; failed: number; oldestWaitingSince: Date | null }> {
  const mails = await OutboxMailModel.find({}, { state: 1, createdAt: 1 }).lean<Pick<OutboxMailDoc, 'state' | 'createdAt'>[]>();
  const waiting = mails.filter((mail) => mail.state === 'waiting');
  const oldest = waiting.reduce<Date | null>((first, mail) => (!first || mail.createdAt < first ? mail.createdAt : first), null);
  return { waiting: waiting.length, failed: mails.length - waiting.length, oldestWaitingSince: oldest };
}

/** Housekeeping: attempts' records past ATTEMPTS_KEPT_MS, and mails given up on past FAILED_KEPT_MS. */
export async function purgeMailOutbox(now = new Date()): Promise<number> {
  const [attempts, failed] = await Promise.all([
    OutboxAttemptModel.deleteMany(ours({ at: { $lt: new Date(now.getTime() - ATTEMPTS_KEPT_MS) } })),
    OutboxMailModel.deleteMany(ours({ state: 'failed', failedAt: { $lt: new Date(now.getTime() - FAILED_KEPT_MS) } })),
  ]);
  return attempts.deletedCount + failed.deletedCount;
}
