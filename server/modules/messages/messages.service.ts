/**
 * Messages between members, and between members and support: threads, replies, each member's inbox (read,
 * important, deleted and restored per member), blocks, and the mail that tells a member a message waits.
 *
 * A thread's messages are a numbered chain (lib/numbered-chain.ts), so replies written at once, in any process, are
 * all kept in order. Each member's side of a thread is one document read by `_id` (`{threadId}:{userId}`), whose
 * changes are inserted versions; a member's counts and thread lists are chains of inserted facts read by `_id`
 * (messages.state.ts), so no request reads the sides by a filter.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Types } from 'mongoose';
import type { Mailer } from '../../integrations/mail';
import { AppError, badRequest, notFound, type FieldError } from '../../lib/errors';
import type { AuthContext } from '../../lib/auth-context';
import { isAdmin } from '../../lib/permissions';
import type { Logger } from '../../lib/logger';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import { numberedChains } from '../../lib/numbered-chain';
import { decodePageCursor, encodePageCursor } from '../../lib/page-cursor';
import { insertWhole, readById } from '../../lib/query';
import { consumeLimit } from '../../lib/rate-limit';
import type { Schemas } from '../../lib/openapi-types';
import { createAccount, findUserByEmail, userReads, type UserDoc } from '../users';
import { newMessageMail } from './messages.mails';
import { toMessageDto, toThreadDto, type Person, PERSON_FIELDS } from './messages.mapper';
import {
  BlockModel,
  blockKey,
  BoxModel,
  boxKey,
  MailClaimModel,
  MessageModel,
  ThreadModel,
  type BoxDoc,
  type MessageDoc,
  type ThreadDoc,
} from './messages.model';
import { markReply, markThread, messageSteps } from './messages.pending';
import { addInboxEntry, changeBox, countsOf, currentBox, finishVersion, firstVersion, forgetMessageStates, threadListPage } from './messages.state';

export const MESSAGE_MESSAGES = {
  required: 'Enter all required input fields',
  subjectTooLong: 'A subject can be at most 200 characters.',
  messageTooLong: 'A message can be at most 5,000 characters.',
  toSelf: 'You cannot send a message to yourself.',
  blocked: 'This member does not accept your messages.',
  blockSelf: 'You cannot block yourself.',
  wrongReceiver: 'A reply goes to the other member of the conversation.',
  tooMany: 'You are sending messages too fast. Please wait a minute.',
  noMember: 'This member does not exist.',
  noThread: 'This conversation was not found.',
  sent: 'A message was sent to {receiver}',
  replied: 'A reply message was sent to {receiver}',
  deleted: 'The conversation is moved to Deleted.',
  restored: 'The conversation is back in your inbox.',
  blockedNow: 'You will not receive messages from {member}, and neither of you follows the other any more.',
  unblockedNow: '{member} can send you messages again.',
  success: 'Success',
} as const;

/** The recipient the message modal lists as 'Admin': the support account. */
export const ADMIN_RECIPIENT = 'admin';
const SUPPORT_NAME = 'Admin';
export const SUBJECT_MAX_CHARS = 200;
export const MESSAGE_MAX_CHARS = 5000;
/** Messages a member may send in a minute: a person writing, not a script. */
export const MESSAGE_LIMIT = { max: 20, windowMs: 60_000 };
/** At most one new-message mail per sender and receiver in this span (a clock hour). */
export const MAIL_EVERY_MS = 3_600_000;
const MAX_PAGE = 50;
const MESSAGES_PER_PAGE = 50;

type Counts = Schemas['MessageCounts'];
type LastOfChain = Pick<MessageDoc, 'at' | 'senderId' | 'text'>;

/** A thread's messages, numbered from 1: `{threadId}-{n}`. */
const chains = numberedChains<LastOfChain>(MessageModel, { separator: '-', projection: { at: 1, senderId: 1, text: 1 } });
/**
 * A member's side takes message `n` of the thread (`last`: its time, sender and text): an entry at the top of their
 * list first, then the side's new version. The sender has read their own message; a message brings a deleted
 * conversation back to the inbox; a slower writer of an earlier message leaves the newer last message in place.
 */
