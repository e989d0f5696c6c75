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
import { isDuplicateKey, withLock } from '../../lib/mutex';
import { changeRatePercent, microsToUsd } from '../../lib/money';
import { consumeLimit } from '../../lib/rate-limit';
import type { AuthContext } from '../auth';
import { canSee, ContentModel, withFinishedMedia, type ContentDoc } from '../contents';
import { recordReaction } from '../feeds/feeds.rankings';
import { TagModel } from '../tags';
import { UserModel } from '../users';
import { knackCodeMail } from './knacks.mails';
import { balanceOf, knackLegs, post, userAccount, type Posting } from './ledger';
import { LedgerEntryModel, type LedgerEntryDoc } from './ledger.model';
import { knackKey, knackStatusOf, type KnackStatus } from './knacked';
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
/** At most this many knacks of a member in one turn of their lock, which keeps a turn far below the lock's life. */
const MAX_STEPS_PER_TURN = 20;

/** A member's knack window as a turn reads it and its knacks change it. */
type KnackWindow = Pick<KnackCodeDoc, 'verifiedAt' | 'codeHash' | 'codeId' | 'expiresAt'> & { recentAt: Date[] };
/** A knack waiting for its member's turn. */
interface TurnStep {
  now: Date;
  /** When the count has reached the limit: the entry if a twin wrote it meanwhile, null once the code is right; throws otherwise. */
  atLimit: (window: KnackWindow) => Promise<Posting | null>;
  /** Writes the knack's ledger entry. */
  write: () => Promise<Posting>;
  resolve: (posted: Posting) => void;
  reject: (reason: unknown) => void;
}
/** Per member, the steps of this process waiting for their next turn (see inMemberTurn). */
const memberQueues = new Map<string, TurnStep[]>();

type KnackAnswer = { message: string; knackStatus: KnackStatus; reactedCount: number; earned: number; earnedMicros: number };

/**
 * The same knack request (member, piece, play and code) sent many times at once in this process: the first
 * one does the work and the others take its outcome, a thank-you turned into "already knacked", instead of
 * each reading the database and queueing for the member's lock only to find the entry written. A crowd of
 * retries then costs one knack, not one each. Across processes the ledger's unique key decides.
 */
const knacksInFlight = new Map<string, Promise<KnackAnswer>>();
async function onceAtATime(key: string, knack: () => Promise<KnackAnswer>): Promise<KnackAnswer> {
  const running = knacksInFlight.get(key);
  if (running) {
    const first = await running;
    return first.message === KNACK_MESSAGES.thanks ? { ...first, message: KNACK_MESSAGES.already } : first;
  }
  const mine = knack().finally(() => knacksInFlight.delete(key));
  knacksInFlight.set(key, mine);
  return mine;
}

/** What a knack reads of its piece. */
const KNACK_FIELDS = { ownerId: 1, payerId: 1, isPaidOut: 1, knackRateMicros: 1, reactedCount: 1, radarScore: 1, setting: 1, type: 1 } as const;
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

/** Spec §9 marketing copy: cash-out from $10. */
export const MIN_CASH_OUT_MICROS = 10_000_000;


/** Knacks in a member's window since it started or their last code, whichever is later. */
function countRecent(window: Pick<KnackCodeDoc, 'verifiedAt' | 'recentAt'> | null, now: Date): number {
  const since = Math.max(now.getTime() - RECENT_WINDOW_MS, window?.verifiedAt?.getTime() ?? 0);
  return (window?.recentAt ?? []).filter((at) => at.getTime() > since).length;
}

/** What a knack entry credited in all (its platform leg, turned around). */
const creditedBy = (entry: Pick<LedgerEntryDoc, 'legs'>) => entry.legs.reduce((sum, leg) => sum + (leg.amountMicros > 0 ? leg.amountMicros : 0), 0);

