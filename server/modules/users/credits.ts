/**
 * Listing credits: a member's standard (`sCredit`) and premium (`pCredit`) credits, each paying one listing
 * fee of its tier. Every movement (a plan's period granting its credits, a credit spent on a listing, a credit
 * given back when that listing did not happen, an admin's correction) is an inserted document with a
 * deterministic `_id`, so the same grant or give-back cannot happen twice, even when a provider delivers an
 * event to two processes at once, and a member's credits can always be explained. The totals on the user
 * extension are kept under the member's credit lock, in three steps that a crash anywhere leaves repairable: the
 * movement is first written on the extension as pending, then inserted, then applied to the totals in the one update
 * that clears it. A pending movement found later (by the member's next credit step, or the listing-repairs job) is
 * applied once if it was inserted, and dropped if not.
 *
 * Each member's movements are also listed in the order they were recorded, a numbered chain (lib/numbered-chain.ts)
 * `{userId}#{n}` in `credit_movement_lists`, each entry naming its movement: the newest page is read from the list's
 * end down, by `_id` only, however many movements there are (a filter on the member would read every movement on
 * the embedded database). The entry is appended after the movement's insert and before the totals move, so a
 * movement a process died on is listed by whoever settles it.
 */
import { randomBytes } from 'node:crypto';
import { Schema, Types, model } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import { withLock } from '../../lib/mutex';
import { numberedChains, type ChainEnd } from '../../lib/numbered-chain';
import { anyOf, ours, readById } from '../../lib/query';
import { extensionIdOf, extensionOf } from './users.keys';
import { UserExtModel } from './users.model';

export type CreditTier = 'standard' | 'premium';
export type CreditReason = 'plan' | 'listing' | 'listing-undone' | 'admin';
const CREDIT_FIELD = { standard: 'sCredit', premium: 'pCredit' } as const;
const CREDIT_LOCK = { busyMessage: 'Another payment of yours is in progress. Please try again.' };

