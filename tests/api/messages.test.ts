/**
 * Messages on the real database: writing and replying (threads, the exact messages, required fields, lengths),
 * the inbox newest activity first and paged by key, counts, read and important marks, per-member delete and
 * restore, blocks, the 'Admin' recipient and the support inbox admins answer, the rate limit, the new-message mail
 * (once an hour per sender, never with news off), and 404 for a third member on every call.
 */
import request from 'supertest';
import type { MailMessage, Mailer } from '../../server/integrations/mail';
import { signAccessToken } from '../../server/lib/access-token';
import { countHit } from '../../server/lib/rate-limit';
import { BoxModel, InboxEntryModel, MESSAGE_LIMIT, MESSAGE_MESSAGES, MessageModel, messagesExportOf, removeMessagesOf } from '../../server/modules/messages';
import { FollowModel } from '../../server/modules/follows';
import { UserModel } from '../../server/modules/users';
import { createTestApp, testConfig } from '../helpers/app';
import { freezeDate, freezeInWindow } from '../helpers/clock';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, type TestMember } from '../helpers/ledger-factory';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let mails: MailMessage[];
let ana: TestMember;
let bea: TestMember;
let cid: TestMember;

const recordingMailer: Mailer = { kind: 'outbox', send: async (mail) => void mails.push(mail) };

interface Thread {
  id: string;
  subject: string;
  otherId: string;
  lastMessage: string;
  messagesCount: number;
  isRead: boolean;
  isImportant: boolean;
  isDeleted: boolean;
}

const write = (from: TestMember, body: Record<string, unknown>) =>
  request(app)
    .post('/api/v2/message/create')
    .set(bearer(from))
    .send({ senderId: from.id, ...body });
const reply = (from: TestMember, body: Record<string, unknown>) =>
  request(app)
    .post('/api/v2/message/reply')
    .set(bearer(from))
    .send({ senderId: from.id, ...body });
const get = (as: TestMember, path: string) => request(app).get(`/api/v2/message/${path}`).set(bearer(as));
const post = (as: TestMember, path: string, body: Record<string, unknown> = {}) => request(app).post(`/api/v2/message/${path}`).set(bearer(as)).send(body);
const inboxOf = async (member: TestMember, id = member.id): Promise<Thread[]> => (await get(member, `by-receiverId/${id}`).expect(200)).body.threads;
const countsOf = async (member: TestMember) => (await get(member, `counts/${member.id}`).expect(200)).body;

/** Ana writes to Bea; answers the new thread's id. */
async function start(subject = 'Hello', message = 'Loved your last song.'): Promise<string> {
  const res = await write(ana, { receiverId: bea.id, subject, message }).expect(201);
  return res.body.thread.id as string;
}

beforeAll(() => {
  app = createTestApp({ mailer: recordingMailer });
});

beforeEach(async () => {
  await clearDatabase();
  mails = [];
  [ana, bea, cid] = await Promise.all([createMember(), createMember(), createMember()]);
  await UserModel.updateOne({ _id: bea.id }, { $set: { fullName: 'Bea Stone' } });
  await UserModel.updateOne({ _id: ana.id }, { $set: { fullName: 'Ana Reed' } });
});