async function takeMessage(threadId: string, member: string, n: number, last: LastOfChain): Promise<void> {
  await addInboxEntry(new Types.ObjectId(member), threadId, n);
  await changeBox(threadId, member, (side) => ({
    ...side,
    ...(n > side.lastN ? { at: last.at, lastN: n, lastSenderId: last.senderId, lastText: last.text } : {}),
    readN: member === String(last.senderId) ? Math.max(side.readN, n) : side.readN,
    deletedAt: null,
  }));
}

/**
 * A member's side of a new thread, holding its first message: the thread goes on their list before the side exists
 * (the list shows a thread once its side has the message), then the side and its first version. Answers whether it
 * wrote the side (false: it was there already, and is left as it is).
 */
async function openSide(thread: Pick<ThreadDoc, '_id' | 'subject'>, userId: string, otherId: string, first: LastOfChain): Promise<boolean> {
  await addInboxEntry(new Types.ObjectId(userId), thread._id, 1);
  const box: BoxDoc = {
    _id: boxKey(thread._id, userId),
    threadId: thread._id,
    userId: new Types.ObjectId(userId),
    otherId: new Types.ObjectId(otherId),
    subject: thread.subject,
    at: first.at,
    lastN: 1,
    lastSenderId: first.senderId,
    lastText: first.text,
    readN: userId === String(first.senderId) ? 1 : 0,
    isImportant: false,
    deletedAt: null,
    v: 1,
  };
  try {
    await insertWhole(BoxModel, box);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return false;
  }
  await firstVersion(box);
  return true;
}

/**
 * A reply whose process died before both members' sides took it: each side behind the thread's last message takes
 * it, as the reply would have (the thread's end, which a later reply may have moved on: its sides then have it, and
 * nothing is written). A side that has the last message is not touched, so a conversation its member deleted since
 * stays deleted. Answers the members whose side it moved.
 */
async function finishReply(threadId: string, members: string[]): Promise<string[]> {
  const end = await chains.end(threadId, true);
  if (!end.doc) return [];
  const moved: string[] = [];
  for (const member of members) {
    const side = await currentBox(threadId, member);
    if (side && side.lastN < end.n) {
      await takeMessage(threadId, member, end.n, end.doc);
      moved.push(member);
    }
  }
  return moved;
}

/**
 * A new thread whose process died before both sides were written: when its first message is there, each missing side
 * is written (the sender was answered an error, but the message was sent). Without its first message nothing was
 * sent, and the thread stays out of sight. Answers the members whose side it wrote.
 */
async function finishThread(threadId: string, senderId: string, receiverId: string): Promise<string[]> {
  const [thread, first] = await Promise.all([readById<ThreadDoc>(ThreadModel, threadId), readById<MessageDoc>(MessageModel, chains.idOf(threadId, 1))]);
  if (!thread || !first) return [];
  const pairs: [string, string][] = [
    [senderId, receiverId],
    [receiverId, senderId],
  ];
  // Only a side that is missing: one already written keeps its list as it is (no second entry for the thread).
  const missing = await Promise.all(pairs.map(async ([userId]) => !(await readById(BoxModel, boxKey(threadId, userId), { _id: 1 }))));
  const written = await Promise.all(pairs.map(([userId, otherId], i) => (missing[i] ? openSide(thread, userId, otherId, first) : Promise.resolve(false))));
  return pairs.flatMap(([userId], i) => (written[i] ? [userId] : []));
}

/** Forgets every chain end this process remembers (threads, sides, counts, lists), for tests that empty the collections. */
export function forgetMessageThreads(): void {
  chains.forget();
  forgetMessageStates();
}

const chars = (text: string) => [...text].length;
const pageSize = (limit: number | undefined) => Math.min(Math.max(limit ?? 20, 1), MAX_PAGE);
const nameOf = (person: Pick<UserDoc, 'fullName' | 'firstName' | 'lastName' | 'username'>) =>
  person.fullName || [person.firstName, person.lastName].filter(Boolean).join(' ') || person.username;
