/**
 * A member's comments and shares in "Download my data" and "Delete my account". Deleting an account removes
 * what the member wrote: each comment is removed as its author would remove it (a tombstone without its text, so
 * the thread keeps its numbering and the piece's count goes down once), and replies by others stay.
 */
import { Types } from 'mongoose';
import type { Schemas } from '../../lib/openapi-types';
import { clearPublicResponses } from '../../lib/public-responses';
import { CommentModel, type CommentDoc } from './comments.model';
import { tombstone } from './comments.service';

const mine = (userId: string) => ({ commentorId: new Types.ObjectId(userId), removedAt: null });

/** The member's comments and shares not removed, the oldest first. */
export async function commentsExportOf(userId: string): Promise<Schemas['DataExportComment'][]> {
  const docs = await CommentModel.find(mine(userId)).sort({ at: 1, _id: 1 }).lean<CommentDoc[]>();
  return docs.map((doc) => ({
    id: doc._id,
    kind: doc.kind,
    contentId: String(doc.contentId),
    text: doc.text,
    atSeconds: doc.atSeconds ?? null,
    sharedCommentId: doc.sharedCommentId ?? null,
    at: doc.at.toISOString(),
  }));
}

/** Removes every comment and share the member wrote; safe to repeat. Answers how many this call removed. */
export async function removeCommentsOf(userId: string, now = new Date()): Promise<number> {
  const docs = await CommentModel.find(mine(userId), { contentId: 1 }).lean<Pick<CommentDoc, '_id' | 'contentId'>[]>();
  const by = new Types.ObjectId(userId);
  let removed = 0;
  for (const doc of docs) if (await tombstone(doc, by, now)) removed += 1;
  if (removed) clearPublicResponses();
  return removed;
}