describe('writing a message', () => {
  it('when a member writes to another, then the toast names the receiver, and the thread is in both inboxes', async () => {
    const res = await write(ana, { receiverId: bea.id, subject: '  Hello  ', message: ' Loved <b>it</b>. ' }).expect(201);
    expect(res.body.message).toBe('A message was sent to Bea Stone');
    expect(res.body.item).toMatchObject({ n: 1, senderId: ana.id, receiverId: bea.id, message: 'Loved <b>it</b>.', senderName: 'Ana Reed' });
    const [mine] = await inboxOf(ana);
    expect(mine).toMatchObject({ id: res.body.thread.id, subject: 'Hello', otherId: bea.id, isRead: true, messagesCount: 1 });
    const [theirs] = await inboxOf(bea);
    expect(theirs).toMatchObject({ id: res.body.thread.id, otherId: ana.id, otherName: 'Ana Reed', isRead: false, lastMessage: 'Loved <b>it</b>.' });
    expect(await countsOf(bea)).toEqual({ unread: 1, important: 0, deleted: 0, total: 1 });
  });

  it.each([
    ['receiver', { subject: 'Hi', message: 'Text' }],
    ['empty receiver', { receiverId: '', subject: 'Hi', message: 'Text' }],
    ['subject', { message: 'Text' }],
    ['blank subject', { subject: '   ', message: 'Text' }],
    ['message', { subject: 'Hi' }],
  ])('when the %s is missing, then "Enter all required input fields" and nothing is written', async (_what, body) => {
    const withReceiver = 'receiverId' in body || _what !== 'receiver' ? { receiverId: bea.id, ...body } : body;
    const res = await write(ana, withReceiver).expect(400);
    expect(res.body.message).toBe('Enter all required input fields');
    expect(await MessageModel.countDocuments({})).toBe(0);
  });

  it('when the text is too long, or the receiver is oneself or nobody, then the exact message', async () => {
    expect((await write(ana, { receiverId: bea.id, subject: 'x'.repeat(201), message: 'Hi' }).expect(400)).body.message).toBe(MESSAGE_MESSAGES.subjectTooLong);
    expect((await write(ana, { receiverId: bea.id, subject: 'Hi', message: '😀'.repeat(5001) }).expect(400)).body.message).toBe(
      MESSAGE_MESSAGES.messageTooLong,
    );
    await write(ana, { receiverId: bea.id, subject: 'Hi', message: '😀'.repeat(5000) }).expect(201);
    expect((await write(ana, { receiverId: ana.id, subject: 'Hi', message: 'Me' }).expect(400)).body.message).toBe(MESSAGE_MESSAGES.toSelf);
    expect((await write(ana, { receiverId: '0123456789abcdef01234567', subject: 'Hi', message: 'Hi' }).expect(404)).body.message).toBe(
      MESSAGE_MESSAGES.noMember,
    );
    await request(app).post('/api/v2/message/create').send({ senderId: ana.id, receiverId: bea.id, subject: 'Hi', message: 'Hi' }).expect(401);
  });
});

describe('replies and threads', () => {
  it('when the receiver replies, then the reply joins the thread, the toast names the receiver and the sender sees it unread', async () => {
    const threadId = await start();
    await post(bea, 'update-read', { userId: bea.id, messageId: threadId }).expect(200);
    const res = await reply(bea, { messageId: `${threadId}-1`, receiverId: ana.id, message: 'Thank you!' }).expect(201);
    expect(res.body.message).toBe('A reply message was sent to Ana Reed');
    expect(res.body.item).toMatchObject({ id: `${threadId}-2`, threadId, n: 2, senderId: bea.id, receiverId: ana.id });
    const view = (await get(ana, `thread/${threadId}`).expect(200)).body;
    expect(view.messages.map((m: { message: string }) => m.message)).toEqual(['Loved your last song.', 'Thank you!']);
    expect(view.thread).toMatchObject({ isRead: false, lastMessage: 'Thank you!', messagesCount: 2 });
    expect(await countsOf(ana)).toMatchObject({ unread: 1, total: 1 });
    expect(await countsOf(bea)).toMatchObject({ unread: 0, total: 1 });
  });

  it('when a reply misses its receiver or text, or names someone else, then the exact message', async () => {
    const threadId = await start();
    expect((await reply(bea, { messageId: threadId, message: 'Hi' }).expect(400)).body.message).toBe('Enter all required input fields');
    expect((await reply(bea, { messageId: threadId, receiverId: ana.id, message: '  ' }).expect(400)).body.message).toBe('Enter all required input fields');
    expect((await reply(bea, { messageId: threadId, receiverId: cid.id, message: 'Hi' }).expect(400)).body.message).toBe(MESSAGE_MESSAGES.wrongReceiver);
  });

  it('when 20 replies are sent at once in one thread, then all are kept, numbered in order without gaps', async () => {
    const threadId = await start();
    const replies = Array.from({ length: 20 }, (_, i) => {
      const [from, to] = i % 2 ? [ana, bea] : [bea, ana];
      return reply(from, { messageId: threadId, receiverId: to.id, message: `Reply ${i}` });
    });
    const answers = await Promise.all(replies);
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(201));
    const view = (await get(bea, `thread/${threadId}`).expect(200)).body;
    expect(view.messages.map((m: { n: number }) => m.n)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(new Set(view.messages.slice(1).map((m: { message: string }) => m.message))).toEqual(new Set(Array.from({ length: 20 }, (_, i) => `Reply ${i}`)));
    // Both sides end at the last reply, whichever of the concurrent replies wrote last.
    const sides = await Promise.all([inboxOf(ana), inboxOf(bea)]);
    expect(sides.map(([side]) => side?.messagesCount)).toEqual([21, 21]);
    expect(view.thread.lastMessage).toBe(view.messages[20].message);
  });

  it('when members list their inbox, then threads come newest activity first, paged by key', async () => {
    const clock = freezeDate();
    try {
      const first = await start('First');
      clock.advance(1000);
      const second = await start('Second');
      clock.advance(1000);
      const third = await start('Third');
      clock.advance(1000);
      await reply(bea, { messageId: first, receiverId: ana.id, message: 'Back to the first' }).expect(201);
      const page1 = (await get(ana, `by-receiverId/${ana.id}?limit=2`).expect(200)).body;
      expect(page1.threads.map((t: Thread) => t.id)).toEqual([first, third]);
      const page2 = (await get(ana, `by-receiverId/${ana.id}?limit=2&cursor=${encodeURIComponent(page1.nextCursor)}`).expect(200)).body;
      expect(page2).toEqual({ threads: [expect.objectContaining({ id: second })], nextCursor: null });
    } finally {
      clock.restore();
    }
  });
});

