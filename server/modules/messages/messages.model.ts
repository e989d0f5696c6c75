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
  },
  { versionKey: false },
);
boxSchema.index({ userId: 1, at: -1, _id: -1 });

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
}

export const BoxModel = model<BoxDoc>('MessageBox', boxSchema, 'message_boxes');

export const boxKey = (threadId: string, userId: string) => `${threadId}:${userId}`;

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
