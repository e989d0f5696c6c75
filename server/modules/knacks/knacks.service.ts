/**
 * Knacks (spec §4 Knack status, §9): a play past half a song or a view of an image by a signed-in member,
 * once per member per piece. On a paid-out piece it credits the piece's knack value through the ledger
 * (90% owner, 10% payer); on another it counts and earns nothing. After 9 knacks in 24 hours the member
 * proves they are a person with an emailed 4-digit code before the next.
 *
 * Counting a member's recent knacks and writing the next one is one step per member, in every process at once
 * (a lock in the database, lib/mutex.ts): checked apart, knacks sent together would all pass the count.
 */
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { Types } from 'mongoose';
import type { Mailer } from '../../integrations/mail';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { withLock } from '../../lib/mutex';
import { changeRatePercent, microsToUsd } from '../../lib/money';
import { ours } from '../../lib/query';
import { consumeLimit } from '../../lib/rate-limit';
import type { AuthContext } from '../auth';
import { canSee, ContentModel, withFinishedMedia, type ContentDoc } from '../contents';
import { recordReaction } from '../feeds/feeds.rankings';
import { TagModel } from '../tags';
import { UserModel } from '../users';
import { knackCodeMail } from './knacks.mails';
import { balanceOf, knackLegs, post, userAccount } from './ledger';
import { LedgerEntryModel, type LedgerEntryDoc } from './ledger.model';
import { knackKey, knackStatusOf } from './knacked';
import { KnackCodeModel, PlaySessionModel, type KnackCodeDoc, type PlaySessionDoc } from './plays.model';

export const KNACK_MESSAGES = {
  thanks: 'Thank you for being apart of our Community.',
  already: 'You have already knacked this piece.',
  own: 'This is your own piece: your plays and views of it do not earn knacks.',
  forSelf: 'You can only knack for yourself.',
  playFirst: 'Play the song first: a play counts once more than half of it has played.',
  notReady: 'This song is still being prepared. Please try again in a moment.',
  keepListening: 'Keep listening: a play counts once more than half of the song has played.',
  codeNeeded: 'You have knacked a lot today. Enter the 4-digit code we emailed you to go on.',
  invalidCode: 'Invalid verification code.',
  codeSent: 'We emailed you a 4-digit code. Enter it to go on knacking.',
  tooManyCodes: 'Too many codes asked. Please try again later.',
} as const;

/**
 * Knacks a member may make in the window before the emailed code is asked. The spec asks for the code when the
 * recent count "exceeds 9": counting the knack being made, the 10th would make it 10, so the 10th needs it.
 */
export const KNACKS_BEFORE_CODE = 9;
export const RECENT_WINDOW_MS = 24 * 3_600_000;
const CODE_TTL_MS = 15 * 60_000;
const CODE_ATTEMPTS = 5;
const CODE_REQUESTS = { max: 5, windowMs: 3_600_000 };
/** Holds a member's knacks one at a time: a few database steps, so a short wait is plenty even for a burst. */
const MEMBER_LOCK = { ttlMs: 15_000, waitMs: 10_000, busyMessage: 'Another knack of yours is still being recorded. Please try again.' };
const memberLock = <T>(userId: string, step: () => Promise<T>) => withLock(`knacks:${userId}`, step, MEMBER_LOCK);

/**
 * The same knack (member and piece) sent many times at once in this process: the first one does the work and
 * the others take its outcome as "already knacked", instead of each queueing for the member's lock only to
 * find the entry written. A crowd of retries then costs one lock, not one each.
 */
const knacksInFlight = new Map<string, Promise<{ entry: Pick<LedgerEntryDoc, 'legs'>; created: boolean }>>();
async function onceAtATime(key: string, record: () => Promise<{ entry: Pick<LedgerEntryDoc, 'legs'>; created: boolean }>) {
  const running = knacksInFlight.get(key);
  if (running) return { entry: (await running).entry, created: false };
  const mine = record().finally(() => knacksInFlight.delete(key));
  knacksInFlight.set(key, mine);
  return mine;
}
/** Spec §9 marketing copy: cash-out from $10. */
export const MIN_CASH_OUT_MICROS = 10_000_000;

/** What a knack entry credited in all (its platform leg, turned around). */
const creditedBy = (entry: Pick<LedgerEntryDoc, 'legs'>) => entry.legs.reduce((sum, leg) => sum + (leg.amountMicros > 0 ? leg.amountMicros : 0), 0);

