/**
 * Knacks: a play past half a song or a view of an image by a signed-in member, once per member per piece. On
 * a paid-out piece it credits the piece's knack value through the ledger (90% owner, 10% payer); on another
 * it counts and earns nothing. After 9 knacks in 24 hours the member proves they are a person with an emailed
 * 4-digit code before the next.
 *
 * Each knack is first counted in the member's knack window (knack-window.ts: an insert that holds across
 * processes), then written to the ledger under its unique key, so that neither a burst nor a twin sent to another
 * process gets past the count or pays twice.
 */
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import mongoose, { Types } from 'mongoose';
import type { Mailer } from '../../integrations/mail';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import { inTurn } from '../../lib/in-turn';
import { createSingleFlight } from '../../lib/single-flight';
import { isDuplicateKey, retryLostUpsert } from '../../lib/duplicate-key';
import { changeRatePercent, microsToUsd } from '../../lib/money';
import { consumeLimit } from '../../lib/rate-limit';
import type { AuthContext } from '../../lib/auth-context';
import { canView, recordReaction, shownCount, withFinishedMedia, type ContentDoc, contentReads } from '../contents';
import { tagsService } from '../tags';
import { userReads } from '../users';
import { knackCodeMail } from './knacks.mails';
import {
  balanceOf,
  creditedBy,
  entryById,
  knackEarningsOf,
  knackKey,
  knackLegs,
  knackStatusOf,
  post,
  userAccount,
  type KnackStatus,
  type LedgerEntryDoc,
} from '../ledger';
import { countKnack, KNACKS_BEFORE_CODE, purgeOldWindows, recentKnacks } from './knack-window';
import { KnackCodeAttemptModel, KnackCodeModel, PlaySessionModel, type KnackCodeDoc, type PlaySessionDoc } from './plays.model';

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

const CODE_TTL_MS = 15 * 60_000;
const CODE_ATTEMPTS = 5;
const CODE_REQUESTS = { max: 5, windowMs: 3_600_000 };
type KnackAnswer = { message: string; knackStatus: KnackStatus; reactedCount: number | null; earned: number; earnedMicros: number };
/** A knack asked for: the piece, the play session of a song, the emailed code when asked, and the framing site (lib/embed-host.ts). */
type KnackRequest = { contentId: string; playId?: string; code?: string; embedHost?: string | null };

/**
 * The same knack request (member, piece, play and code) sent many times at once in this process: the first
 * one does the work and the others take its outcome, a thank-you turned into "already knacked", instead of
 * each reading the database and queueing for the member's lock only to find the entry written. A crowd of
 * retries then costs one knack, not one each. Across processes the ledger's unique key decides.
 */
const knacksInFlight = createSingleFlight<KnackAnswer>();
async function onceAtATime(key: string, knack: () => Promise<KnackAnswer>): Promise<KnackAnswer> {
  const { result, joined } = knacksInFlight.run(key, knack);
  if (!joined) return result;
  const first = await result;
  return first.message === KNACK_MESSAGES.thanks ? { ...first, message: KNACK_MESSAGES.already } : first;
}

/** What a knack reads of its piece. */
const KNACK_FIELDS = { ownerId: 1, payerId: 1, isPaidOut: 1, reactedCount: 1, radarScore: 1, setting: 1, takenDown: 1, type: 1, subTag: 1, tags: 1 } as const;
/**
 * Reactions by `count` people who are not members (demo data, browser tests): each a knack entry worth
 * nothing, from an id no member has, so that the rankings job, which recounts reactions from the ledger,
 * keeps them. For pieces not paid out (a knack of a paid-out piece credits its owner).
 */
export async function addOutsideReactions(content: Pick<ContentDoc, '_id' | 'ownerId' | 'radarScore'>, count: number, at = new Date()): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const actorId = new Types.ObjectId();
    await post({ _id: knackKey(content._id, actorId), kind: 'knack', at, actorId, contentId: content._id, legs: [] });
  }
  await recordReaction(content, count);
}

/** Play sessions and code attempts are read for at most a few hours (half of the longest song, a code's life). */
const PLAY_AND_ATTEMPT_KEPT_MS = 24 * 3_600_000;

/**
 * Deletes what knacks no longer read (the housekeeping job): window versions of past days, play sessions
 * never used, and the attempts of codes long expired. Answers how many documents it deleted.
 */
export async function purgeStaleKnackRecords(now = new Date()): Promise<number> {
  const before = mongoose.trusted({ $lt: new Date(now.getTime() - PLAY_AND_ATTEMPT_KEPT_MS) });
  const [windows, plays, attempts] = await Promise.all([
    purgeOldWindows(now),
    PlaySessionModel.deleteMany({ startedAt: before }),
    KnackCodeAttemptModel.deleteMany({ at: before }),
  ]);
  return windows + plays.deletedCount + attempts.deletedCount;
}

/** A member can cash out from a balance of $10. */
export const MIN_CASH_OUT_MICROS = 10_000_000;

