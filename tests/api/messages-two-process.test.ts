/**
 * Messages through two app processes on one database: a few members reply in the same threads, mark them read and
 * important, delete and restore them and start new ones, every call sent at once and split between the processes.
 * Only what the database holds can keep the counts and lists right (FerretDB's updates are not isolated, and each
 * process remembers chain ends of its own): afterwards both kept states check clean against their recount from the
 * messages and sides, and `message/counts`, the inbox and the deleted list, read through either process, answer
 * what the messages and the marks say. Also: counts and lists stay exact when their kept snapshots are lost or go
 * back, and the check finds (and the rebuild repairs) a count change that was never written.
 */
import request from 'supertest';
import { unreadCountsState, inboxListsState, CountChangeModel, CountSnapshotModel, InboxHeadModel } from '../../server/modules/messages';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { bearer, createMember, type TestMember } from '../helpers/ledger-factory';
import { startSecondApp, type SecondApp } from '../helpers/second-process';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let second: SecondApp;

beforeAll(async () => {
  app = createTestApp();
  second = await startSecondApp();
}, 60_000);

afterAll(async () => second?.stop());

type Through = Parameters<typeof request>[0];

interface Thread {
  id: string;
  otherId: string;
  lastSenderId: string;
  messagesCount: number;
  isRead: boolean;
  isImportant: boolean;
  isDeleted: boolean;
}

const call = (through: Through, as: TestMember, method: 'get' | 'post', path: string, body?: object) => {
  const req = request(through)[method](`/api/v2/message/${path}`).set(bearer(as));
  return body ? req.send(body) : req;
};

async function start(through: Through, from: TestMember, to: TestMember, subject: string): Promise<string> {
  const res = await call(through, from, 'post', 'create', { senderId: from.id, receiverId: to.id, subject, message: `${subject}, first` }).expect(201);
  return res.body.thread.id as string;
}

/** Every page of a member's inbox or deleted list (3 threads a page, so that paging by key is used). */
async function wholeList(through: Through, member: TestMember, path: 'by-receiverId' | 'deleted-messages'): Promise<Thread[]> {
  const threads: Thread[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await call(through, member, 'get', `${path}/${member.id}?limit=3${query}`).expect(200);
    threads.push(...(res.body.threads as Thread[]));
    cursor = res.body.nextCursor as string | null;
  } while (cursor);
  return threads;
}

/** A member's side of a thread as the facts say it: its messages (from the thread) and the member's marks. */
interface Expected {
  id: string;
  messagesCount: number;
  lastSenderId: string;
  isRead: boolean;
  isImportant: boolean;
  isDeleted: boolean;
}

const pick = (t: Thread): Expected => ({
  id: t.id,
  messagesCount: t.messagesCount,
  lastSenderId: t.lastSenderId,
  isRead: t.isRead,
  isImportant: t.isImportant,
  isDeleted: t.isDeleted,
});
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);