describe('a thread far busier than the others', () => {
  it('when one thread gets many more messages than the others, then the older threads are still listed, and a pointer past the entries that stand for nothing lets later readers skip them', async () => {
    const clock = freezeDate();
    try {
      const older = await start('Older');
      clock.advance(1000);
      const busy = await start('Busy');
      for (let group = 0; group < 2; group++) {
        clock.advance(MESSAGE_LIMIT.windowMs + 1000);
        await Promise.all(Array.from({ length: 15 }, (_, i) => reply(bea, { messageId: busy, receiverId: ana.id, message: `Busy ${group}-${i}` }).expect(201)));
      }
      // Ana's thread activity: Older (1), Busy (2), then one entry per reply (3 to 32), of which only the one for the
      // thread's last message stands. Replies sent at once may take entries in another order than their messages'
      // numbers, so the standing entry is any of the second group's (18 to 32).
      const page1 = (await get(ana, `by-receiverId/${ana.id}?limit=1`).expect(200)).body;
      expect(page1.threads.map((t: Thread) => t.id)).toEqual([busy]);
      const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => InboxEntryModel.findById(`${ana.id}#${i + 3}`).lean()));
      const lastMessage = Math.max(...replies.map((entry) => entry!.lastN));
      const standing = replies.find((entry) => entry!.lastN === lastMessage)!;
      expect(Number(String(standing._id).split('#')[1])).toBeGreaterThanOrEqual(18);
      expect(standing.below).toBe(1);
      const page2 = (await get(ana, `by-receiverId/${ana.id}?limit=1&cursor=${encodeURIComponent(page1.nextCursor)}`).expect(200)).body;
      expect(page2).toEqual({ threads: [expect.objectContaining({ id: older, messagesCount: 1 })], nextCursor: null });

      // The older thread's turn: its first entry stands for nothing now, and the pointer that led to it still holds.
      clock.advance(MESSAGE_LIMIT.windowMs + 1000);
      await reply(bea, { messageId: older, receiverId: ana.id, message: 'Back to the older one' }).expect(201);
      expect((await inboxOf(ana)).map((t) => [t.id, t.messagesCount])).toEqual([
        [older, 2],
        [busy, 31],
      ]);
      const first = (await get(ana, `by-receiverId/${ana.id}?limit=1`).expect(200)).body;
      const second = (await get(ana, `by-receiverId/${ana.id}?limit=1&cursor=${encodeURIComponent(first.nextCursor)}`).expect(200)).body;
      expect([...first.threads, ...second.threads].map((t: Thread) => t.id)).toEqual([older, busy]);
      expect(second.nextCursor).toBeNull();
      expect(await countsOf(ana)).toEqual({ unread: 2, important: 0, deleted: 0, total: 2 });
    } finally {
      clock.restore();
    }
  });
});

