/**
 * The messages' kept states built from the facts alone, as the large seed leaves them (threads, their messages and
 * each member's side, written in bulk, with no versions, count changes or thread activity): the rebuild makes the
 * counts and the lists that the API then answers (as the start of the app does for sides written before they were
 * kept), its check is clean, and neither the start's step nor a second rebuild writes anything again.
 */
import { Types } from 'mongoose';
import request from 'supertest';
import { BoxModel, buildStatesOfOlderSides, inboxListsState, MessageModel, ThreadModel, unreadCountsState } from '../../server/modules/messages';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { bearer, createMember, type TestMember } from '../helpers/ledger-factory';

useTestDatabase();

const THREADS = 7;

it('when only threads, messages and sides are written, then the start-up step’s rebuild builds the counts and lists the API answers, and a second rebuild changes nothing', async () => {
  const app = createTestApp();
  const [ana, bea] = await Promise.all([createMember(), createMember()]);
  const [a, b] = [new Types.ObjectId(ana.id), new Types.ObjectId(bea.id)];
  const ids: string[] = [];
  for (let i = 0; i < THREADS; i++) {
    const id = new Types.ObjectId().toHexString();
    ids.push(id);
    const at = new Date(Date.UTC(2026, 0, 1, 0, i));
    await ThreadModel.collection.insertOne({ _id: id, subject: `Thread ${i}`, memberIds: [a, b], at } as never);
    // Two messages, Ana's then Bea's; the sides were last written at the first (they lag: the rebuild catches up).
    await MessageModel.collection.insertMany([
      { _id: `${id}-1`, threadId: id, senderId: a, receiverId: b, text: 'Hello', at } as never,
      { _id: `${id}-2`, threadId: id, senderId: b, receiverId: a, text: 'Hi back', at: new Date(at.getTime() + 1000) } as never,
    ]);
    for (const [userId, otherId, readN] of [
      [a, b, 1],
      [b, a, 1],
    ] as const)
      await BoxModel.collection.insertOne({
        _id: `${id}:${String(userId)}`,
        threadId: id,
        userId,
        otherId,
        subject: `Thread ${i}`,
        at,
        lastN: 1,
        lastSenderId: a,
        lastText: 'Hello',
        readN,
        isImportant: i === 0,
        deletedAt: i === 1 && userId === a ? at : null,
      } as never);
  }
  const get = (as: TestMember, path: string) => request(app).get(`/api/v2/message/${path}`).set(bearer(as)).expect(200);

  const found = await unreadCountsState.check();
  expect(found.differences).toHaveLength(2 * THREADS + 2); // every side behind its thread, and both members' counts
  // As at start: the sides without a version number get their members' counts and lists built.
  expect(await buildStatesOfOlderSides()).toBe(true);
  for (const state of [unreadCountsState, inboxListsState]) expect(await state.check()).toEqual({ checked: expect.any(Number), differences: [] });

  // Bea's reply brought thread 1 back to Ana's inbox (as a reply does), and is unread by Ana only.
  expect((await get(ana, `counts/${ana.id}`)).body).toEqual({ unread: THREADS, important: 1, deleted: 0, total: THREADS });
  expect((await get(bea, `counts/${bea.id}`)).body).toEqual({ unread: 0, important: 1, deleted: 0, total: THREADS });
  const inbox = (await get(ana, `by-receiverId/${ana.id}?limit=50`)).body;
  expect(inbox.threads.map((t: { id: string }) => t.id)).toEqual([...ids].reverse());
  expect(inbox.threads.map((t: { lastMessage: string; messagesCount: number }) => [t.lastMessage, t.messagesCount])).toEqual(ids.map(() => ['Hi back', 2]));
  expect(inbox.nextCursor).toBeNull();

  expect(await buildStatesOfOlderSides()).toBe(false);
  const again = await Promise.all([unreadCountsState.rebuild(), inboxListsState.rebuild()]);
  expect(again.map((report) => report.differences)).toEqual([[], []]);
});
