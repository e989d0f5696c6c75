import { Schema, model, type Types } from 'mongoose';

/**
 * One member following another. The `_id` is `{followerId}:{followedId}`, so following is an insert that a second
 * insert of the same pair (twice, or at once from two tabs or two processes) cannot repeat, and unfollowing deletes
 * that one document.
 */
const followSchema = new Schema(
  {
    _id: { type: String, required: true },
    followerId: { type: Schema.Types.ObjectId, required: true },
    followedId: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
followSchema.index({ followedId: 1, at: -1, _id: -1 });
followSchema.index({ followerId: 1, at: -1, _id: -1 });

export interface FollowDoc {
  _id: string;
  followerId: Types.ObjectId;
  followedId: Types.ObjectId;
  at: Date;
}

export const FollowModel = model<FollowDoc>('Follow', followSchema, 'follows');

export const followKey = (followerId: string, followedId: string) => `${followerId}:${followedId}`;