describe('marks, delete and restore', () => {
  it('when a member marks a thread important and read, then the counts follow', async () => {
    const threadId = await start();
    const marked = await post(bea, 'set-important', { userId: bea.id, messageId: threadId, isImportant: true }).expect(200);
    expect(marked.body.counts).toEqual({ unread: 1, important: 1, deleted: 0, total: 1 });
    const read = await post(bea, 'update-read', { userId: bea.id, messageId: threadId }).expect(200);
    expect(read.body.counts).toEqual({ unread: 0, important: 1, deleted: 0, total: 1 });
    await post(bea, 'update-read', { userId: bea.id, messageId: threadId, isRead: false }).expect(200);
    expect(await countsOf(bea)).toEqual({ unread: 1, important: 1, deleted: 0, total: 1 });
    expect(await countsOf(ana)).toEqual({ unread: 0, important: 0, deleted: 0, total: 1 });
  });

  it('when a member deletes a thread, then only their side goes to Deleted, it can be restored, and a reply brings it back', async () => {
    const threadId = await start();
    const deleted = await post(bea, `delete/${threadId}`).expect(200);
    expect(deleted.body).toEqual({ message: MESSAGE_MESSAGES.deleted, counts: { unread: 0, important: 0, deleted: 1, total: 0 } });
    expect(await inboxOf(bea)).toEqual([]);
    expect((await get(bea, `deleted-messages/${bea.id}`).expect(200)).body.threads).toEqual([expect.objectContaining({ id: threadId, isDeleted: true })]);
    expect(await inboxOf(ana)).toEqual([expect.objectContaining({ id: threadId, isDeleted: false })]);
    expect((await post(bea, `restore/${threadId}`).expect(200)).body.message).toBe(MESSAGE_MESSAGES.restored);
    expect(await inboxOf(bea)).toEqual([expect.objectContaining({ id: threadId })]);
    await post(bea, `delete/${threadId}`).expect(200);
    await reply(ana, { messageId: threadId, receiverId: bea.id, message: 'Still there?' }).expect(201);
    expect(await inboxOf(bea)).toEqual([expect.objectContaining({ id: threadId, lastMessage: 'Still there?' })]);
  });
});

describe('only the two members', () => {
  it('when a third member uses someone else’s ids on any message call, then 404', async () => {
    const threadId = await start();
    await get(cid, `by-receiverId/${ana.id}`).expect(404);
    await get(cid, `deleted-messages/${bea.id}`).expect(404);
    await get(cid, `counts/${ana.id}`).expect(404);
    await get(cid, `thread/${threadId}`).expect(404);
    await post(cid, `delete/${threadId}`).expect(404);
    await post(cid, `restore/${threadId}`).expect(404);
    await post(cid, 'set-important', { userId: cid.id, messageId: threadId, isImportant: true }).expect(404);
    await post(cid, 'set-important', { userId: ana.id, messageId: threadId, isImportant: true }).expect(404);
    await post(cid, 'update-read', { userId: cid.id, messageId: threadId }).expect(404);
    await post(cid, 'update-read', { userId: bea.id, messageId: threadId }).expect(404);
    await reply(cid, { messageId: threadId, receiverId: ana.id, message: 'Intruding' }).expect(404);
    await reply(cid, { senderId: bea.id, messageId: threadId, receiverId: ana.id, message: 'As Bea' }).expect(404);
    await write(cid, { senderId: ana.id, receiverId: bea.id, subject: 'As Ana', message: 'Hi' }).expect(404);
    await post(cid, 'block', { userId: bea.id, blockedId: ana.id, block: true }).expect(404);
    // A message id of a thread that does not exist is the same 404.
    await get(ana, 'thread/0123456789abcdef01234567').expect(404);
    expect((await get(bea, `thread/${threadId}`).expect(200)).body.messages).toHaveLength(1);
    expect(await MessageModel.countDocuments({})).toBe(1);
  });
});