describe('messages split over two app processes', () => {
  it('when members reply, mark, delete, restore and write at once through two processes, then both kept states check clean and counts and lists answer what the messages say', async () => {
    const [ana, bea, cid] = await Promise.all([createMember(), createMember(), createMember()]);
    const pairs: [TestMember, TestMember][] = [
      [ana, bea],
      [bea, cid],
      [cid, ana],
    ];
    // Two threads per pair to begin with: the first gets replies from both sides at once, the second marks only.
    const busy = await Promise.all(pairs.map(([from, to], i) => start(app, from, to, `Busy ${i}`)));
    const quiet = await Promise.all(pairs.map(([from, to], i) => start(second.url, from, to, `Quiet ${i}`)));
    // The quiet threads' receivers delete them now, and restore one of them in the burst below.
    await Promise.all(pairs.map(([, to], i) => call(app, to, 'post', `delete/${quiet[i]}`).expect(200)));

    const through = (i: number) => (i % 2 === 0 ? app : second.url);
    const burst: Promise<{ status: number }>[] = [];
    pairs.forEach(([from, to], i) => {
      // Four replies each way in the busy thread, each half through each process.
      for (let r = 0; r < 4; r++)
        for (const [sender, receiver] of [
          [from, to],
          [to, from],
        ] as const)
          burst.push(call(through(r), sender, 'post', 'reply', { senderId: sender.id, messageId: busy[i], receiverId: receiver.id, message: `Reply ${r}` }));
      // Both mark the busy thread important while the replies land (each side's mark must survive every reply).
      burst.push(call(through(i), from, 'post', 'set-important', { userId: from.id, messageId: busy[i], isImportant: true }));
      burst.push(call(through(i + 1), to, 'post', 'set-important', { userId: to.id, messageId: busy[i], isImportant: true }));
      // The quiet thread: its writer reads it (it is theirs: read already) and marks it important; its receiver,
      // who deleted it, restores it in the first pair only.
      burst.push(call(through(i + 1), from, 'post', 'set-important', { userId: from.id, messageId: quiet[i], isImportant: true }));
      if (i === 0) burst.push(call(through(i), to, 'post', `restore/${quiet[i]}`));
      // A new thread each way, through each process.
      burst.push(call(through(i), from, 'post', 'create', { senderId: from.id, receiverId: to.id, subject: `New ${i}`, message: 'Hello' }));
      burst.push(call(through(i + 1), to, 'post', 'create', { senderId: to.id, receiverId: from.id, subject: `Back ${i}`, message: 'Hi' }));
      // Counts read while all this happens, through both processes.
      burst.push(call(through(i), from, 'get', `counts/${from.id}`));
    });
    const answers = await Promise.all(burst);
    expect(answers.filter((res) => res.status !== 200 && res.status !== 201).map((res) => res.status)).toEqual([]);

    // Then one member reads a busy thread, and another deletes the second pair's busy thread, one at a time.
    await call(second.url, bea, 'post', 'update-read', { userId: bea.id, messageId: busy[0] }).expect(200);
    await call(app, cid, 'post', `delete/${busy[1]}`).expect(200);

    for (const state of [unreadCountsState, inboxListsState]) expect(await state.check()).toEqual({ checked: expect.any(Number), differences: [] });

    // What each member's sides are, from each thread's messages (read through the thread view) and the marks made.
    const members = [ana, bea, cid];
    const everyThread = new Map<string, { ids: [string, string] }>();
    for (const member of members)
      for (const t of [...(await wholeList(app, member, 'by-receiverId')), ...(await wholeList(app, member, 'deleted-messages'))])
        everyThread.set(t.id, { ids: [member.id, t.otherId].sort() as [string, string] });
    expect(everyThread.size).toBe(pairs.length * 4); // busy, quiet, new and back per pair
    const expected = new Map<string, Expected[]>(members.map((m) => [m.id, []]));
    for (const [id, { ids }] of everyThread) {
      const owner = members.find((m) => m.id === ids[0])!;
      const view = (await call(app, owner, 'get', `thread/${id}`).expect(200)).body as { messages: { n: number; senderId: string }[] };
      const last = view.messages[view.messages.length - 1]!;
      expect(view.messages.map((m) => m.n)).toEqual(view.messages.map((_, i) => i + 1));
      const i = busy.indexOf(id);
      const q = quiet.indexOf(id);
      for (const memberId of ids) {
        const deleted = (q >= 0 && memberId === pairs[q]![1].id && q !== 0) || (i === 1 && memberId === cid.id);
        expected.get(memberId)!.push({
          id,
          messagesCount: i >= 0 ? 9 : 1,
          lastSenderId: last.senderId,
          // Read: their own last message, or the busy thread Bea read after the burst.
          isRead: last.senderId === memberId || (i === 0 && memberId === bea.id),
          isImportant: i >= 0 || (q >= 0 && memberId === pairs[q]![0].id),
          isDeleted: deleted,
        });
      }
    }

    for (const member of members)
      for (const through of [app, second.url]) {
        const inbox = await wholeList(through, member, 'by-receiverId');
        const deleted = await wholeList(through, member, 'deleted-messages');
        const mine = expected.get(member.id)!;
        expect(inbox.map(pick).sort(byId)).toEqual(mine.filter((t) => !t.isDeleted).sort(byId));
        expect(deleted.map(pick).sort(byId)).toEqual(mine.filter((t) => t.isDeleted).sort(byId));
        const counts = (await call(through, member, 'get', `counts/${member.id}`).expect(200)).body;
        const kept = mine.filter((t) => !t.isDeleted);
        expect(counts).toEqual({
          unread: kept.filter((t) => !t.isRead).length,
          important: kept.filter((t) => t.isImportant).length,
          deleted: mine.length - kept.length,
          total: kept.length,
        });
      }
  }, 120_000);

  it('when the kept snapshots of counts and lists are lost or go back, then counts and lists are still exact', async () => {
    const [dan, eve] = await Promise.all([createMember(), createMember()]);
    const first = await start(app, dan, eve, 'One');
    await start(second.url, dan, eve, 'Two');
    await call(app, eve, 'post', 'set-important', { userId: eve.id, messageId: first, isImportant: true }).expect(200);
    const before = (await call(app, eve, 'get', `counts/${eve.id}`).expect(200)).body;
    expect(before).toEqual({ unread: 2, important: 1, deleted: 0, total: 2 });
    // A snapshot written late by a slower writer: back at Eve's first count change; the list's head gone.
    await CountSnapshotModel.updateOne({ _id: eve.id }, { $set: { n: 1, unread: 1, important: 0, deleted: 0, total: 1 } });
    await InboxHeadModel.deleteOne({ _id: eve.id });
    for (const through of [app, second.url]) {
      expect((await call(through, eve, 'get', `counts/${eve.id}`).expect(200)).body).toEqual(before);
      expect((await wholeList(through, eve, 'by-receiverId')).map((t) => t.messagesCount)).toEqual([1, 1]);
    }
    await call(second.url, eve, 'post', 'update-read', { userId: eve.id, messageId: first }).expect(200);
    expect((await call(app, eve, 'get', `counts/${eve.id}`).expect(200)).body).toEqual({ unread: 1, important: 1, deleted: 0, total: 2 });
  });

  it('when a count change was never written (a process stopped after the change), then the check names the member and the rebuild puts the counts right', async () => {
    const [fay, gus] = await Promise.all([createMember(), createMember()]);
    const threadId = await start(app, fay, gus, 'Lost');
    await call(app, gus, 'post', 'set-important', { userId: gus.id, messageId: threadId, isImportant: true }).expect(200);
    // Gus's last count change (the important mark) lost, as if the process had stopped before writing it.
    const changes = await CountChangeModel.find({ userId: gus.id }, { _id: 1 }).lean();
    expect(changes.map((c) => c._id).sort()).toEqual([`${gus.id}#1`, `${gus.id}#2`]);
    await CountChangeModel.deleteOne({ _id: `${gus.id}#2` });
    await CountSnapshotModel.deleteOne({ _id: gus.id });
    const report = await unreadCountsState.check();
    expect(report.differences).toEqual([
      `member ${gus.id}: kept unread 1, important 0, deleted 0, total 1; the sides say unread 1, important 1, deleted 0, total 1`,
    ]);
    await unreadCountsState.rebuild();
    expect(await unreadCountsState.check()).toEqual({ checked: expect.any(Number), differences: [] });
    expect((await call(second.url, gus, 'get', `counts/${gus.id}`).expect(200)).body).toEqual({ unread: 1, important: 1, deleted: 0, total: 1 });
  });
});
