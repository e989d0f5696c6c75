/** A deleted member's part in product events: their id taken off every event they sent, which stay counted as a visitor's. */
import { Types } from 'mongoose';
import { ProductEventModel } from './events.model';

/** Takes the member's id off their events (each one's only personal data); safe to repeat. Answers how many changed. */
export async function forgetMemberInProductEvents(userId: string): Promise<number> {
  return (await ProductEventModel.updateMany({ memberId: new Types.ObjectId(userId) }, { $set: { memberId: null } })).modifiedCount;
}
