/**
 * The hold: a piece off the public lists while members' flags wait for an admin. It follows the open flags that
 * count (flags.counting.ts): with HOLD_AT_FLAGS of them the piece is held, with fewer it is listed again (a flag
 * taken back, an account deleted). The count is read from the flags themselves each time, never kept as a total.
 *
 * Holding is claimed by inserting the hold (`flag_holds`, `_id` the piece), so of the flags that reach the
 * threshold at once, in any process, one holds the piece; its owner's mail is claimed by a second insert, one per
 * piece and ISO week (`flag_mails`), so a piece held, listed and held again mails its owner once a week.
 */
import { Types } from 'mongoose';
import type { Mailer } from '../../integrations/mail';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { isoWeekOf } from '../../lib/calendar';
import { insertWhole } from '../../lib/query';
import { contentReads, type ContentDoc, type ContentsService } from '../contents';
import { userReads, type UserDoc } from '../users';
import { pieceHeldMail } from './flags.mails';
import { FlagHoldModel, FlagMailClaimModel, FlagModel, type FlagDoc } from './flags.model';

/** Flags from this many different members, each of which counts, hold a piece off the public lists until an admin decides. */
export const HOLD_AT_FLAGS = 5;

export interface HoldDeps {
  contents: Pick<ContentsService, 'setReview'>;
  /** Without one (an account deletion), a piece held again is not mailed about. */
  mailer?: Mailer;
}

const countingOpenFlags = (contentId: Types.ObjectId) =>
  FlagModel.find({ contentId, resolvedAt: null, counts: true }, { reason: 1 }).lean<Pick<FlagDoc, 'reason'>[]>();

/** Mails the owner that the piece is held, unless this week's mail about it is claimed already. */
async function mailOwnerOnceAWeek(piece: Pick<ContentDoc, '_id' | 'ownerId' | 'title'>, reasons: string[], mailer: Mailer, now: Date): Promise<void> {
  const claim = `flag-mail:${String(piece._id)}:${isoWeekOf(now)}`;
  try {
    await insertWhole(FlagMailClaimModel, { _id: claim, at: now });
  } catch (err) {
    if (isDuplicateKey(err)) return; // mailed this week already
    throw err;
  }
  const owner = await userReads.byId<Pick<UserDoc, 'email' | 'firstName'>>(piece.ownerId, { email: 1, firstName: 1 });
  if (!owner) return;
  try {
    await mailer.send(pieceHeldMail(owner.email, owner.firstName ?? '', piece.title, reasons));
  } catch (err) {
    // Not sent: the week's mail is free again for the next hold.
    await FlagMailClaimModel.deleteOne({ _id: claim });
    throw err;
  }
}

/**
 * Holds the piece, if this caller's insert claims the hold. `reassert`: the hold may be claimed while the piece was
 * just written as listed (a release racing a new flag), so the piece is written as held again all the same.
 */
async function hold(contentId: Types.ObjectId, reasons: string[], deps: HoldDeps, now: Date, reassert: boolean): Promise<void> {
  try {
    await insertWhole(FlagHoldModel, { _id: contentId, at: now });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    if (reassert) await deps.contents.setReview(contentId, 'held');
    return;
  }
  const piece = await deps.contents.setReview(contentId, 'held');
  if (piece && deps.mailer) await mailOwnerOnceAWeek(piece, [...new Set(reasons)], deps.mailer, now);
}

/** Holds the piece or lists it again, as its open flags that count say now. */
export async function settleHold(contentId: Types.ObjectId, deps: HoldDeps, now: Date): Promise<void> {
  if (await holdIfFlaggedEnough(contentId, deps, now, false)) return;
  const { deletedCount } = await FlagHoldModel.deleteOne({ _id: contentId });
  if (!deletedCount) return;
  // A piece an admin took down stays down: only the hold's own effect is undone.
  const piece = await contentReads.byId<Pick<ContentDoc, 'takenDown'>>(contentId, { takenDown: 1 });
  if (piece && !piece.takenDown) await deps.contents.setReview(contentId, 'released');
  // A flag counted while the hold was let go may have found it still there and left it: the flags as they are
  // now have the last word.
  await holdIfFlaggedEnough(contentId, deps, now, true);
}

/** Holds the piece when enough of its open flags count; answers whether they do. */
async function holdIfFlaggedEnough(contentId: Types.ObjectId, deps: HoldDeps, now: Date, reassert: boolean): Promise<boolean> {
  const counting = await countingOpenFlags(contentId);
  if (counting.length < HOLD_AT_FLAGS) return false;
  await hold(
    contentId,
    counting.map((flag) => flag.reason),
    deps,
    now,
    reassert,
  );
  return true;
}

/**
 * Removes a member's flags (their account is being deleted), and lists again the pieces held only because of them.
 * Safe to run again: the flags stop counting first and are deleted only once each piece they were open on is
 * settled, so a run stopped in between finds them again.
 */
export async function removeFlagsOf(memberId: string, deps: HoldDeps, now = new Date()): Promise<void> {
  const userId = new Types.ObjectId(memberId);
  const flags = await FlagModel.find({ userId }, { contentId: 1, resolvedAt: 1 }).lean<Pick<FlagDoc, '_id' | 'contentId' | 'resolvedAt'>[]>();
  if (!flags.length) return;
  await FlagModel.updateMany({ userId }, { $set: { counts: false } });
  const openOn = new Map(flags.filter((flag) => !flag.resolvedAt).map((flag) => [String(flag.contentId), flag.contentId]));
  for (const contentId of openOn.values()) await settleHold(contentId, deps, now);
  await FlagModel.deleteMany({ userId });
}
