/**
 * The mails the jobs send to members: the payout notice (a monthly payout or an approved cash-out the provider took),
 * the monthly statement (what each member earned in the month, piece by piece) and the weekly digest (the new pieces
 * of the artists a member follows). Each goes out at most once per member and period, whichever run or process
 * sends it: its key (`payout-notice:{sendId}`, `statement:{userId}:{yyyy-mm}`, `digest:{userId}:{isoWeek}`) is
 * inserted in `mail_sends` before the mail is sent, and the run whose insert fails on the key sends nothing. Each
 * mail carries a one-click unsubscribe for its kind, and a member who turned a kind off gets none of it.
 *
 * What the jobs read: the payout notices, the sends of the last week that were sent (`payout_sends` by `status,
 * sentAt`); the statement, every member a page at a time in `_id` order, and for each page that page's knack entries
 * of the month (ledger `accounts, at`); the digest, the week's new pieces (`contents` by `uploadedAt`), then every
 * member a page at a time and that page's follows of the week's artists. Memory holds one page and its figures.
 */
import { Types } from 'mongoose';
import type { Mailer, MailMessage } from '../../integrations/mail';
import { monthBefore, weekBefore } from '../../lib/calendar';
import { isDuplicateKey } from '../../lib/duplicate-key';
import type { Logger } from '../../lib/logger';
import { anyOf, insertWhole, ours } from '../../lib/query';
import { contentLink, contentReads, type ContentDoc } from '../contents';
import { followsAmong } from '../follows';
import { knackEarningsBetween, userAccount } from '../ledger';
import { setMailChoice, userReads, type UserDoc } from '../users';
import { payoutSendReads, type PayoutSendDoc } from '../wallet';
import { MAIL_KINDS, readUnsubscribeToken, unsubscribeUrl } from './mailings.links';
import { digestMail, payoutNoticeMail, statementMail, type DigestSection, type StatementRow } from './mailings.mails';
import { MailSendModel, type MailKind } from './mailings.model';

export interface MailingsDeps {
  mailer: Mailer;
  publicUrl: string;
  /** config.auth.keys.mailUnsubscribe: what the unsubscribe links are signed with. */
  unsubscribeKey: string;
  logger: Logger;
}

/** What one run of a mail job did. */
export interface MailRunSummary {
  /** Mails this run sent. */
  sent: number;
  /** Mails that could not be kept for sending (the next run tries them again); a mail server that is down is not this. */
  failed: number;
}

/** How far back the payout-notice job looks for sends it has not mailed (a notice older than this is not sent). */
export const PAYOUT_NOTICE_LOOKBACK_MS = 7 * 86_400_000;
/** Members read at a time by the monthly and weekly jobs. */
const MEMBERS_PAGE = 200;
/** A digest lists at most this many pieces of one artist (then how many more, and their page). */
const PIECES_PER_ARTIST = 5;

type Member = Pick<
  UserDoc,
  '_id' | 'email' | 'firstName' | 'isActive' | 'deactivatedAt' | 'willReceiveNews' | 'willReceiveDigest' | 'willReceiveStatements' | 'willReceivePayoutNotices'
>;
const MEMBER_FIELDS = {
  email: 1,
  firstName: 1,
  isActive: 1,
  deactivatedAt: 1,
  willReceiveNews: 1,
  willReceiveDigest: 1,
  willReceiveStatements: 1,
  willReceivePayoutNotices: 1,
} as const;

/** A member the periodic mails may go to: an account in use (not waiting for activation, deactivated or closed). */
const inUse = (member: Member) => member.isActive && !member.deactivatedAt;

type Outcome = 'sent' | 'taken' | 'skipped';