export function createKnacksService({ mailer, secret }: { mailer: Mailer; secret: string }) {
  const hashCode = (userId: string, code: string) => createHmac('sha256', secret).update(`knack-code:${userId}:${code}`).digest();

  async function visibleContent(contentId: string, viewer: AuthContext, fields?: Record<string, 1>): Promise<ContentDoc> {
    const content = await contentReads.byId<ContentDoc>(contentId, fields);
    if (!content || !(await canView(content, viewer))) throw notFound('Content not found');
    return content;
  }

  /** Takes the next of the code's attempts (an insert, see KnackCodeAttemptModel); false when all are used. */
  async function takeAttempt(userId: string, codeId: string, now: Date): Promise<boolean> {
    for (let n = 1; n <= CODE_ATTEMPTS; n += 1) {
      try {
        await KnackCodeAttemptModel.create({ _id: `attempt:${userId}:${codeId}:${n}`, at: now });
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
    return false;
  }

  /** Checks the emailed code (read only now: a knack at the limit is rare); a right one is used up. */
  async function verifyCode(userId: string, code: string, now: Date): Promise<void> {
    const invalid = () => badRequest(KNACK_MESSAGES.invalidCode, [{ path: 'code', message: KNACK_MESSAGES.invalidCode }]);
    const sent = await KnackCodeModel.findById(userId).lean<KnackCodeDoc>();
    if (!sent?.codeHash || !sent.codeId || !sent.expiresAt || sent.expiresAt <= now) throw invalid();
    // The attempt is used before comparing, so that a wrong guess always costs one of the 5.
    if (!(await takeAttempt(userId, sent.codeId, now))) throw invalid();
    if (!timingSafeEqual(Buffer.from(sent.codeHash, 'hex'), hashCode(userId, code))) throw invalid();
    await KnackCodeModel.updateOne({ _id: new Types.ObjectId(userId) }, { $set: { codeHash: null, codeId: null, expiresAt: null } });
  }

  /** A song counts through a play session older than half of it (measured here, not told by the client). */
  async function checkPlay(content: ContentDoc, userId: string, playId: string | undefined, now: Date): Promise<void> {
    if (content.type !== 'music') return;
    // Read by `_id` alone and checked here: a filter with more fields scans the collection on FerretDB.
    const found = playId ? await PlaySessionModel.findById(playId).lean<PlaySessionDoc>() : null;
    const play = found && String(found.userId) === userId && String(found.contentId) === String(content._id) ? found : null;
    if (!play) throw badRequest(KNACK_MESSAGES.playFirst, [{ path: 'playId', message: KNACK_MESSAGES.playFirst }]);
    if (now.getTime() - play.startedAt.getTime() < play.minMs) throw new AppError(409, 'conflict', KNACK_MESSAGES.keepListening);
  }

  /** What the knacker is told: the piece's count too, unless its owner hides it. */
  function answer(content: ContentDoc, caller: AuthContext, entry: Pick<LedgerEntryDoc, 'legs'>, reactedCount: number, message: string): KnackAnswer {
    const earnedMicros = creditedBy(entry);
    const knackStatus = knackStatusOf(content, caller.userId, true);
    return { message, knackStatus, reactedCount: shownCount(content, caller, reactedCount), earned: microsToUsd(earnedMicros), earnedMicros };
  }

  /**
   * One knack (see add): counted in the member's window, written to the ledger (with the site whose page framed the
   * embeddable player, when it was made there), then the piece's kept totals bumped.
   */
  async function knack(caller: AuthContext, request: KnackRequest, now: Date): Promise<KnackAnswer> {
    const userId = caller.userId;
    const key = knackKey(request.contentId, userId);
    // A repeat is told by one read by key, beside the piece's, before it is counted. Both go straight through the
    // driver (lib/query.ts): the knack path is the busiest write path there is. Knacks of one piece that arrive
    // together share its read: what they need of it (owner, payer, value, who may see it) is set by the owner's
    // calls, which a read already in flight may miss whether it is shared or not.
    const [content, existing] = await Promise.all([contentReads.byIdShared<ContentDoc>(new Types.ObjectId(request.contentId), KNACK_FIELDS), entryById(key)]);
    if (!content || !(await canView(content, caller))) throw notFound('Content not found');
    if (String(content.ownerId) === userId)
      return { message: KNACK_MESSAGES.own, knackStatus: 3, reactedCount: content.reactedCount, earned: 0, earnedMicros: 0 };
    if (existing) return answer(content, caller, existing, content.reactedCount, KNACK_MESSAGES.already);

    await checkPlay(content, userId, request.playId, now);
    let twin: LedgerEntryDoc | null = null;
    // In turn per member within this process, only so that a burst of one member's knacks does not keep finding
    // its next window version taken by another of them; across processes the window's inserts decide.
    const counted = await inTurn(`knack-window:${userId}`, () =>
      countKnack(userId, now, async () => {
        // The same knack sent at once to another process may have been written meanwhile: it needs no code.
        twin = await entryById(key);
        if (twin) return false;
        if (!request.code) throw new AppError(428, 'verification_required', KNACK_MESSAGES.codeNeeded);
        await verifyCode(userId, request.code, now);
        return true;
      }),
    );
    if (!counted && twin) return answer(content, caller, twin, content.reactedCount, KNACK_MESSAGES.already);
    faultPoint(FAULT_POINTS.knackAfterWindow);

    // The value of the tag's price in force at the knack's time (the tag market moves it daily, tags.service.ts); the
    // entry keeps it and its tag, and a later price never changes it.
    const price = await tagsService.knackPriceNow(content, now);
    const value = content.isPaidOut ? price.knackMicros : 0;
    const legs = knackLegs(value, String(content.ownerId), content.payerId ? String(content.payerId) : null);
    // A twin that got here first makes this insert fail on the unique key: nothing is written, and the window
    // keeps the count (one too many for a day, never one too few).
    const { entry, created } = await post({
      _id: key,
      kind: 'knack',
      at: now,
      actorId: new Types.ObjectId(userId),
      contentId: content._id,
      legs,
      tagId: price.tagId,
      ...(request.embedHost ? { embedHost: request.embedHost } : {}),
    });
    if (!created) return answer(content, caller, entry, content.reactedCount, KNACK_MESSAGES.already);
    faultPoint(FAULT_POINTS.knackAfterLedger);
    await recordReaction(content);
    if (request.playId) await PlaySessionModel.deleteOne({ _id: request.playId });
    return answer(content, caller, entry, content.reactedCount + 1, KNACK_MESSAGES.thanks);
  }

  return {
    async startPlay(caller: AuthContext, contentId: string, now = new Date()) {
      // A large song's duration is known once the upload has decoded it, after the upload answered.
      const content = await withFinishedMedia(await visibleContent(contentId, caller));
      if (content.type === 'music' && content.media.status === 'processing') throw new AppError(409, 'conflict', KNACK_MESSAGES.notReady);
      if (content.type !== 'music' || !content.media.duration) throw badRequest('Only songs are played.');
      const minMs = Math.ceil((content.media.duration * 1000) / 2);
      const play = await PlaySessionModel.create({
        _id: randomBytes(16).toString('hex'),
        userId: caller.userId,
        contentId: content._id,
        startedAt: now,
        minMs,
      });
      return { playId: play._id, minSeconds: minMs / 1000 };
    },

    async add(caller: AuthContext, request: KnackRequest & { userId: string }, now = new Date()): Promise<KnackAnswer> {
      if (request.userId !== caller.userId) throw new AppError(403, 'forbidden', KNACK_MESSAGES.forSelf);
      // Ids arrive lower-cased (lib/canonical-ids.ts), so the ledger key is one per piece and member.
      const same = `${caller.userId}:${request.contentId}:${request.playId ?? ''}:${request.code ?? ''}`;
      return onceAtATime(same, () => knack(caller, request, now));
    },

    async requestCode(caller: AuthContext, userId: string): Promise<{ message: string }> {
      if (userId !== caller.userId) throw new AppError(403, 'forbidden', KNACK_MESSAGES.forSelf);
      await consumeLimit(`knack-code:${userId}`, CODE_REQUESTS, KNACK_MESSAGES.tooManyCodes);
      const user = await userReads.byId(userId, { email: 1, firstName: 1 });
      if (!user) throw notFound('This member does not exist.');
      const code = String(randomInt(0, 10_000)).padStart(4, '0');
      const sent = {
        codeHash: hashCode(userId, code).toString('hex'),
        codeId: randomBytes(9).toString('base64url'),
        expiresAt: new Date(Date.now() + CODE_TTL_MS),
      };
      // Two first codes of a member asked at once both try to create the document: the later one saves into it.
      await retryLostUpsert(() => KnackCodeModel.updateOne({ _id: new Types.ObjectId(userId) }, { $set: sent }, { upsert: true }));
      await mailer.send(knackCodeMail(user.email, user.firstName ?? '', code));
      return { message: KNACK_MESSAGES.codeSent };
    },

    /**
     * What one knack of a piece is worth and what its knacks have credited so far, for whoever may see the piece
     * (its followers too, when the owner shows it to them). Both the count and the earnings (the count times the
     * knack value) are as `reader` may see them: when the owner hides the count, only they and admins see it, and
     * the earnings also the supporter who paid the listing fee (10% are theirs).
     */
    async money(contentId: string, reader: AuthContext | undefined) {
      const content = await contentReads.byId<ContentDoc>(contentId);
      if (!content || !(await canView(content, reader))) throw notFound('Content not found');
      const [knackEarnings, tag, price] = await Promise.all([
        knackEarningsOf(content._id),
        tagsService.pricingTagOf(content),
        tagsService.knackPriceNow(content),
      ]);
      const paidByReader = Boolean(reader && content.payerId && String(content.payerId) === reader.userId);
      const earnedMicros = paidByReader ? knackEarnings : shownCount(content, reader, knackEarnings);
      return {
        contentId: String(content._id),
        knackValue: microsToUsd(price.knackMicros),
        knackValueMicros: price.knackMicros,
        knackRate: tag ? changeRatePercent(tag.diffPriceMicros, tag.priceMicros) : 0,
        isPaidOut: content.isPaidOut,
        reactedCount: shownCount(content, reader, content.reactedCount),
        earned: earnedMicros === null ? null : microsToUsd(earnedMicros),
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
