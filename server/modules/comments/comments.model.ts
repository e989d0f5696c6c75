import { Schema, model, type Types } from 'mongoose';

/**
 * One comment on a piece, or one share of it. The `_id` is `{contentId}-{n}`: the comment's number in the piece's
 * comments (lib/numbered-chain.ts), taken by its insert, so that a page of a piece's comments, at any depth, is a
 * few reads by `_id` (the one read the embedded database serves from an index). A removed comment stays as a
 * tombstone without its text, which keeps the numbers without gaps.
 */
const commentSchema = new Schema(
  {
    _id: { type: String, required: true },
    kind: { type: String, enum: ['comment', 'share'], required: true },
    contentId: { type: Schema.Types.ObjectId, required: true },
    /** The piece's owner when the comment was written. */
    ownerId: { type: Schema.Types.ObjectId, required: true },
    commentorId: { type: Schema.Types.ObjectId, required: true },
    /** Plain text as typed (without the spaces around it); emptied when removed. */
    text: { type: String, default: '' },
    /** On a song, the time in the track (seconds) the comment is about. */
    atSeconds: { type: Number, default: null },
    /** A share may carry one of the piece's comments. */
    sharedCommentId: { type: String, default: null },
    at: { type: Date, required: true },
    removedAt: { type: Date, default: null },
  },
  { versionKey: false },
);
commentSchema.index({ commentorId: 1, at: -1, _id: -1 });
commentSchema.index({ ownerId: 1, at: -1, _id: -1 });
commentSchema.index({ at: -1, _id: -1 });

export interface CommentDoc {
  _id: string;
  kind: 'comment' | 'share';
  contentId: Types.ObjectId;
  ownerId: Types.ObjectId;
  commentorId: Types.ObjectId;
  text: string;
  atSeconds: number | null;
  sharedCommentId: string | null;
  at: Date;
  removedAt: Date | null;
}

export const CommentModel = model<CommentDoc>('Comment', commentSchema, 'comments');

/**
 * A comment's removal, claimed by inserting it (`_id` is the comment's): of two removals at once, in any process,
 * one inserts it and takes the piece's count down, and the other finds it done.
 */
const removalSchema = new Schema(
  {
    _id: { type: String, required: true },
    by: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

export const CommentRemovalModel = model('CommentRemoval', removalSchema, 'comment_removals');

/**
 * A comment's writing or removal on its way (comments.pending.ts): marked before its first write, cleared after its
 * last. `_id` is `add|{contentId}|{commentorId}|{at}|{nonce}` or `remove|{commentId}`.
 */
const commentPendingSchema = new Schema(
  {
    _id: { type: String, required: true },
    kind: { type: String, enum: ['add', 'remove'], required: true },
    contentId: { type: Schema.Types.ObjectId, required: true },
    /** The writer (add). */
    commentorId: { type: Schema.Types.ObjectId, default: null },
    /** The comment removed (remove). */
    commentId: { type: String, default: null },
    /** The change's time: a new comment's `at`. */
    at: { type: Date, required: true },
    writtenAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export interface CommentPendingDoc {
  _id: string;
  kind: 'add' | 'remove';
  contentId: Types.ObjectId;
  commentorId: Types.ObjectId | null;
  commentId: string | null;
  at: Date;
  writtenAt: Date;
}

export const CommentPendingModel = model<CommentPendingDoc>('CommentPending', commentPendingSchema, 'comment_pending');

/**
 * A comment's place in a member's lists: numbered chains (lib/numbered-chain.ts) `by:{userId}#{n}` (the comments the
 * member wrote) and `on:{ownerId}#{n}` (the comments on the member's pieces, which the comment feed of their followers
 * merges), each number taken by its insert. An entry names its comment; a removed comment stays as a tombstone, which
 * the readers skip, so an entry is never deleted.
 */
const commentListEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    commentId: { type: String, required: true },
    /** The comment's time, for merging several members' lists newest first. */
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

export interface CommentListEntryDoc {
  _id: string;
  commentId: string;
  at: Date;
}

export const CommentListEntryModel = model<CommentListEntryDoc>('CommentListEntry', commentListEntrySchema, 'comment_lists');

/**
 * The kept snapshot of a chain's end, `_id` a member's list's name (`by:{userId}`, `on:{ownerId}`) or a piece's thread's
 * (`thread:{contentId}`): set after each append, best-effort (it may be a few behind, never ahead); a process that
 * does not know the chain starts from it and reads the numbers after it until one is missing.
 */
const commentListHeadSchema = new Schema({ _id: { type: String, required: true }, n: { type: Number, required: true } }, { versionKey: false });

export interface CommentListHeadDoc {
  _id: string;
  n: number;
}

export const CommentListHeadModel = model<CommentListHeadDoc>('CommentListHead', commentListHeadSchema, 'comment_list_heads');
