import { Schema, model, type Types } from 'mongoose';

/**
 * A conversation between two members. Its `_id` is a fresh ObjectId's hex, and its messages are a numbered chain
 * `{threadId}-{n}` (lib/numbered-chain.ts): the first message is `{threadId}-1`, so the thread is also known by its
 * first message's id. Every read of a thread or of one of its messages is by `_id`.
 */
const threadSchema = new Schema(
  {
    _id: { type: String, required: true },
    subject: { type: String, required: true },
    /** The two members, the one who started it first. */
    memberIds: { type: [Schema.Types.ObjectId], required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

export interface ThreadDoc {
  _id: string;
  subject: string;
  memberIds: Types.ObjectId[];
  at: Date;
}

export const ThreadModel = model<ThreadDoc>('MessageThread', threadSchema, 'message_threads');

/** One message: number `n` of its thread's chain, written once and never changed. */
const messageSchema = new Schema(
  {
    _id: { type: String, required: true },
    threadId: { type: String, required: true },
    senderId: { type: Schema.Types.ObjectId, required: true },
    receiverId: { type: Schema.Types.ObjectId, required: true },
    text: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
messageSchema.index({ senderId: 1 });
messageSchema.index({ receiverId: 1 });

export interface MessageDoc {
  _id: string;
  threadId: string;
  senderId: Types.ObjectId;
  receiverId: Types.ObjectId;
  text: string;
  at: Date;
}

export const MessageModel = model<MessageDoc>('Message', messageSchema, 'messages');

/**
 * One member's side of a thread, `_id` `{threadId}:{userId}`: where they have read to, whether they marked it
 * important or deleted it, and the thread's last activity as they list it (`at`, the inbox's newest-first key).
 * Deleting is per member: the other side's document is untouched.
 */
const boxSchema = new Schema(
  {
    _id: { type: String, required: true },
    threadId: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    otherId: { type: Schema.Types.ObjectId, required: true },
    subject: { type: String, required: true },
    /** The thread's last activity: when its last message was written. */
    at: { type: Date, required: true },
    lastN: { type: Number, required: true },
    lastSenderId: { type: Schema.Types.ObjectId, required: true },
    lastText: { type: String, required: true },
    /** The number of the last message this member has read (their own messages count as read). */
    readN: { type: Number, required: true },
    isImportant: { type: Boolean, default: false },
    deletedAt: { type: Date, default: null },
    /** The version of the side (in `message_box_versions`) these fields were copied from; 0 before any. */
    v: { type: Number, default: 0 },
  },
  { versionKey: false },
);
// For "Download my data" and "Delete my account" on MongoDB (no request lists sides by member: see messages.state.ts).
boxSchema.index({ userId: 1 });

export interface BoxDoc {
  _id: string;
  threadId: string;
  userId: Types.ObjectId;
  otherId: Types.ObjectId;
  subject: string;
  at: Date;
  lastN: number;
  lastSenderId: Types.ObjectId;
  lastText: string;
  readN: number;
  isImportant: boolean;
  deletedAt: Date | null;
  v?: number;
}

export const BoxModel = model<BoxDoc>('MessageBox', boxSchema, 'message_boxes');

export const boxKey = (threadId: string, userId: string) => `${threadId}:${userId}`;

/** What changes in a member's side of a thread: its last message, how far they read, their marks. */
export type BoxState = Pick<BoxDoc, 'at' | 'lastN' | 'lastSenderId' | 'lastText' | 'readN' | 'isImportant' | 'deletedAt'>;
export const BOX_STATE_FIELDS = { at: 1, lastN: 1, lastSenderId: 1, lastText: 1, readN: 1, isImportant: 1, deletedAt: 1 } as const;

/**
 * The versions of a member's side of a thread: a numbered chain `{threadId}:{userId}#{v}` (lib/numbered-chain.ts),
 * each version the whole state after one change. Updates are not isolated on FerretDB, so the side document's own
 * fields can be written over by a concurrent change; a version is inserted, and only one writer gets each number,
 * so each change is applied to the state before it exactly once. The side document is a kept copy of some
 * version (`v`): readers read it and then the versions after it.
 */
const boxVersionSchema = new Schema(
  {
    _id: { type: String, required: true },
    threadId: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
    lastN: { type: Number, required: true },
    lastSenderId: { type: Schema.Types.ObjectId, required: true },
    lastText: { type: String, required: true },
    readN: { type: Number, required: true },
    isImportant: { type: Boolean, required: true },
    deletedAt: { type: Date, default: null },
  },
  { versionKey: false },
);

export type BoxVersionDoc = BoxState & { _id: string; threadId: string; userId: Types.ObjectId };

export const BoxVersionModel = model<BoxVersionDoc>('MessageBoxVersion', boxVersionSchema, 'message_box_versions');

/** A member's counts as `message/counts` answers them. */
export interface CountTotals {
  unread: number;
  important: number;
  deleted: number;
  total: number;
}

/**
 * A member's count changes: a numbered chain `{userId}#{n}`, one document per version of one of their sides that
 * changed a count, holding the counts after it (the chain's end is the member's counts). Each is appended by the
 * writer of the version it follows from, once.
 */
const countChangeSchema = new Schema(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    threadId: { type: String, required: true },
    /** The version of the member's side of the thread that made this change. */
    v: { type: Number, required: true },
    unread: { type: Number, required: true },
    important: { type: Number, required: true },
    deleted: { type: Number, required: true },
    total: { type: Number, required: true },
    /** When it was written (absent on changes from before it was kept): where a repair's read back stops. */
    writtenAt: { type: Date },
  },
  { versionKey: false },
);

countChangeSchema.index({ userId: 1 });

export type CountChangeDoc = CountTotals & { _id: string; userId: Types.ObjectId; threadId: string; v: number; writtenAt?: Date };

export const CountChangeModel = model<CountChangeDoc>('MessageCountChange', countChangeSchema, 'message_count_changes');

/**
 * A member's counts as of number `n` of their count changes, `_id` the member's id: a kept snapshot written after
 * each change, best-effort (a lost or late write only makes the reader read a few more changes after it).
 */
const countSnapshotSchema = new Schema(
  {
    _id: { type: String, required: true },
    n: { type: Number, required: true },
    unread: { type: Number, required: true },
    important: { type: Number, required: true },
    deleted: { type: Number, required: true },
    total: { type: Number, required: true },
  },
  { versionKey: false },
);

export type CountSnapshotDoc = CountTotals & { _id: string; n: number };

export const CountSnapshotModel = model<CountSnapshotDoc>('MessageCountSnapshot', countSnapshotSchema, 'message_counts');

/**
 * A member's thread activity: a numbered chain `{userId}#{k}`, one document per message that made one of their
 * threads the newest (`lastN`, that message's number). The inbox lists the chain from its end down; an entry is
 * the thread's place in the list while the member's side of the thread has that message as its last
 * (`lastN` equal), and a newer message's entry takes over from it.
 */
const inboxEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    threadId: { type: String, required: true },
    lastN: { type: Number, required: true },
    /**
     * Set by a reader that found every entry between this one and `below` standing for nothing (their threads have
     * newer messages, which stays so): the next reader goes straight there. The one field written after the insert.
     */
    below: { type: Number },
  },
  { versionKey: false },
);

inboxEntrySchema.index({ userId: 1 });

export type InboxEntryDoc = { _id: string; userId: Types.ObjectId; threadId: string; lastN: number; below?: number };

export const InboxEntryModel = model<InboxEntryDoc>('MessageInboxEntry', inboxEntrySchema, 'message_inbox_entries');

/** The number of a member's last thread activity entry as last written (best-effort: the reader reads on past it). */
const inboxHeadSchema = new Schema(
  {
    _id: { type: String, required: true },
    n: { type: Number, required: true },
  },
  { versionKey: false },
);

export const InboxHeadModel = model<{ _id: string; n: number }>('MessageInboxHead', inboxHeadSchema, 'message_inbox_heads');

/** A block: `{blockerId}:{blockedId}`, inserted to block and deleted to unblock. */
const blockSchema = new Schema(
  {
    _id: { type: String, required: true },
    blockerId: { type: Schema.Types.ObjectId, required: true },
    blockedId: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

export const BlockModel = model('MessageBlock', blockSchema, 'message_blocks');

export const blockKey = (blockerId: string, blockedId: string) => `${blockerId}:${blockedId}`;

/**
 * The claim of a new-message mail, `{senderId}:{receiverId}:{hour}` (hours counted from the Unix epoch): inserted
 * before mailing, so that in any number of processes a sender mails a receiver at most once per clock hour.
 */
const mailClaimSchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

export const MailClaimModel = model('MessageMailClaim', mailClaimSchema, 'message_mail_claims');

/**
 * A change of messages on its way (messages.pending.ts), marked before its first write and cleared after its last:
 * - `version|{threadId}:{userId}|{v}|{nonce}`: a side's version, cleared once its count change is appended (each
 *   writer marks its own try, so one that loses the number to another clears only its own mark);
 * - `message|{threadId}|{senderId}|{nonce}`: a reply, cleared once both members' sides took it;
 * - `thread|{threadId}`: a new thread, cleared once both members' sides exist.
 */
const messagePendingSchema = new Schema(
  {
    _id: { type: String, required: true },
    kind: { type: String, enum: ['version', 'message', 'thread'], default: undefined },
    threadId: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, default: undefined },
    v: { type: Number, default: undefined },
    senderId: { type: String, default: undefined },
    receiverId: { type: String, default: undefined },
    writtenAt: { type: Date, required: true },
  },
  { versionKey: false },
);

/** A version's mark. */
export interface VersionPendingDoc {
  _id: string;
  kind: 'version';
  threadId: string;
  userId: Types.ObjectId;
  v: number;
  writtenAt: Date;
}

/** A reply's (`message`) or a new thread's (`thread`) mark: the two members whose sides must take its message. */
export interface MessageStepPendingDoc<Kind extends 'message' | 'thread' = 'message' | 'thread'> {
  _id: string;
  kind: Kind;
  threadId: string;
  senderId: string;
  receiverId: string;
  writtenAt: Date;
}

export type MessagePendingDoc = VersionPendingDoc | MessageStepPendingDoc<'message'> | MessageStepPendingDoc<'thread'>;

export const MessagePendingModel = model<MessagePendingDoc>('MessagePending', messagePendingSchema, 'message_pending');
