/**
 * A member's own lists of their facts (server/lib/member-lists.ts: here their product events and card orders), after
 * writes sent through two app processes at once: each fact is noted on its member's list, the checks find nothing
 * missing, the download and `tag/sell` find every fact by `_id`, and a rebuild from the facts lists the same ids.
 */
import request from 'supertest';
import type { KeptState } from '../../server/lib/kept-state';
import type { MemberListNoteDoc } from '../../server/lib/member-lists';
import { productEventListsState } from '../../server/modules/events';
import { ProductEventListModel } from '../../server/modules/events/testing';
import { PaymentOrderModel, paymentOrderListsState } from '../../server/modules/payments';
import { PaymentOrderListModel } from '../../server/modules/payments/testing';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { bearer, createMember, createPiece, type TestMember } from '../helpers/ledger-factory';
import { useSecondAppPerFile } from '../helpers/second-process';

useTestDatabase();

const app = createTestApp();
const second = useSecondAppPerFile();

type Through = Parameters<typeof request>[0];

/** Every list as stored: its key and the ids it names, in no order. */
async function listsIn(model: { find(filter: object): { lean(): Promise<unknown> } }): Promise<Record<string, string[]>> {
  const notes = (await model.find({}).lean()) as MemberListNoteDoc[];
  const lists: Record<string, string[]> = {};
  for (const note of notes) lists[note.key] = [...(lists[note.key] ?? []), ...note.ids].sort();
  return lists;
}

async function rebuiltAlike(state: KeptState, model: Parameters<typeof listsIn>[0]) {
  const before = await listsIn(model);
  expect(await state.check()).toMatchObject({ differences: [] });
  await state.rebuild();
  expect(await listsIn(model)).toEqual(before);
  expect(await state.check()).toMatchObject({ differences: [] });
}

it('when two members send events and one starts six checkouts, each through both processes at once, then every fact is on its list and found by _id, and the rebuild lists the same', async () => {
  const [ana, bea, owner] = await Promise.all([createMember(), createMember(), createMember()]);
  const pieces = await Promise.all(Array.from({ length: 6 }, () => createPiece(owner, { subTag: 'Travel' })));
  const through = (i: number): Through => (i % 2 ? app : second.url);
  const events = (who: TestMember, i: number) =>
    request(through(i))
      .post('/api/v2/events')
      .set(bearer(who))
      .send({
        events: [
          { name: 'play', at: new Date().toISOString(), props: { contentId: pieces[i % 6]!.id } },
          { name: 'knack', at: new Date().toISOString(), props: { contentId: pieces[i % 6]!.id } },
        ],
      });
  const checkout = (piece: { id: string }, i: number) =>
    request(through(i)).post('/api/v2/content/paid').set(bearer(ana)).send({ userId: ana.id, contentId: piece.id });

  const answers = await Promise.all([
    ...Array.from({ length: 12 }, (_, i) => events(ana, i)),
    ...Array.from({ length: 4 }, (_, i) => events(bea, i)),
    ...pieces.map((piece, i) => checkout(piece, i)),
  ]);
  expect(answers.slice(0, 16).map((answer) => answer.status)).toEqual(Array(16).fill(202));
  expect(answers.slice(16).map((answer) => [answer.status, answer.body.status])).toEqual(Array(6).fill([200, 'checkout']));

  // Ana's download has her 24 events, Bea's her 8, each asked through the other process.
  const download = async (who: TestMember, on: Through) =>
    (await request(on).get(`/api/v2/user-setting/download-data/${who.id}`).set(bearer(who)).expect(200)).body.productEvents as unknown[];
  expect(await download(ana, second.url)).toHaveLength(24);
  expect(await download(bea, app)).toHaveLength(8);

  // Leaving the checkout: tag/sell finds all six of her pending orders through her list, and fails them.
  const travel = (await request(app).get('/api/v2/tag/label/Travel').expect(200)).body.tag.id as string;
  const left = await request(second.url).post('/api/v2/tag/sell').set(bearer(ana)).send({ tagId: travel, isSell: false }).expect(200);
  expect(left.body).toMatchObject({ returned: 6 });
  expect((await PaymentOrderModel.find({ userId: ana.id }).lean()).map((order) => order.status)).toEqual(Array(6).fill('failed'));

  await rebuiltAlike(productEventListsState, ProductEventListModel);
  await rebuiltAlike(paymentOrderListsState, PaymentOrderListModel);
  expect(
    Object.values(await listsIn(ProductEventListModel))
      .map((ids) => ids.length)
      .sort((a, b) => a - b),
  ).toEqual([8, 24]);
  expect(Object.values(await listsIn(PaymentOrderListModel))).toEqual([expect.arrayContaining(answers.slice(16).map((answer) => answer.body.orderId))]);
});