const isObjectId = (id: string) => /^[0-9a-f]{24}$/.test(id);
/** A thread's id from its own id or any of its messages' ids (`{threadId}-{n}`). */
const threadIdOf = (id: string) => id.split('-')[0]!;

/** The support account's id, its account made when missing (safe at once in several processes: the email is unique). */
export async function ensureSupportAccount(supportEmail: string): Promise<string> {
  const existing = await findUserByEmail(supportEmail);
  if (existing) return String(existing._id);
  try {
    const fields = { firstName: 'Knack', lastName: 'Support', fullName: 'Knack Support', isActive: true };
    return String((await createAccount({ email: supportEmail.toLowerCase(), username: 'knack_support', ...fields }))._id);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    // Another process claimed the email's key first and may still be inserting the account: it is there within
    // moments (or its claim is given back and then this lookup still finds nobody, and the error stands).
    for (let tries = 0; tries < SUPPORT_RACE_TRIES; tries += 1) {
      const raced = await findUserByEmail(supportEmail);
      if (raced) return String(raced._id);
      await sleep(100);
    }
    throw err;
  }
}

/** How many times (100 ms apart) a process that lost the race to make the support account looks for the winner's. */
const SUPPORT_RACE_TRIES = 50;

/** Whether `blockerId` blocks `blockedId` (one read by the block's key). */
export const hasBlocked = async (blockerId: string, blockedId: string) => Boolean(await readById(BlockModel, blockKey(blockerId, blockedId), { _id: 1 }));

export interface MessagesDeps {
  mailer: Mailer;
  publicUrl: string;
  supportEmail: string;
  logger: Logger;
  /** Ends the follows between two members, both ways: a block does (the follows are another module's). */
  endFollowsBetween: (memberId: string, otherId: string) => Promise<void>;
}