const creditMovementSchema = new Schema(
  {
    /**
     * The movement's key: `plan:{subscriptionId}:{periodStart}`, `use:{userId}:{contentId}` (one credit per member
     * and piece, so a retried payment uses the same one; `use:{random}` before, or once that use was given back),
     * `return:{use id}`, `admin:{random}`.
     */
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    /** Signed changes of each tier. */
    standard: { type: Number, required: true },
    premium: { type: Number, required: true },
    reason: { type: String, enum: ['plan', 'listing', 'listing-undone', 'admin'], required: true },
    /** What it is about: the subscription, the piece, or the admin who made it. */
    ref: { type: String, default: null },
    note: { type: String, default: null },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
creditMovementSchema.index({ userId: 1, at: -1 });

export interface CreditMovementDoc {
  _id: string;
  userId: Types.ObjectId;
  standard: number;
  premium: number;
  reason: CreditReason;
  ref: string | null;
  note: string | null;
  at: Date;
}

export const CreditMovementModel = model<CreditMovementDoc>('CreditMovement', creditMovementSchema, 'credit_movements');

/** An entry of a member's credit movement list: `{userId}#{n}`, naming the movement recorded n-th. */
const creditListEntrySchema = new Schema({ _id: { type: String, required: true }, movementId: { type: String, required: true } }, { versionKey: false });
export interface CreditListEntryDoc {
  _id: string;
  movementId: string;
}
export const CreditListEntryModel = model<CreditListEntryDoc>('CreditListEntry', creditListEntrySchema, 'credit_movement_lists');

/** The newest movements a member's credit page shows (the contract's "last 100"). */
export const CREDIT_MOVEMENTS_SHOWN = 100;

type ListTip = Pick<CreditListEntryDoc, 'movementId'>;
const creditLists = numberedChains<ListTip>(CreditListEntryModel, { separator: '#', projection: { movementId: 1 } });

/** Forgets the list ends this process knows, for tests that empty the collections under a running app. */
export const forgetCreditLists = creditLists.forget;
const memberKey = (userId: string) => new Types.ObjectId(userId);
/** A member's list is named by their id as stored (the lower-case hex of the ObjectId), however a caller wrote it. */
const listName = (userId: string) => memberKey(userId).toHexString();
export const creditListEntryId = (userId: string, n: number) => creditLists.idOf(listName(userId), n);

/** The exact end of a member's movement list, searched from the extension's hint when this process does not know it. */
async function creditListEnd(userId: string, hint?: number | null): Promise<ChainEnd<ListTip>> {
  const known = await creditLists.end(listName(userId), false);
  const from = hint && hint > known.n ? { n: hint, doc: null } : undefined;
  return creditLists.end(listName(userId), true, from);
}

/**
 * Appends the movement to the member's list; answers its number. `hint` (where the extension says the list ends) is
 * only asked for when this process does not know the list.
 */
async function listMovement(userId: string, movementId: string, hint: () => Promise<number | null | undefined>): Promise<number> {
  if ((await creditLists.end(listName(userId), false)).n === 0) await creditListEnd(userId, await hint());
  return (await creditLists.append(listName(userId), () => ({ movementId }))).n;
}

/** Appends a movement to the member's list (the rebuild's, for a movement the list misses); answers its number. */
export const appendToCreditList = (userId: string, movementId: string) =>
  listMovement(userId, movementId, async () => (await extensionOf(userId))?.creditListEnd);

/**
 * Lists the movement unless it is the list's last already (caller holds the member's credit lock, under which every
 * movement of the member is recorded, so the one being settled is the last listed if it was listed at all).
 */
async function listMovementOnce(userId: string, movementId: string, hint?: number | null): Promise<number> {
  const end = await creditListEnd(userId, hint);
  const last = end.n > 0 ? (end.doc ?? (await readById<ListTip>(CreditListEntryModel, creditLists.idOf(listName(userId), end.n), { movementId: 1 }))) : null;
  return last?.movementId === movementId ? end.n : listMovement(userId, movementId, async () => end.n);
}

export interface CreditChange {
  standard: number;
  premium: number;
}

const lockKey = (userId: string) => `credit:${userId}`;

/** The member's credits of each tier (0 without a user extension). */
export async function creditsOf(userId: string): Promise<{ sCredit: number; pCredit: number }> {
  const ext = await extensionOf(userId);
  return { sCredit: ext?.sCredit ?? 0, pCredit: ext?.pCredit ?? 0 };
}

/** The member's credits of the tier. */
export async function planCreditsLeft(userId: string, tier: CreditTier): Promise<number> {
  const credits = await creditsOf(userId);
  return credits[CREDIT_FIELD[tier]];
}

type PendingMovement = { _id: string; standard: number; premium: number };

/**
 * Finishes the movement a process died on while recording it, if any (caller holds the member's credit lock):
 * applied to the totals once if it was inserted, dropped if it was not. Answers whether there was one.
 */
async function settlePending(userId: string): Promise<boolean> {
  const ext = await extensionOf(userId);
  const pending = ext?.pendingCreditMovement as PendingMovement | null | undefined;
  if (!ext || !pending) return false;
  const inserted = await CreditMovementModel.exists({ _id: pending._id });
  const listed = inserted ? await listMovementOnce(userId, pending._id, ext.creditListEnd) : null;
  await UserExtModel.updateOne(
    { _id: ext._id },
    listed
      ? { $inc: { sCredit: pending.standard, pCredit: pending.premium }, $set: { pendingCreditMovement: null, creditListEnd: listed } }
      : { $set: { pendingCreditMovement: null } },
  );
  return true;
}

/**
 * Records the movement and moves the totals; caller holds the member's credit lock. False when `_id` was recorded
 * before. The movement is pending on the member's extension until the update that moves the totals clears it.
 */
async function record(movement: Omit<CreditMovementDoc, 'at' | 'userId'> & { userId: string; at?: Date }): Promise<boolean> {
  await settlePending(movement.userId);
  const pending: PendingMovement = { _id: movement._id, standard: movement.standard, premium: movement.premium };
  // The member's extension by its `_id` (made on first use): every write below is by `_id`.
  const extId = await extensionIdOf(movement.userId);
  await UserExtModel.updateOne({ _id: extId }, { $set: { pendingCreditMovement: pending } });
  try {
    await CreditMovementModel.create({ ...movement, userId: memberKey(movement.userId), at: movement.at ?? new Date() });
  } catch (err) {
    await UserExtModel.updateOne({ _id: extId }, { $set: { pendingCreditMovement: null } });
    if (isDuplicateKey(err)) return false;
    throw err;
  }
  const hint = async () => (await readById<{ creditListEnd?: number }>(UserExtModel, extId, { creditListEnd: 1 }))?.creditListEnd;
  const listed = await listMovement(movement.userId, movement._id, hint);
  faultPoint(FAULT_POINTS.creditAfterMovement);
  await UserExtModel.updateOne(
    { _id: extId },
    { $inc: { sCredit: movement.standard, pCredit: movement.premium }, $set: { pendingCreditMovement: null, creditListEnd: listed } },
  );
  return true;
}

/** Adds credits once per `key` (a plan's paid period): a second grant with the same key changes nothing and answers false. */
export function grantCredits(userId: string, change: CreditChange, key: string, ref: string): Promise<boolean> {
  return withLock(lockKey(userId), () => record({ _id: key, userId, ...change, reason: 'plan', ref, note: null }), CREDIT_LOCK);
}

/** The key of the credit a member uses for a piece: one per member and piece, so that a retried payment uses the same. */
const useKey = (userId: string, contentId: string) => `use:${userId}:${contentId}`;

/**
 * Uses one credit of the tier for a listing, never going below 0. Answers the use's key (to give it back if the listing does not happen), or null when the member has none.
 * The member's use for this piece that was taken and not given back (a payment that stopped before its listing, then
 * retried) is answered again, not taken twice.
 */
export function takePlanCredit(userId: string, tier: CreditTier, contentId: string): Promise<string | null> {
  return withLock(
    lockKey(userId),
    async () => {
      await settlePending(userId);
      let _id = useKey(userId, contentId);
      const [earlier, returned] = await Promise.all([CreditMovementModel.exists({ _id }), CreditMovementModel.exists({ _id: `return:${_id}` })]);
      if (earlier && !returned) return _id;
      if (earlier) _id = `use:${randomBytes(12).toString('hex')}`;
      if ((await planCreditsLeft(userId, tier)) < 1) return null;
      const change = { standard: tier === 'standard' ? -1 : 0, premium: tier === 'premium' ? -1 : 0 };
      await record({ _id, userId, ...change, reason: 'listing', ref: contentId, note: null });
      return _id;
    },
    CREDIT_LOCK,
  );
}

/**
 * The credits used for listings and not given back, taken before `before`: what the listing-repairs job checks
 * against the ledger (a payment that stopped between the credit and its listing, and was never retried).
 */
export async function creditUsesBefore(before: Date): Promise<Pick<CreditMovementDoc, '_id' | 'userId' | 'ref'>[]> {
  const movements = await CreditMovementModel.find(ours({ reason: anyOf(['listing', 'listing-undone']) }), { userId: 1, ref: 1, reason: 1, at: 1 }).lean<
    Pick<CreditMovementDoc, '_id' | 'userId' | 'ref' | 'reason' | 'at'>[]
  >();
  const returned = new Set(movements.filter((m) => m.reason === 'listing-undone').map((m) => m._id.slice('return:'.length)));
  return movements.filter((m) => m.reason === 'listing' && m.at < before && !returned.has(m._id)).map(({ _id, userId, ref }) => ({ _id, userId, ref }));
}

/** Finishes every credit movement a process died on while recording it (the listing-repairs job); answers how many. */
export async function settlePendingCredits(): Promise<number> {
  const exts = await UserExtModel.find(ours({ pendingCreditMovement: { $ne: null } }), { userId: 1 }).lean<{ userId: Types.ObjectId }[]>();
  let settled = 0;
  for (const { userId } of exts) {
    if (await withLock(lockKey(String(userId)), () => settlePending(String(userId)), CREDIT_LOCK)) settled += 1;
  }
  return settled;
}

/** Gives back the credit of a use whose listing did not happen (once per use). */
export function givePlanCreditBack(userId: string, useKey: string): Promise<void> {
  return withLock(
    lockKey(userId),
    async () => {
      const use = await CreditMovementModel.findById(useKey).lean<CreditMovementDoc>();
      if (!use || String(use.userId) !== userId) return;
      await record({ _id: `return:${useKey}`, userId, standard: -use.standard, premium: -use.premium, reason: 'listing-undone', ref: use.ref, note: null });
    },
    CREDIT_LOCK,
  );
}

export const CREDIT_MESSAGES = {
  belowZero: 'Credits cannot go below zero.',
} as const;

/**
 * An admin's correction of one tier by a signed amount, with a note saying why. Refused when it would take
 * the member below zero. Answers the member's credits after it. `actionKey` (lib/action-key.ts), when the call came
 * with an Idempotency-Key, names the movement: the same action run again after a crash moves nothing more.
 */
export function adjustCredits(userId: string, tier: CreditTier, amount: number, adminId: string, note: string | null, actionKey?: string) {
  return withLock(
    lockKey(userId),
    async () => {
      await settlePending(userId);
      const _id = `admin:${actionKey ?? randomBytes(12).toString('hex')}`;
      if (actionKey && (await CreditMovementModel.exists({ _id }))) return creditsOf(userId);
      if ((await planCreditsLeft(userId, tier)) + amount < 0) return null;
      const change = { standard: tier === 'standard' ? amount : 0, premium: tier === 'premium' ? amount : 0 };
      await record({ _id, userId, ...change, reason: 'admin', ref: adminId, note });
      return creditsOf(userId);
    },
    CREDIT_LOCK,
  );
}

/**
 * The member's credit movements, newest first (at most `limit`): the last entries of their list and the movements
 * they name, each read by `_id`. A movement listed twice (a settle that overlapped a lock given up as abandoned) is
 * shown once.
 */
export async function creditMovementsOf(userId: string, limit = CREDIT_MOVEMENTS_SHOWN): Promise<CreditMovementDoc[]> {
  const ext = await extensionOf(userId);
  const end = await creditListEnd(userId, ext?.creditListEnd);
  const numbers = Array.from({ length: Math.min(limit, end.n) }, (_, i) => end.n - i);
  const entries = await Promise.all(numbers.map((n) => readById<ListTip>(CreditListEntryModel, creditLists.idOf(listName(userId), n), { movementId: 1 })));
  const ids = [...new Set(entries.flatMap((entry) => (entry ? [entry.movementId] : [])))];
  const movements = await Promise.all(ids.map((id) => readById<CreditMovementDoc>(CreditMovementModel, id)));
  return movements.filter((movement): movement is CreditMovementDoc => movement !== null && String(movement.userId) === listName(userId));
}