describe('blocks', () => {
  it('when a member blocks another, then their messages and replies are refused until unblocked', async () => {
    const threadId = await start();
    const blocked = await post(bea, 'block', { userId: bea.id, blockedId: ana.id, block: true }).expect(200);
    expect(blocked.body).toEqual({ message: 'You will not receive messages from Ana Reed, and neither of you follows the other any more.', blocked: true });
    await post(bea, 'block', { userId: bea.id, blockedId: ana.id, block: true }).expect(200);
    expect((await write(ana, { receiverId: bea.id, subject: 'Again', message: 'Hi' }).expect(403)).body.message).toBe(MESSAGE_MESSAGES.blocked);
    expect((await reply(ana, { messageId: threadId, receiverId: bea.id, message: 'Hi' }).expect(403)).body.message).toBe(MESSAGE_MESSAGES.blocked);
    expect((await get(bea, `thread/${threadId}`).expect(200)).body.blockedByMe).toBe(true);
    // The member who blocked may still write.
    await reply(bea, { messageId: threadId, receiverId: ana.id, message: 'Bye' }).expect(201);
    const unblocked = await post(bea, 'block', { userId: bea.id, blockedId: ana.id, block: false }).expect(200);
    expect(unblocked.body).toEqual({ message: 'Ana Reed can send you messages again.', blocked: false });
    await reply(ana, { messageId: threadId, receiverId: bea.id, message: 'Thanks' }).expect(201);
    expect((await post(bea, 'block', { userId: bea.id, blockedId: bea.id, block: true }).expect(400)).body.message).toBe(MESSAGE_MESSAGES.blockSelf);
  });

  it('when a member blocks another, then the follows between them end both ways, other follows stay, and the counts say so; unblocking brings none back', async () => {
    const follow = (from: TestMember, to: TestMember) =>
      request(app).post('/api/v2/follow/make-following').set(bearer(from)).send({ subjectorId: to.id, myuserId: from.id, set: true }).expect(200);
    await follow(ana, bea);
    await follow(bea, ana);
    await follow(cid, bea);
    await post(bea, 'block', { userId: bea.id, blockedId: ana.id, block: true }).expect(200);
    expect(await FollowModel.find({}, { _id: 1 }).lean()).toEqual([{ _id: `${cid.id}:${bea.id}` }]);
    const kept = async (member: TestMember) => UserModel.findById(member.id, { followersCount: 1, followingsCount: 1, _id: 0 }).lean();
    expect(await kept(bea)).toEqual({ followersCount: 1, followingsCount: 0 });
    expect(await kept(ana)).toEqual({ followersCount: 0, followingsCount: 0 });
    const counts = await request(app).get(`/api/v2/follow/get-count/${bea.id}`).set(bearer(ana)).expect(200);
    expect(counts.body).toEqual({ followersCount: 1, followingsCount: 0, isFollowing: false });
    await post(bea, 'block', { userId: bea.id, blockedId: ana.id, block: false }).expect(200);
    expect(await FollowModel.countDocuments({})).toBe(1);
  });
});

describe('the Admin recipient and the support inbox', () => {
  it("when a member writes to 'Admin', then the support account gets it and an admin answers from the support inbox", async () => {
    const admin = await adminMember();
    const support = (await get(ana, 'support-account').expect(200)).body;
    expect(support).toMatchObject({ recipientId: 'admin', name: 'Admin' });
    expect(await UserModel.findById(support.id).lean()).toMatchObject({ email: 'support@knack.example' });
    const sent = await write(ana, { receiverId: 'admin', subject: 'Payout question', message: 'When is my payout?' }).expect(201);
    expect(sent.body.message).toBe('A message was sent to Admin');
    // Members cannot read the support inbox; an admin can, and answers as support.
    await get(bea, `by-receiverId/${support.id}`).expect(404);
    const [thread] = (await get(admin, `by-receiverId/${support.id}`).expect(200)).body.threads;
    expect(thread).toMatchObject({ id: sent.body.thread.id, otherId: ana.id, isRead: false });
    expect((await get(admin, `counts/${support.id}`).expect(200)).body.unread).toBe(1);
    const answer = await reply(admin, { senderId: support.id, messageId: thread.id, receiverId: ana.id, message: 'On the 5th.' }).expect(201);
    expect(answer.body.message).toBe('A reply message was sent to Ana Reed');
    const view = (await get(ana, `thread/${thread.id}`).expect(200)).body;
    expect(view.messages.map((m: { senderId: string; message: string }) => [m.senderId, m.message])).toEqual([
      [ana.id, 'When is my payout?'],
      [support.id, 'On the 5th.'],
    ]);
    expect((await reply(ana, { messageId: thread.id, receiverId: 'admin', message: 'Thanks!' }).expect(201)).body.message).toBe(
      'A reply message was sent to Admin',
    );
    // An admin's own inbox is their own: the support account's threads are not in it.
    expect(await inboxOf(admin)).toEqual([]);
  });
});

