/**
 * Each member's product events listed by id (lib/member-lists.ts) in `product_event_lists`, so that their data
 * download reads their events by `_id`. A batch's ids are noted in one note before the batch is inserted.
 *
 * A member's events are listed per month they arrived (`{memberId}:{yyyy-mm}`): the facts are kept a few months
 * (FACTS_KEPT_DAYS), and a month's list goes as a whole once every event it names is past that, with the purge of the
 * facts. A reader reads the months a kept fact can be from, a handful of lists whatever the member's history.
 */
import { Types } from 'mongoose';
import { startOfUtcMonth } from '../../lib/calendar';
import { memberListModel, memberLists } from '../../lib/member-lists';
import { ours, readEachById } from '../../lib/query';
import { ProductEventModel, type ProductEventDoc } from './events.model';

export const ProductEventListModel = memberListModel('ProductEventList', 'product_event_lists');

const monthOf = (at: Date) => at.toISOString().slice(0, 7);
const listKey = (memberId: string, month: string) => `${memberId}:${month}`;

/** The months from `from`'s to `to`'s, both included, the oldest first. */
function monthsBetween(from: Date, to: Date): string[] {
  const months: string[] = [];
  for (let at = startOfUtcMonth(from); at <= to; at = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1))) months.push(monthOf(at));
  return months;
}

/** Every event sent by a signed-in member, in the order received (the `_id`s), listed under the month it arrived. */
async function* everyMemberEvent() {
  const events = ProductEventModel.find({}, { memberId: 1 }).sort({ _id: 1 }).lean<Pick<ProductEventDoc, '_id' | 'memberId'>>();
  for await (const event of events.cursor({ batchSize: 1_000 }) as AsyncIterable<Pick<ProductEventDoc, '_id' | 'memberId'>>) {
    if (!event.memberId) continue;
    const received = event._id.getTimestamp();
    yield { id: event._id.toHexString(), keys: [listKey(String(event.memberId), monthOf(received))], at: received };
  }
}

const lists = memberLists(ProductEventListModel, {
  name: 'product-event-lists',
  describe: "Members' product events: a list of ids per member and month received (their download reads it), rebuilt from the events.",
  facts: everyMemberEvent,
});

/** Notes a batch of a member's events, received at `now`: call it before inserting them. */
export const noteEventsOf = (memberId: string, ids: readonly Types.ObjectId[], now: Date) =>
  lists.note(
    listKey(memberId, monthOf(now)),
    ids.map((id) => id.toHexString()),
    now,
  );

/** The member's events received since `since`'s month, by `_id` through their monthly lists. */
export async function eventsOfMember(memberId: string, since: Date, now = new Date()): Promise<ProductEventDoc[]> {
  const ids = (await Promise.all(monthsBetween(since, now).map((month) => lists.idsOf(listKey(memberId, month))))).flat();
  const events = await readEachById<ProductEventDoc>(
    ProductEventModel,
    ids.map((id) => new Types.ObjectId(id)),
  );
  return events.filter((event) => event.memberId !== null && String(event.memberId) === memberId);
}

/** Removes the member's lists of the months since `since`'s, once their events no longer name them. */
export async function removeEventListsOf(memberId: string, since: Date, now = new Date()): Promise<void> {
  for (const month of monthsBetween(since, now)) await lists.remove(listKey(memberId, month));
}

/** Removes every list of the months before `before`'s: each names only events received before it. */
export async function purgeEventListsBefore(before: Date): Promise<number> {
  return (await ProductEventListModel.deleteMany(ours({ at: { $lt: startOfUtcMonth(before) } }))).deletedCount;
}

export const productEventListsState = lists.state;
export const forgetProductEventLists = lists.forget;