export function createKnacksService({ mailer, secret }: { mailer: Mailer; secret: string }) {
  const hashCode = (userId: string, code: string) => createHmac('sha256', secret).update(`knack-code:${userId}:${code}`).digest();

  async function visibleContent(contentId: string, viewer: AuthContext): Promise<ContentDoc> {
    const content = await ContentModel.findById(contentId).lean<ContentDoc>();
    if (!content || !canSee(content, viewer)) throw notFound('Content not found');
    return content;
  }

  /** Knacks of the member since the window started or their last code, whichever is later (one read by key). */
  async function recentKnacks(userId: string, now: Date): Promise<number> {
    const window = await KnackCodeModel.findById(userId, { verifiedAt: 1, recentAt: 1 }).lean<KnackCodeDoc>();
    const since = Math.max(now.getTime() - RECENT_WINDOW_MS, window?.verifiedAt?.getTime() ?? 0);
    return (window?.recentAt ?? []).filter((at) => at.getTime() > since).length;
  }

  /** Notes a new knack in the member's window: the last KNACKS_BEFORE_CODE times are all the count needs. Under the member's lock. */
  async function noteRecentKnack(userId: string, now: Date): Promise<void> {
    const window = await KnackCodeModel.findById(userId, { recentAt: 1 }).lean<KnackCodeDoc>();
    const windowStart = now.getTime() - RECENT_WINDOW_MS;
    const recentAt = [...(window?.recentAt ?? []).filter((at) => at.getTime() > windowStart), now].slice(-KNACKS_BEFORE_CODE);
    await KnackCodeModel.updateOne({ _id: new Types.ObjectId(userId) }, { $set: { recentAt } }, { upsert: true });
  }

  /** Checks the emailed code; a right one starts a new count of recent knacks. Under the member's lock. */
  async function verifyCode(userId: string, code: string, now: Date): Promise<void> {
    // Counts the attempt before comparing, so that a wrong guess always uses one of the attempts.
    const stored = await KnackCodeModel.findOneAndUpdate(
      ours({ _id: new Types.ObjectId(userId), codeHash: { $ne: null }, expiresAt: { $gt: now }, attempts: { $lt: CODE_ATTEMPTS } }),
      { $inc: { attempts: 1 } },
      { new: true },
    ).lean<KnackCodeDoc>();
    const right = stored?.codeHash && timingSafeEqual(Buffer.from(stored.codeHash, 'hex'), hashCode(userId, code));
    if (!right) throw badRequest(KNACK_MESSAGES.invalidCode, [{ path: 'code', message: KNACK_MESSAGES.invalidCode }]);
    await KnackCodeModel.updateOne({ _id: stored._id, codeHash: stored.codeHash }, { $set: { codeHash: null, expiresAt: null, attempts: 0, verifiedAt: now } });
  }

  /** A song counts through a play session older than half of it (measured here, not told by the client). */
  async function checkPlay(content: ContentDoc, userId: string, playId: string | undefined, now: Date): Promise<void> {
    if (content.type !== 'music') return;
    const play = playId ? await PlaySessionModel.findOne({ _id: playId, userId: new Types.ObjectId(userId), contentId: content._id }).lean<PlaySessionDoc>() : null;
    if (!play) throw badRequest(KNACK_MESSAGES.playFirst, [{ path: 'playId', message: KNACK_MESSAGES.playFirst }]);
    if (now.getTime() - play.startedAt.getTime() < play.minMs) throw new AppError(409, 'conflict', KNACK_MESSAGES.keepListening);
  }

  function answer(content: ContentDoc, userId: string, entry: Pick<LedgerEntryDoc, 'legs'>, reactedCount: number, message: string) {
    const earnedMicros = creditedBy(entry);
    return { message, knackStatus: knackStatusOf(content, userId, true), reactedCount, earned: microsToUsd(earnedMicros), earnedMicros };
  }

  return {
    async startPlay(caller: AuthContext, contentId: string, now = new Date()) {
      // A large song's duration is known once the upload has decoded it, after the upload answered.
      const content = await withFinishedMedia(await visibleContent(contentId, caller));
      if (content.type === 'music' && content.media.status === 'processing') throw new AppError(409, 'conflict', KNACK_MESSAGES.notReady);
      if (content.type !== 'music' || !content.media.duration) throw badRequest('Only songs are played.');
      const minMs = Math.ceil((content.media.duration * 1000) / 2);
      const play = await PlaySessionModel.create({ _id: randomBytes(16).toString('hex'), userId: caller.userId, contentId: content._id, startedAt: now, minMs });
      return { playId: play._id, minSeconds: minMs / 1000 };
    },

    async add(caller: AuthContext, request: { contentId: string; userId: string; playId?: string; code?: string }, now = new Date()) {
      if (request.userId !== caller.userId) throw new AppError(403, 'forbidden', KNACK_MESSAGES.forSelf);
      const content = await visibleContent(request.contentId, caller);
      const userId = caller.userId;
      if (String(content.ownerId) === userId) return { message: KNACK_MESSAGES.own, knackStatus: 3 as const, reactedCount: content.reactedCount, earned: 0, earnedMicros: 0 };

      const key = knackKey(content._id, userId);
      const existing = await LedgerEntryModel.findById(key).lean<LedgerEntryDoc>();
      if (existing) return answer(content, userId, existing, content.reactedCount, KNACK_MESSAGES.already);

      await checkPlay(content, userId, request.playId, now);
      const { entry, created } = await onceAtATime(key, () => memberLock(userId, async () => {
        // The same knack sent twice at once: the first one wrote it while this one waited.
        const written = await LedgerEntryModel.findById(key).lean<LedgerEntryDoc>();
        if (written) return { entry: written, created: false };
        if ((await recentKnacks(userId, now)) >= KNACKS_BEFORE_CODE) {
          if (!request.code) throw new AppError(428, 'verification_required', KNACK_MESSAGES.codeNeeded);
          await verifyCode(userId, request.code, now);
        }
        const value = content.isPaidOut ? content.knackRateMicros : 0;
        const legs = knackLegs(value, String(content.ownerId), content.payerId ? String(content.payerId) : null);
        const posted = await post({ _id: key, kind: 'knack', at: now, actorId: new Types.ObjectId(userId), contentId: content._id, legs });
        if (posted.created) await noteRecentKnack(userId, now);
        return posted;
      }));
      if (!created) return answer(content, userId, entry, content.reactedCount, KNACK_MESSAGES.already);
      await recordReaction(content, now);
      if (request.playId) await PlaySessionModel.deleteOne({ _id: request.playId });
      return answer(content, userId, entry, content.reactedCount + 1, KNACK_MESSAGES.thanks);
    },

    async requestCode(caller: AuthContext, userId: string): Promise<{ message: string }> {
      if (userId !== caller.userId) throw new AppError(403, 'forbidden', KNACK_MESSAGES.forSelf);
      await consumeLimit(`knack-code:${userId}`, CODE_REQUESTS, KNACK_MESSAGES.tooManyCodes);
      const user = await UserModel.findById(userId, { email: 1, firstName: 1 }).lean();
      if (!user) throw notFound('This member does not exist.');
      const code = String(randomInt(0, 10_000)).padStart(4, '0');
      // The same document holds the knack count: written at once with a knack, one of the two writes would be lost.
      await memberLock(userId, () =>
        KnackCodeModel.updateOne(
          { _id: new Types.ObjectId(userId) },
          { $set: { codeHash: hashCode(userId, code).toString('hex'), expiresAt: new Date(Date.now() + CODE_TTL_MS), attempts: 0 } },
          { upsert: true },
        ),
      );
      await mailer.send(knackCodeMail(user.email, user.firstName ?? '', code));
      return { message: KNACK_MESSAGES.codeSent };
    },

    /** What one knack of a public piece is worth and what its knacks have credited so far. */
    async money(contentId: string) {
      const content = await ContentModel.findById(contentId).lean<ContentDoc>();
      if (!content || !canSee(content, undefined)) throw notFound('Content not found');
      const [entries, tag] = await Promise.all([
        LedgerEntryModel.find({ contentId: content._id }, { legs: 1 }).lean<Pick<LedgerEntryDoc, 'legs'>[]>(),
        TagModel.findOne({ label: content.subTag }, { priceMicros: 1, diffPriceMicros: 1 }).lean(),
      ]);
      const earnedMicros = entries.reduce((sum, entry) => sum + creditedBy(entry), 0);
      return {
        contentId: String(content._id),
        knackValue: microsToUsd(content.knackRateMicros),
        knackValueMicros: content.knackRateMicros,
        knackRate: tag ? changeRatePercent(tag.diffPriceMicros, tag.priceMicros) : 0,
        isPaidOut: content.isPaidOut,
        reactedCount: content.reactedCount,
        earned: microsToUsd(earnedMicros),
        earnedMicros,
      };
    },

    async available(caller: AuthContext, now = new Date()) {
      const [balanceMicros, recent] = await Promise.all([balanceOf(userAccount(caller.userId)), recentKnacks(caller.userId, now)]);
      return {
        balance: microsToUsd(balanceMicros),
        balanceMicros,
        canCashOut: balanceMicros >= MIN_CASH_OUT_MICROS,
        recentKnacks: recent,
        knacksBeforeCode: Math.max(0, KNACKS_BEFORE_CODE - recent),
      };
    },
  };
}

export type KnacksService = ReturnType<typeof createKnacksService>;
