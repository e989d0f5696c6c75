/**
 * A member's comments and shares in "Download my data" and "Delete my account". Deleting an account removes
 * what the member wrote: each comment is removed as its author would remove it (a tombstone without its text, so
 * the thread keeps its numbering and the piece's count goes down once), and replies by others stay.
 */
import { Types } from 'mongoose';
import type { Schemas } from '../../lib/openapi-types';
import { clearPublicResponses } from '../../lib/public-responses';
import { MAX_ENTRIES_PER_PAGE, memberCommentsPage } from './comments.lists';
import { CommentModel, type CommentDoc } from './comments.model';
import { tombstone } from './comments.service';

const mine = (userId: string) => ({ commentorId: new Types.ObjectId(userId), removedAt: null });

/**
 * The member's comments and shares not removed, the oldest first. Read through their list of what they wrote
 * (comments.lists.ts, the list their comments page goes through), a page of entries at a time, each comment by `_id`:
 * a filter on the author would read every comment there is on FerretDB (the test and dev database). The page leaves
 * out a removed comment and an entry whose comment is missing, so what is kept is what the filter `mine` finds; a
 * comment is kept once, however many entries name it. A comment whose process stopped before it was listed is
 * listed by the comment-repairs job (comments.repair.ts) a few minutes later.
 */
export async function commentsExportOf(userId: string): Promise<Schemas['DataExportComment'][]> {
  const author = new Types.ObjectId(userId);
  const found = new Map<string, CommentDoc>();
  let below: number | null = null;
  do {
    const page = await memberCommentsPage(String(author), below, MAX_ENTRIES_PER_PAGE);
    for (const doc of page.docs) if (doc.commentorId.equals(author)) found.set(doc._id, doc);
    below = page.below;
  } while (below !== null);
  // The list is in the order the comments were written; the export has always been by their time.
  const docs = [...found.values()].sort((a, b) => a.at.getTime() - b.at.getTime() || (a._id < b._id ? -1 : 1));
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