describe('the sending limit', () => {
  it('when a member sends past the limit, then 429 with Retry-After, and nothing is written', async () => {
    const clock = freezeInWindow(MESSAGE_LIMIT.windowMs, 1_000);
    try {
      for (let i = 0; i < MESSAGE_LIMIT.max; i += 1) await countHit(`message:${ana.id}`, MESSAGE_LIMIT);
      const res = await write(ana, { receiverId: bea.id, subject: 'Hi', message: 'One more' }).expect(429);
      expect(res.body.message).toBe(MESSAGE_MESSAGES.tooMany);
      expect(Number(res.headers['retry-after'])).toBe(59);
      expect(await MessageModel.countDocuments({})).toBe(0);
    } finally {
      clock.restore();
    }
  });
});

describe('the new-message mail', () => {
  it('when a member sends messages, then the receiver is mailed once an hour per sender, with a link to the thread', async () => {
    const clock = freezeInWindow(3_600_000, 60_000);
    try {
      const threadId = await start();
      expect(mails).toEqual([expect.objectContaining({ to: bea.email, subject: 'Ana Reed sent you a message on Knack' })]);
      expect(mails[0]!.text).toContain(`http://knack.test/inbox?thread=${threadId}`);
      await reply(ana, { messageId: threadId, receiverId: bea.id, message: 'And another thing' }).expect(201);
      await start('Second thread');
      expect(mails).toHaveLength(1);
      // Another sender to the same receiver is mailed on its own.
      await write(cid, { receiverId: bea.id, subject: 'Hi', message: 'Hi' }).expect(201);
      expect(mails.map((mail) => mail.to)).toEqual([bea.email, bea.email]);
      clock.advance(3_600_000);
      // A token signed in the next hour (the first expired on the way).
      const anaLater = { ...ana, token: signAccessToken(testConfig().auth, { userId: ana.id, tokenVersion: 0 }) };
      await reply(anaLater, { messageId: threadId, receiverId: bea.id, message: 'An hour later' }).expect(201);
      expect(mails).toHaveLength(3);
    } finally {
      clock.restore();
    }
  });

  it('when the receiver turned news off, then no mail', async () => {
    await UserModel.updateOne({ _id: bea.id }, { $set: { willReceiveNews: false } });
    await start();
    expect(mails).toEqual([]);
  });
});

describe('account deletion', () => {
  it("when a member's data is exported and then their account deleted, then the export holds their messages and the other member keeps the thread", async () => {
    const threadId = await start('Hello', 'First');
    await reply(bea, { messageId: threadId, receiverId: ana.id, message: 'Second' }).expect(201);
    await post(bea, 'block', { userId: bea.id, blockedId: ana.id, block: true }).expect(200);
    const exported = await messagesExportOf(ana.id);
    expect(exported.map((row) => [row.id, row.senderId, row.subject, row.message, row.replyTo])).toEqual([
      [`${threadId}-1`, ana.id, 'Hello', 'First', null],
      [`${threadId}-2`, bea.id, 'Hello', 'Second', `${threadId}-1`],
    ]);
    await removeMessagesOf(ana.id);
    await removeMessagesOf(ana.id);
    await UserModel.deleteOne({ _id: ana.id });
    expect(await BoxModel.countDocuments({ userId: ana.id })).toBe(0);
    const view = (await get(bea, `thread/${threadId}`).expect(200)).body;
    expect(view.messages.map((m: { senderName: string; message: string }) => [m.senderName, m.message])).toEqual([
      ['A former member', 'First'],
      ['Bea Stone', 'Second'],
    ]);
    expect(view.blockedByMe).toBe(false);
    expect((await reply(bea, { messageId: threadId, receiverId: ana.id, message: 'Hello?' }).expect(404)).body.message).toBe(MESSAGE_MESSAGES.noMember);
  });
});