export function createMessagesService({ mailer, publicUrl, supportEmail, logger, endFollowsBetween }: MessagesDeps) {
  const log = logger.child({ module: 'messages' });
  let supportId: string | null = null;

  /** The support account's id; made again should it have gone (a test emptying the database). */
  async function supportAccountId(): Promise<string> {
    if (supportId && (await userReads.byIdShared(new Types.ObjectId(supportId), { _id: 1 }))) return supportId;
    return (supportId = await ensureSupportAccount(supportEmail));
  }

  /** The member the caller acts as: themself, or (for an admin) the support account. Anyone else: 404. */
  async function actingAs(caller: AuthContext, userId: string): Promise<string> {
    if (userId === caller.userId) return userId;
    if (isAdmin(caller) && isObjectId(userId) && userId === (await supportAccountId())) return userId;
    throw notFound(MESSAGE_MESSAGES.noMember);
  }

  /** The thread and the member of it the caller acts as (an admin answers for support); 404 to anyone else. */
  async function threadFor(caller: AuthContext, id: string): Promise<{ thread: ThreadDoc; me: string; other: string }> {
    const threadId = threadIdOf(id);
    const thread = isObjectId(threadId) ? await readById<ThreadDoc>(ThreadModel, threadId) : null;
    const members = thread?.memberIds.map(String) ?? [];
    let me = members.includes(caller.userId) ? caller.userId : null;
    if (!me && isAdmin(caller)) {
      const support = await supportAccountId();
      if (members.includes(support)) me = support;
    }
    if (!thread || !me) throw notFound(MESSAGE_MESSAGES.noThread);
    return { thread, me, other: members.find((member) => member !== me) ?? me };
  }

  const people = async (ids: string[]) => {
    const found = await Promise.all([...new Set(ids)].map((id) => userReads.byIdShared<Person>(new Types.ObjectId(id), PERSON_FIELDS)));
    return new Map(found.flatMap((person) => (person ? [[String(person._id), person] as const] : [])));
  };

  function checkedText(fields: Record<string, string | undefined>, limits: Record<string, [number, string]>): Record<string, string> {
    const texts = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, (value ?? '').trim()]));
    const missing: FieldError[] = Object.entries(texts).flatMap(([path, text]) => (text ? [] : [{ path, message: MESSAGE_MESSAGES.required }]));
    if (missing.length) throw badRequest(MESSAGE_MESSAGES.required, missing);
    for (const [path, [max, message]] of Object.entries(limits)) if (chars(texts[path]!) > max) throw badRequest(message, [{ path, message }]);
    return texts;
  }

  /** Refuses a message the receiver has blocked, and a sender over the limit. */
  async function mayWrite(caller: AuthContext, senderId: string, receiverId: string, now: Date): Promise<void> {
    if (await hasBlocked(receiverId, senderId)) throw new AppError(403, 'forbidden', MESSAGE_MESSAGES.blocked);
    await consumeLimit(`message:${caller.userId}`, MESSAGE_LIMIT, MESSAGE_MESSAGES.tooMany, now);
  }

  /** Mails the receiver about a new message, at most once per clock hour per sender, never when news is off. */
  async function mailReceiver(sender: Person, receiverId: string, subject: string, threadId: string, now: Date): Promise<void> {
    try {
      const receiver = await userReads.byId<Pick<UserDoc, 'email' | 'willReceiveNews'>>(new Types.ObjectId(receiverId), { email: 1, willReceiveNews: 1 });
      if (!receiver || receiver.willReceiveNews === false) return;
      const hour = Math.floor(now.getTime() / MAIL_EVERY_MS);
      try {
        await insertWhole(MailClaimModel, { _id: `${String(sender._id)}:${receiverId}:${hour}`, at: now });
      } catch (err) {
        if (isDuplicateKey(err)) return;
        throw err;
      }
      await mailer.send(newMessageMail(receiver.email, nameOf(sender), subject, `${publicUrl}/inbox?thread=${threadId}`));
    } catch (err) {
      // The message is kept whatever happens to its mail: the inbox shows it.
      log.error({ err }, 'new message mail failed');
    }
  }

  /**
   * A thread's last message, read on from the member's side (whose last message exists), so that a process that has
   * not seen the thread reads a message or two rather than searching from the thread's start.
   */
  const threadEnd = (threadId: string, box: BoxDoc) =>
    chains.end(threadId, true, box.lastN > 0 ? { n: box.lastN, doc: { at: box.at, senderId: box.lastSenderId, text: box.lastText } } : undefined);

  async function appendMessage(thread: Pick<ThreadDoc, '_id' | 'subject'>, senderId: string, receiverId: string, text: string, now: Date) {
    const { n, id, doc } = await chains.append(thread._id, () => ({
      threadId: thread._id,
      senderId: new Types.ObjectId(senderId),
      receiverId: new Types.ObjectId(receiverId),
      text,
      at: now,
    }));
    faultPoint(FAULT_POINTS.messageAfterAppend);
    return { n, doc: { ...doc, _id: id } };
  }

  /**
   * A page of the member's threads (deleted or not), newest activity first, read by key from their thread activity
   * (messages.state.ts). The cursor holds the activity entry to read on from and the last one read that still
   * stands (for the pointer past a run of entries that stand for nothing, should the run go on into the next page).
   */
  async function listOf(userId: string, deleted: boolean, cursor: string | undefined, limit: number | undefined): Promise<Schemas['MessageThreadPage']> {
    const size = pageSize(limit);
    const list = `${deleted ? 'deleted-threads' : 'threads'}:${userId}`;
    const start = decodePageCursor(list, cursor, (below, key) => {
      const [owner, above] = typeof key === 'string' ? key.split('|') : [];
      const position = { below: typeof below === 'number' ? below : NaN, above: Number(above) };
      return owner === userId && Number.isSafeInteger(position.below) && position.below >= 1 && Number.isSafeInteger(position.above) && position.above >= 0
        ? position
        : null;
    });
    const page = await threadListPage(userId, deleted, start, size);
    const byId = await people(page.boxes.map((box) => String(box.otherId)));
    return {
      threads: page.boxes.map((box) => toThreadDto(box, byId.get(String(box.otherId)))),
      nextCursor: page.next && encodePageCursor(list, page.next.below, `${userId}|${page.next.above}`),
    };
  }

  /**
   * A new thread of one message, with both members' sides, and the mail to the receiver. Marked before its first write
   * and cleared after the sides: a process that dies between them leaves the rest to the message-repairs job.
   */
  async function openThread(senderId: string, receiverId: string, subject: string, message: string, now: Date) {
    const threadId = new Types.ObjectId().toHexString();
    const thread: ThreadDoc = { _id: threadId, subject, memberIds: [new Types.ObjectId(senderId), new Types.ObjectId(receiverId)], at: now };
    const mark = await markThread(threadId, senderId, receiverId);
    await insertWhole(ThreadModel, thread);
    const { doc } = await appendMessage(thread, senderId, receiverId, message, now);
    await Promise.all([openSide(thread, senderId, receiverId, doc), openSide(thread, receiverId, senderId, doc)]);
    await messageSteps.clear(mark);
    const byId = await people([senderId, receiverId]);
    await mailReceiver(byId.get(senderId)!, receiverId, subject, threadId, now);
    return { threadId, doc, byId };
  }

  /** The receiver as the sender chose them: the support account is the recipient list's 'Admin'. */
  const recipientName = async (receiverId: string, person: Person | undefined) =>
    receiverId === (await supportAccountId()) ? SUPPORT_NAME : person ? nameOf(person) : 'A former member';

  async function receiverOf(receiverId: string): Promise<string> {
    if (receiverId === ADMIN_RECIPIENT) return supportAccountId();
    // By `_id` alone (any other field in the filter would scan the members on FerretDB), then its flag.
    const receiver = isObjectId(receiverId) ? await userReads.byId<Pick<UserDoc, 'isActive'>>(new Types.ObjectId(receiverId), { isActive: 1 }) : null;
    if (!receiver?.isActive) throw notFound(MESSAGE_MESSAGES.noMember);
    return receiverId;
  }

  return {
    supportAccountId,

    async supportAccount(): Promise<Schemas['SupportAccount']> {
      const id = await supportAccountId();
      return { id, recipientId: ADMIN_RECIPIENT, name: SUPPORT_NAME };
    },

    async create(caller: AuthContext, request: { senderId: string; receiverId?: string; subject?: string; message?: string }, now = new Date()) {
      const senderId = await actingAs(caller, request.senderId);
      const {
        receiverId: rawReceiver,
        subject,
        message,
      } = checkedText(
        { receiverId: request.receiverId, subject: request.subject, message: request.message },
        { subject: [SUBJECT_MAX_CHARS, MESSAGE_MESSAGES.subjectTooLong], message: [MESSAGE_MAX_CHARS, MESSAGE_MESSAGES.messageTooLong] },
      );
      const receiverId = await receiverOf(rawReceiver!);
      if (receiverId === senderId) throw badRequest(MESSAGE_MESSAGES.toSelf, [{ path: 'receiverId', message: MESSAGE_MESSAGES.toSelf }]);
      await mayWrite(caller, senderId, receiverId, now);
      const { threadId, doc, byId } = await openThread(senderId, receiverId, subject!, message!, now);
      const receiver = byId.get(receiverId);
      const senderBox = (await currentBox(threadId, senderId))!;
      return {
        message: MESSAGE_MESSAGES.sent.replace('{receiver}', await recipientName(receiverId, receiver)),
        thread: toThreadDto(senderBox, receiver),
        item: toMessageDto(doc, 1, byId),
      };
    },

    /**
     * A notice from Knack (its support account) in a member's inbox, such as a sale waiting for their signature:
     * a new thread they can answer like any other, and the new-message mail.
     */
    async notify(receiverId: string, subject: string, text: string, now = new Date()): Promise<void> {
      await openThread(await supportAccountId(), receiverId, subject, text, now);
    },

    /**
     * The message-repairs job: every change of messages marked more than MESSAGE_CHANGE_GRACE_MS ago
     * (messages.pending.ts) is finished (a version's count change, a reply's sides, a new thread's sides), then its
     * mark cleared; a receiver whose side it gave the message gets the new-message mail the request would have sent.
     * It reads the marks whole: only the changes under way. Safe to run again at any point. Answers the marks seen and
     * those finished.
     */
    async repairLostSteps(now = new Date()): Promise<{ marks: number; finished: number }> {
      const { marks, repaired } = await messageSteps.repairDue(async (mark) => {
        // Marks written before replies and threads were marked have no `kind`: they are all versions.
        if (mark.kind !== 'message' && mark.kind !== 'thread') return finishVersion(mark);
        const { threadId, senderId, receiverId } = mark;
        const took = mark.kind === 'message' ? await finishReply(threadId, [senderId, receiverId]) : await finishThread(threadId, senderId, receiverId);
        if (took.includes(receiverId)) {
          const [thread, byId] = await Promise.all([readById<ThreadDoc>(ThreadModel, threadId), people([senderId])]);
          const sender = byId.get(senderId);
          if (thread && sender) await mailReceiver(sender, receiverId, thread.subject, threadId, now);
        }
        return took.length;
      }, now);
      return { marks, finished: repaired };
    },

    async reply(caller: AuthContext, request: { senderId: string; messageId: string; receiverId?: string; message?: string }, now = new Date()) {
      const senderId = await actingAs(caller, request.senderId);
      const { thread, me, other } = await threadFor(caller, request.messageId);
      if (me !== senderId) throw notFound(MESSAGE_MESSAGES.noThread);
      const { receiverId, message } = checkedText(
        { receiverId: request.receiverId, message: request.message },
        { message: [MESSAGE_MAX_CHARS, MESSAGE_MESSAGES.messageTooLong] },
      );
      const receiver = receiverId === ADMIN_RECIPIENT ? await supportAccountId() : receiverId;
      if (receiver !== other) throw badRequest(MESSAGE_MESSAGES.wrongReceiver, [{ path: 'receiverId', message: MESSAGE_MESSAGES.wrongReceiver }]);
      if (!(await userReads.exists({ _id: new Types.ObjectId(other) }))) throw notFound(MESSAGE_MESSAGES.noMember);
      await mayWrite(caller, senderId, other, now);
      // A process that has not seen this thread reads on from the sender's side, not from the thread's start.
      const mine = (await chains.end(thread._id, false)).n === 0 ? await currentBox(thread._id, senderId) : null;
      if (mine) await threadEnd(thread._id, mine);
      // Marked before the message and cleared once both sides took it: the message-repairs job finishes the rest of
      // a reply whose process died in between.
      const mark = await markReply(thread._id, senderId, other);
      const { n, doc } = await appendMessage(thread, senderId, other, message!, now);
      await Promise.all([takeMessage(thread._id, senderId, n, doc), takeMessage(thread._id, other, n, doc)]);
      await messageSteps.clear(mark);
      const byId = await people([senderId, other]);
      await mailReceiver(byId.get(senderId)!, other, thread.subject, thread._id, now);
      const receiverPerson = byId.get(other);
      const senderBox = (await currentBox(thread._id, senderId))!;
      return {
        message: MESSAGE_MESSAGES.replied.replace('{receiver}', await recipientName(other, receiverPerson)),
        thread: toThreadDto(senderBox, receiverPerson),
        item: toMessageDto(doc, n, byId),
      };
    },

    async inbox(caller: AuthContext, userId: string, cursor?: string, limit?: number) {
      return listOf(await actingAs(caller, userId), false, cursor, limit);
    },

    async deletedList(caller: AuthContext, userId: string, cursor?: string, limit?: number) {
      return listOf(await actingAs(caller, userId), true, cursor, limit);
    },

    async counts(caller: AuthContext, userId: string): Promise<Counts> {
      return countsOf(await actingAs(caller, userId));
    },

    /** A thread's messages, the oldest first, a page at a time going back (by number: reads by `_id`). */
    async thread(caller: AuthContext, id: string, cursor?: string): Promise<Schemas['MessageThreadView']> {
      const { thread, me, other } = await threadFor(caller, id);
      const box = await currentBox(thread._id, me);
      if (!box) throw notFound(MESSAGE_MESSAGES.noThread);
      const end = (await threadEnd(thread._id, box)).n;
      const below = cursor
        ? (decodePageCursor(`thread:${thread._id}`, cursor, (n, key) =>
            Number.isSafeInteger(n) && (n as number) >= 1 && key === thread._id ? (n as number) : null,
          ) ?? end + 1)
        : end + 1;
      const first = Math.max(1, below - MESSAGES_PER_PAGE);
      const numbers = Array.from({ length: Math.max(0, below - first) }, (_, i) => first + i);
      const docs = await Promise.all(numbers.map((n) => readById<MessageDoc>(MessageModel, chains.idOf(thread._id, n))));
      const [byId, blocked] = await Promise.all([people([me, other]), readById(BlockModel, blockKey(me, other), { _id: 1 })]);
      return {
        thread: toThreadDto(box, byId.get(other)),
        messages: docs.flatMap((doc, i) => (doc ? [toMessageDto(doc, numbers[i]!, byId)] : [])),
        earlierCursor: first > 1 ? encodePageCursor(`thread:${thread._id}`, first, thread._id) : null,
        blockedByMe: Boolean(blocked),
      };
    },

    async setDeleted(caller: AuthContext, id: string, deleted: boolean, now = new Date()) {
      const { thread, me } = await threadFor(caller, id);
      await changeBox(thread._id, me, (side) => ({ ...side, deletedAt: deleted ? (side.deletedAt ?? now) : null }));
      return { message: deleted ? MESSAGE_MESSAGES.deleted : MESSAGE_MESSAGES.restored, counts: await countsOf(me) };
    },

    async setImportant(caller: AuthContext, request: { userId: string; messageId: string; isImportant: boolean }) {
      const userId = await actingAs(caller, request.userId);
      const { thread, me } = await threadFor(caller, request.messageId);
      if (me !== userId) throw notFound(MESSAGE_MESSAGES.noThread);
      await changeBox(thread._id, me, (side) => ({ ...side, isImportant: request.isImportant }));
      return { message: MESSAGE_MESSAGES.success, isImportant: request.isImportant, counts: await countsOf(me) };
    },

    /** Marks the thread read up to its last message (or unread again, with `isRead: false`). */
    async updateRead(caller: AuthContext, request: { userId: string; messageId: string; isRead?: boolean }) {
      const userId = await actingAs(caller, request.userId);
      const { thread, me } = await threadFor(caller, request.messageId);
      if (me !== userId) throw notFound(MESSAGE_MESSAGES.noThread);
      const box = await currentBox(thread._id, me);
      if (!box) throw notFound(MESSAGE_MESSAGES.noThread);
      const end = (await threadEnd(thread._id, box)).n;
      // Unread again: the side's own last message is the one left unread.
      await changeBox(thread._id, me, (side) => ({ ...side, readN: request.isRead === false ? Math.max(0, side.lastN - 1) : Math.max(side.readN, end) }));
      return { message: MESSAGE_MESSAGES.success, counts: await countsOf(me) };
    },

    async block(caller: AuthContext, request: { userId: string; blockedId: string; block: boolean }, now = new Date()) {
      const userId = await actingAs(caller, request.userId);
      if (request.blockedId === userId) throw badRequest(MESSAGE_MESSAGES.blockSelf, [{ path: 'blockedId', message: MESSAGE_MESSAGES.blockSelf }]);
      const member = await userReads.byId<Person>(new Types.ObjectId(request.blockedId), PERSON_FIELDS);
      if (!member) throw notFound(MESSAGE_MESSAGES.noMember);
      const _id = blockKey(userId, request.blockedId);
      if (request.block) {
        await insertWhole(BlockModel, { _id, blockerId: new Types.ObjectId(userId), blockedId: member._id, at: now }).catch((err: unknown) => {
          if (!isDuplicateKey(err)) throw err; // blocked already
        });
        // After the block is in: a follow sent meanwhile either is there now and ends here, or finds the block when it
        // looks again after its insert. Ended on a repeated block too, should a first one have stopped half-way.
        await endFollowsBetween(userId, request.blockedId);
      } else {
        await BlockModel.deleteOne({ _id });
      }
      const text = request.block ? MESSAGE_MESSAGES.blockedNow : MESSAGE_MESSAGES.unblockedNow;
      return { message: text.replace('{member}', nameOf(member)), blocked: request.block };
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
