/**
 * A member's part in product events: exported with their data, and, when they delete their account, their id taken
 * off every event they sent, which stay counted as a visitor's.
 */
import { Types } from 'mongoose';
import { addDays } from '../../lib/calendar';
import type { Schemas } from '../../lib/openapi-types';
import { FACTS_KEPT_DAYS } from './events.counts';
import { eventsOfMember, removeEventListsOf } from './events.lists';
import { ProductEventModel } from './events.model';

/** The earliest a kept event can have arrived (a day more than the facts are kept, for a purge not yet run). */
const oldestKept = (now: Date) => addDays(now, -(FACTS_KEPT_DAYS + 1));

/** The events the member sent while signed in, the oldest first (ids are the order Knack received them). */
export async function productEventsExportOf(userId: string, now = new Date()): Promise<Schemas['ProductEvent'][]> {
  const events = await eventsOfMember(userId, oldestKept(now), now);
  return events
    .sort((a, b) => a._id.toHexString().localeCompare(b._id.toHexString()))
    .map((event) => ({
      name: event.name as Schemas['ProductEvent']['name'],
      at: event.at.toISOString(),
      ...(event.props.contentId ? { props: { contentId: event.props.contentId } } : {}),
    }));
}

/**
 * Takes the member's id off their events (each one's only personal data), then removes their lists; safe to repeat.
 * Answers how many changed. The events are found by a filter on the member, not through their lists: a deletion
 * runs in the background, once, and must reach every event, even one sent before the lists were kept.
 */
export async function forgetMemberInProductEvents(userId: string, now = new Date()): Promise<number> {
  const { modifiedCount } = await ProductEventModel.updateMany({ memberId: new Types.ObjectId(userId) }, { $set: { memberId: null } });
  await removeEventListsOf(userId, oldestKept(now), now);
  return modifiedCount;
}
