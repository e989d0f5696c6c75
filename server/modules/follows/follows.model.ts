import { Schema, model, type Types } from 'mongoose';

/**
 * One member following another. The `_id` is `{followerId}:{followedId}`, so following is an insert that a second
 * insert of the same pair (twice, or at once from two tabs or two processes) cannot repeat, and unfollowing deletes
 * that one document (of two deletes at once, one deletes it). `instance` tells this follow from an earlier one of the
 * same pair (followed, unfollowed, followed again): the lists show a follow event only while the follow it names is
 * still there.
 */
const followSchema = new Schema(
  {
    _id: { type: String, required: true },
    followerId: { type: Schema.Types.ObjectId, required: true },
    followedId: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
    instance: { type: String },
  },
  { versionKey: false },
);
followSchema.index({ followedId: 1, at: -1, _id: -1 });
followSchema.index({ followerId: 1, at: -1, _id: -1 });

export interface FollowDoc {
  _id: string;
  followerId: Types.ObjectId;
  followedId: Types.ObjectId;
  at: Date;
  /** Absent on follows made before instances were kept. */
  instance?: string;
}

export const FollowModel = model<FollowDoc>('Follow', followSchema, 'follows');

export const followKey = (followerId: string, followedId: string) => `${followerId}:${followedId}`;

/** The two lists each member has: who follows them, and whom they follow. */
export type FollowSide = 'followers' | 'followings';

/**
 * One event of a member's follower or following list: a numbered chain per member and side (lib/numbered-chain.ts),
 * `{side}:{userId}#{n}`, each number taken by its insert. An event is appended only by the call that won the follow
 * document's insert (`followed`) or its delete (`unfollowed`), so each change is counted once, and each event holds the
 * list's count after it: the chain's last event is the count. `recount` events are appended only by the follow-lists
 * rebuild, to set a count that a lost event left wrong.
 */
const followEventSchema = new Schema(
  {
    _id: { type: String, required: true },
    kind: { type: String, enum: ['followed', 'unfollowed', 'recount'], required: true },
    /** The other member of the follow (the follower on a followers list); null on a recount. */
    other: { type: Schema.Types.ObjectId, default: null },
    /** The follow document's instance (null for a follow made before instances were kept, and on a recount). */
    instance: { type: String, default: null },
    count: { type: Number, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

export interface FollowEventDoc {
  _id: string;
  kind: 'followed' | 'unfollowed' | 'recount';
  other: Types.ObjectId | null;
  instance: string | null;
  count: number;
  at: Date;
}

export const FollowEventModel = model<FollowEventDoc>('FollowEvent', followEventSchema, 'follow_events');

/**
 * The kept snapshot of a member's list: the chain's number and count as of some event, `_id` `{side}:{userId}`. It
 * is set after each event, best-effort (an update can be lost or land late on the embedded database, so it may be a
 * few events behind, never ahead): a reader starts from it and reads the numbers after it until one is missing.
 */
const followHeadSchema = new Schema(
  {
    _id: { type: String, required: true },
    n: { type: Number, required: true },
    count: { type: Number, required: true },
  },
  { versionKey: false },
);

export interface FollowHeadDoc {
  _id: string;
  n: number;
  count: number;
}

export const FollowHeadModel = model<FollowHeadDoc>('FollowHead', followHeadSchema, 'follow_heads');

/**
 * A compacted copy of a member's list: the follows it held as of its event number `at` (those not unfollowed by
 * then), oldest first, each an item `{side}:{userId}@{at}#{i}`. A list that many unfollows made long to read is read
 * from its events after `at`, then from its copy, so that a page does not wade through unfollows. Items are written
 * once and never changed; a copy is used once its pointer (below) names it.
 */
const followCopyItemSchema = new Schema(
  {
    _id: { type: String, required: true },
    other: { type: Schema.Types.ObjectId, required: true },
    instance: { type: String, default: null },
  },
  { versionKey: false },
);

export interface FollowCopyItemDoc {
  _id: string;
  other: Types.ObjectId;
  instance: string | null;
}

export const FollowCopyItemModel = model<FollowCopyItemDoc>('FollowCopyItem', followCopyItemSchema, 'follow_copies');

/** The latest complete copy of a list, `_id` `{side}:{userId}`: its event number and its number of items. */
const followCopyPointerSchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Number, required: true },
    size: { type: Number, required: true },
  },
  { versionKey: false },
);

export interface FollowCopyPointerDoc {
  _id: string;
  at: number;
  size: number;
}

export const FollowCopyPointerModel = model<FollowCopyPointerDoc>('FollowCopyPointer', followCopyPointerSchema, 'follow_copy_pointers');

/**
 * A follow change on its way (follows.pending.ts): written before the follow document is inserted or deleted, and
 * deleted once both members' lists have the change's event. One that stays past its grace names a change whose
 * process died between the fact and its events; the follow-repairs job appends what is missing. `_id` is
 * `{kind}|{followerId}:{followedId}|{instance}`, so a change is marked once however often it is tried.
 */
const followPendingSchema = new Schema(
  {
    _id: { type: String, required: true },
    kind: { type: String, enum: ['followed', 'unfollowed'], required: true },
    followerId: { type: Schema.Types.ObjectId, required: true },
    followedId: { type: Schema.Types.ObjectId, required: true },
    instance: { type: String, default: null },
    /** The change's time, as its events carry it. */
    at: { type: Date, required: true },
    /** When the mark was written (the real clock): its grace runs from here. */
    writtenAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export interface FollowPendingDoc {
  _id: string;
  kind: 'followed' | 'unfollowed';
  followerId: Types.ObjectId;
  followedId: Types.ObjectId;
  instance: string | null;
  at: Date;
  writtenAt: Date;
}

export const FollowPendingModel = model<FollowPendingDoc>('FollowPending', followPendingSchema, 'follow_pending');
