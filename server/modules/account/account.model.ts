import { Schema, model, type Types } from 'mongoose';

/**
 * One account deletion, `_id` the member's id. Inserted before anything is removed: the insert is the one step that
 * only one of two deletions at once can make, and a deletion stopped half-way (a crash, a restart) is found here
 * and finished by the job. It keeps no personal data, only that the id was deleted and when.
 */
const accountDeletionSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** Who asked: the member, or an admin. */
    requestedBy: { type: Schema.Types.ObjectId, required: true },
    startedAt: { type: Date, required: true },
    finishedAt: { type: Date, default: null },
  },
  { versionKey: false },
);
accountDeletionSchema.index({ finishedAt: 1, startedAt: 1 });

export interface AccountDeletionDoc {
  _id: string;
  requestedBy: Types.ObjectId;
  startedAt: Date;
  finishedAt: Date | null;
}

export const AccountDeletionModel = model<AccountDeletionDoc>('AccountDeletion', accountDeletionSchema, 'account_deletions');