export function createMailingsService({ mailer, publicUrl, unsubscribeKey, logger }: MailingsDeps) {
  const log = logger.child({ module: 'mailings' });
  const linkFor = (kind: MailKind, userId: string) => unsubscribeUrl(unsubscribeKey, publicUrl, kind, userId);

  /**
   * Sends `mail` once under `key`: the insert of the key is the claim (of two callers, in any processes, one gets
   * it), then the mail goes out, through the outbox, which keeps it until the mail server takes it. If it cannot even
   * be kept, the claim is given back for the next run.
   */
  async function sendOnce(key: string, kind: MailKind, userId: Types.ObjectId, mail: MailMessage): Promise<Outcome> {
    try {
      await insertWhole(MailSendModel, { _id: key, kind, userId, status: 'sending', at: new Date() });
    } catch (err) {
      if (isDuplicateKey(err)) return 'taken';
      throw err;
    }
    try {
      await mailer.send(mail);
    } catch (err) {
      await MailSendModel.deleteOne({ _id: key, status: 'sending' });
      throw err;
    }
    await MailSendModel.updateOne({ _id: key }, { $set: { status: 'sent' } });
    return 'sent';
  }

  /** Records that a member who turned this kind of mail off is not sent it (once, like a mail). */
  async function skip(key: string, kind: MailKind, userId: Types.ObjectId): Promise<Outcome> {
    try {
      await insertWhole(MailSendModel, { _id: key, kind, userId, status: 'skipped', at: new Date() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    return 'skipped';
  }

  const alreadyClaimed = async (key: string) => Boolean(await MailSendModel.exists({ _id: key }));

  /** Every member, a page at a time in `_id` order, so that a run holds one page whatever the number of members. */
  async function* memberPages(pageSize: number): AsyncGenerator<Member[]> {
    let after: Types.ObjectId | null = null;
    for (;;) {
      const filter: Record<string, unknown> = after ? ours({ _id: { $gt: after } }) : {};
      const page: Member[] = await userReads.many<Member>(filter, { projection: MEMBER_FIELDS, sort: { _id: 1 }, limit: pageSize });
      if (!page.length) return;
      yield page;
      if (page.length < pageSize) return;
      after = page[page.length - 1]!._id;
    }
  }

  /** Sends one member's mail, counting it in the run's summary; a failure is logged and left for the next run. */
  async function counted(summary: MailRunSummary, what: Record<string, unknown>, send: () => Promise<Outcome>): Promise<void> {
    try {
      if ((await send()) === 'sent') summary.sent += 1;
    } catch (err) {
      summary.failed += 1;
      log.warn({ err, ...what }, 'mail not sent; the next run tries again');
    }
  }

  /**
   * The notice of one payout send, once it is sent: the one way a payout or cash-out is mailed, called as soon as
   * the provider takes it and by the job for any it missed. Nothing for a send not sent yet.
   */
  async function payoutSent(send: PayoutSendDoc): Promise<Outcome | 'not-sent'> {
    if (send.status !== 'sent') return 'not-sent';
    const key = `payout-notice:${send._id}`;
    if (await alreadyClaimed(key)) return 'taken';
    const member = await userReads.byId<Member>(send.userId, MEMBER_FIELDS);
    if (!member) return 'skipped';
    if (member.willReceivePayoutNotices === false) return skip(key, 'payout-notice', send.userId);
    const mail = payoutNoticeMail(member, send, publicUrl, linkFor('payout-notice', String(send.userId)));
    return sendOnce(key, 'payout-notice', send.userId, mail);
  }

  return {
    payoutSent,

    /** Job: the notices of the sends of the last week that were sent and not mailed yet (a process stopped, SMTP failed). */
    async sendPayoutNotices(now = new Date()): Promise<MailRunSummary> {
      const summary: MailRunSummary = { sent: 0, failed: 0 };
      const sends = await payoutSendReads.many<PayoutSendDoc>(ours({ status: 'sent', sentAt: { $gte: new Date(now.getTime() - PAYOUT_NOTICE_LOOKBACK_MS) } }));
      for (const send of sends)
        await counted(summary, { payoutId: send._id }, () => payoutSent(send).then((outcome) => (outcome === 'not-sent' ? 'skipped' : outcome)));
      return summary;
    },

    /**
     * Job (the 1st of each month, UTC): each member who earned something in the month before gets their knacks,
     * gross and share of each piece, from the ledger.
     */
    async sendMonthlyStatements(now = new Date(), { pageSize = MEMBERS_PAGE }: { pageSize?: number } = {}): Promise<MailRunSummary> {
      const { month, from, to } = monthBefore(now);
      const summary: MailRunSummary = { sent: 0, failed: 0 };
      for await (const page of memberPages(pageSize)) {
        const members = page.filter((member) => inUse(member) && member.willReceiveStatements !== false);
        const earnings = await knackEarningsBetween(
          members.map((member) => userAccount(member._id)),
          from,
          to,
        );
        const pieceIds = [...new Set([...earnings.values()].flatMap((pieces) => [...pieces.keys()]))].filter((id) => Types.ObjectId.isValid(id));
        const titles = new Map(
          (pieceIds.length
            ? await contentReads.many<Pick<ContentDoc, '_id' | 'title'>>(
                { _id: anyOf(pieceIds.map((id) => new Types.ObjectId(id))) },
                { projection: { title: 1 } },
              )
            : []
          ).map((piece) => [String(piece._id), piece.title]),
        );
        for (const member of members) {
          const pieces = earnings.get(userAccount(member._id));
          if (!pieces?.size) continue;
          const key = `statement:${String(member._id)}:${month}`;
          if (await alreadyClaimed(key)) continue;
          const rows: StatementRow[] = [...pieces]
            .map(([id, figures]) => ({ title: titles.get(id) ?? 'A removed piece', ...figures }))
            .sort((a, b) => b.shareMicros - a.shareMicros || a.title.localeCompare(b.title));
          const mail = statementMail(member, month, rows, publicUrl, linkFor('statement', String(member._id)));
          await counted(summary, { key }, () => sendOnce(key, 'statement', member._id, mail));
        }
      }
      log.info({ month, ...summary }, 'monthly statements done');
      return summary;
    },

    /**
     * Job (Mondays, UTC): each member with news mail and the digest on gets the pieces the artists they follow
     * published in the ISO week before, those a follower may see (public or shown to followers, not held or taken
     * down). Nothing new, no mail.
     */
    async sendWeeklyDigests(now = new Date(), { pageSize = MEMBERS_PAGE }: { pageSize?: number } = {}): Promise<MailRunSummary> {
      const { week, from, to } = weekBefore(now);
      const summary: MailRunSummary = { sent: 0, failed: 0 };
      type Fresh = Pick<ContentDoc, '_id' | 'ownerId' | 'ownerUsername' | 'ownerName' | 'title' | 'slug' | 'type' | 'setting' | 'isHide' | 'takenDown'>;
      const fresh = await contentReads.many<Fresh>(ours({ uploadedAt: { $gte: from, $lt: to } }), {
        projection: { ownerId: 1, ownerUsername: 1, ownerName: 1, title: 1, slug: 1, type: 1, setting: 1, isHide: 1, takenDown: 1, uploadedAt: 1 },
        sort: { uploadedAt: 1 },
      });
      const byArtist = new Map<string, Fresh[]>();
      for (const piece of fresh.filter((p) => !p.takenDown && !p.isHide && (p.setting.public || p.setting.followers))) {
        byArtist.set(String(piece.ownerId), [...(byArtist.get(String(piece.ownerId)) ?? []), piece]);
      }
      if (!byArtist.size) return summary;
      const artists = [...byArtist.keys()].map((id) => new Types.ObjectId(id));
      for await (const page of memberPages(pageSize)) {
        const members = page.filter((member) => inUse(member) && member.willReceiveNews !== false && member.willReceiveDigest !== false);
        const follows = await followsAmong(
          members.map((member) => member._id),
          artists,
        );
        for (const member of members) {
          const followed = follows.get(String(member._id));
          if (!followed?.length) continue;
          const key = `digest:${String(member._id)}:${week}`;
          if (await alreadyClaimed(key)) continue;
          const sections: DigestSection[] = followed.map((artistId) => {
            const pieces = byArtist.get(artistId)!;
            const first = pieces[0]!;
            return {
              artist: first.ownerName || first.ownerUsername,
              profileUrl: `${publicUrl}/${first.ownerUsername}`,
              pieces: pieces.slice(0, PIECES_PER_ARTIST).map((piece) => ({ title: piece.title, type: piece.type, url: `${publicUrl}${contentLink(piece)}` })),
              more: Math.max(0, pieces.length - PIECES_PER_ARTIST),
            };
          });
          const mail = digestMail(member, sections, publicUrl, linkFor('digest', String(member._id)));
          await counted(summary, { key }, () => sendOnce(key, 'digest', member._id, mail));
        }
      }
      log.info({ week, ...summary }, 'weekly digests done');
      return summary;
    },

    /** The kind and the member's address a token names, for the link's page; null when the server did not sign it. */
    async readUnsubscribe(token: string): Promise<{ kind: MailKind; email: string } | null> {
      const named = readUnsubscribeToken(unsubscribeKey, token);
      if (!named || !Types.ObjectId.isValid(named.userId)) return null;
      const member = await userReads.byId<Pick<UserDoc, 'email'>>(new Types.ObjectId(named.userId), { email: 1 });
      return member ? { kind: named.kind, email: member.email } : null;
    },

    /** Turns off the kind of mail a token names for its member (safe to repeat); null when the server did not sign it. */
    async unsubscribe(token: string): Promise<{ kind: MailKind } | null> {
      const named = readUnsubscribeToken(unsubscribeKey, token);
      if (!named || !(await setMailChoice(named.userId, MAIL_KINDS[named.kind].choice, false))) return null;
      return { kind: named.kind };
    },
  };
}

export type MailingsService = ReturnType<typeof createMailingsService>;
