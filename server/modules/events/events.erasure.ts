/**
 * A member's part in product events: exported with their data, and, when they delete their account, their id taken
 * off every event they sent, which stay counted as a visitor's.
 */
import { Types } from 'mongoose';
import type { Schemas } from '../../lib/openapi-types';
import { ProductEventModel, type ProductEventDoc } from './events.model';

/** The events the member sent while signed in, the oldest first (ids are the order Knack received them). */
export async function productEventsExportOf(userId: string): Promise<Schemas['ProductEvent'][]> {
  const events = await ProductEventModel.find({ memberId: new Types.ObjectId(userId) }).lean<ProductEventDoc[]>();
  return events
    .sort((a, b) => a._id.toHexString().localeCompare(b._id.toHexString()))
    .map((event) => ({
      name: event.name as Schemas['ProductEvent']['name'],
      at: event.at.toISOString(),
      ...(event.props.contentId ? { props: { contentId: event.props.contentId } } : {}),
    }));
}

/** Takes the member's id off their events (each one's only personal data); safe to repeat. Answers how many changed. */
export async function forgetMemberInProductEvents(userId: string): Promise<number> {
  return (await ProductEventModel.updateMany({ memberId: new Types.ObjectId(userId) }, { $set: { memberId: null } })).modifiedCount;
}