export function createKnacksService({ mailer, secret }: { mailer: Mailer; secret: string }) {
  const hashCode = (userId: string, code: string) => createHmac('sha256', secret).update(`knack-code:${userId}:${code}`).digest();

  async function visibleContent(contentId: string, viewer: AuthContext, fields?: Record<string, 1>): Promise<ContentDoc> {
    const content = await ContentModel.findById(contentId, fields).lean<ContentDoc>();
    if (!content || !canSee(content, viewer)) throw notFound('Content not found');
    return content;
  }

  /** The member's knack window (one read by `_id`). */
  const windowOf = (userId: string) => KnackCodeModel.findById(userId, { verifiedAt: 1, recentAt: 1, codeHash: 1, codeId: 1, expiresAt: 1 }).lean<KnackCodeDoc>();

  /**
   * Runs a knack in the member's turn: under their lock (one holder in every process), with their knack window
   * read once for all the knacks of this process waiting when the turn begins, and saved once after them.
   * Knacks the count allows are written at once, side by side; one that meets the limit waits until those are
   * written (a twin among them frees its place) and then asks for the code. A member's burst costs one lock
   * and one window write, not one each; each answer is given once the window holding it is saved.
   */
  function inMemberTurn(userId: string, step: Omit<TurnStep, 'resolve' | 'reject'>): Promise<Posting> {
    return new Promise<Posting>((resolve, reject) => {
      const waiting: TurnStep = { ...step, resolve, reject };
      const queue = memberQueues.get(userId);
      if (queue) return void queue.push(waiting);
      memberQueues.set(userId, [waiting]);
      void takeTurns(userId);
    });
  }

  async function takeTurns(userId: string): Promise<void> {
    for (;;) {
      const steps = memberQueues.get(userId)!.splice(0, MAX_STEPS_PER_TURN);
      if (!steps.length) return void memberQueues.delete(userId);
      const outcomes = new Map<TurnStep, { ok: true; posted: Posting } | { ok: false; err: unknown }>();
      try {
        await memberLock(userId, async () => {
          const doc = await windowOf(userId);
          const window: KnackWindow = {
            verifiedAt: doc?.verifiedAt ?? null,
            codeHash: doc?.codeHash ?? null,
            codeId: doc?.codeId ?? null,
            expiresAt: doc?.expiresAt ?? null,
            recentAt: doc?.recentAt ?? [],
          };
          let counted = false;
          let tookBack = false;
          const writing: Promise<void>[] = [];
          for (const step of steps) {
            if (countRecent(window, step.now) >= KNACKS_BEFORE_CODE && writing.length) await Promise.all(writing.splice(0));
            if (countRecent(window, step.now) >= KNACKS_BEFORE_CODE) {
              try {
                const written = await step.atLimit(window);
                if (written) {
                  outcomes.set(step, { ok: true, posted: written });
                  continue;
                }
              } catch (err) {
                outcomes.set(step, { ok: false, err });
                continue;
              }
            }
            // Counted now, before its write ends, so that the knacks after it see it; taken back if it writes nothing.
            const at = new Date(step.now.getTime());
            window.recentAt.push(at);
            counted = true;
            const takeBack = () => {
              window.recentAt = window.recentAt.filter((time) => time !== at);
              tookBack = true;
            };
            writing.push(
              step.write().then(
                (posted) => {
                  outcomes.set(step, { ok: true, posted });
                  if (!posted.created) takeBack();
                },
                (err: unknown) => {
                  outcomes.set(step, { ok: false, err });
                  takeBack();
                },
              ),
            );
          }
          const saveWindow = () => {
            // The last KNACKS_BEFORE_CODE times in the window are all the count needs.
            const windowStart = Math.max(...steps.map((step) => step.now.getTime())) - RECENT_WINDOW_MS;
            const recentAt = window.recentAt.filter((at) => at.getTime() > windowStart).sort((a, b) => a.getTime() - b.getTime()).slice(-KNACKS_BEFORE_CODE);
            return KnackCodeModel.updateOne({ _id: new Types.ObjectId(userId) }, { $set: { recentAt } }, { upsert: true });
          };
          // Saved beside the writes, counting them all: should this process die before they end, the window counts
          // a knack too many (stricter), never one too few. One that wrote nothing is taken back by a second save.
          await Promise.all([...writing, counted ? saveWindow() : undefined]);
          if (tookBack) await saveWindow();
        });
        for (const step of steps) {
          const outcome = outcomes.get(step)!;
          if (outcome.ok) step.resolve(outcome.posted);
          else step.reject(outcome.err);
        }
      } catch (err) {
        steps.forEach((step) => step.reject(err));
      }
    }
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

  /** Checks the emailed code; a right one starts a new count of recent knacks. Under the member's lock. */
  async function verifyCode(userId: string, window: KnackWindow, code: string, now: Date): Promise<void> {
    const invalid = () => badRequest(KNACK_MESSAGES.invalidCode, [{ path: 'code', message: KNACK_MESSAGES.invalidCode }]);
    if (!window.codeHash || !window.codeId || !window.expiresAt || window.expiresAt <= now) throw invalid();
    // The attempt is used before comparing, so that a wrong guess always costs one of the 5.
    if (!(await takeAttempt(userId, window.codeId, now))) throw invalid();
    if (!timingSafeEqual(Buffer.from(window.codeHash, 'hex'), hashCode(userId, code))) throw invalid();
    await KnackCodeModel.updateOne({ _id: new Types.ObjectId(userId) }, { $set: { codeHash: null, codeId: null, expiresAt: null, verifiedAt: now } });
    Object.assign(window, { codeHash: null, codeId: null, expiresAt: null, verifiedAt: now });
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

  function answer(content: ContentDoc, userId: string, entry: Pick<LedgerEntryDoc, 'legs'>, reactedCount: number, message: string): KnackAnswer {
    const earnedMicros = creditedBy(entry);
    return { message, knackStatus: knackStatusOf(content, userId, true), reactedCount, earned: microsToUsd(earnedMicros), earnedMicros };
  }

  /** One knack (see add): counted and written under the member's lock, then the piece's kept totals bumped. */
  async function knack(caller: AuthContext, request: { contentId: string; playId?: string; code?: string }, now: Date): Promise<KnackAnswer> {
    const userId = caller.userId;
    const key = knackKey(request.contentId, userId);
    // A repeat is told by one read by key, beside the piece's, rather than by a wait for the member's lock.
    const [content, existing] = await Promise.all([visibleContent(request.contentId, caller, KNACK_FIELDS), LedgerEntryModel.findById(key).lean<LedgerEntryDoc>()]);
    if (String(content.ownerId) === userId) return { message: KNACK_MESSAGES.own, knackStatus: 3, reactedCount: content.reactedCount, earned: 0, earnedMicros: 0 };
    if (existing) return answer(content, userId, existing, content.reactedCount, KNACK_MESSAGES.already);

    await checkPlay(content, userId, request.playId, now);
    const value = content.isPaidOut ? content.knackRateMicros : 0;
    const legs = knackLegs(value, String(content.ownerId), content.payerId ? String(content.payerId) : null);
    const { entry, created } = await inMemberTurn(userId, {
      now,
      async atLimit(window) {
        // The same knack sent at once to another process: it wrote it while this one waited, and it needs no code.
        const written = await LedgerEntryModel.findById(key).lean<LedgerEntryDoc>();
        if (written) return { entry: written, created: false };
        if (!request.code) throw new AppError(428, 'verification_required', KNACK_MESSAGES.codeNeeded);
        await verifyCode(userId, window, request.code, now);
        return null;
      },
      // A twin that got here first makes this insert fail on the unique key: then nothing is written or counted.
      write: () => post({ _id: key, kind: 'knack', at: now, actorId: new Types.ObjectId(userId), contentId: content._id, legs }),
    });
    if (!created) return answer(content, userId, entry, content.reactedCount, KNACK_MESSAGES.already);
    await recordReaction(content);
    if (request.playId) await PlaySessionModel.deleteOne({ _id: request.playId });
    return answer(content, userId, entry, content.reactedCount + 1, KNACK_MESSAGES.thanks);
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

    async add(caller: AuthContext, request: { contentId: string; userId: string; playId?: string; code?: string }, now = new Date()): Promise<KnackAnswer> {
      if (request.userId !== caller.userId) throw new AppError(403, 'forbidden', KNACK_MESSAGES.forSelf);
      // The id as the database writes it (the contract allows upper-case hex): the ledger key must be one per piece.
      const contentId = request.contentId.toLowerCase();
      const same = `${caller.userId}:${contentId}:${request.playId ?? ''}:${request.code ?? ''}`;
      return onceAtATime(same, () => knack(caller, { ...request, contentId }, now));
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
          { $set: { codeHash: hashCode(userId, code).toString('hex'), codeId: randomBytes(9).toString('base64url'), expiresAt: new Date(Date.now() + CODE_TTL_MS) } },
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
      const [balanceMicros, window] = await Promise.all([balanceOf(userAccount(caller.userId)), windowOf(caller.userId)]);
      const recent = countRecent(window, now);
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
