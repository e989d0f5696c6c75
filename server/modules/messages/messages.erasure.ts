/**
 * A member's messages in "Download my data" and "Delete my account". Deleting an account removes the member's
 * side of each thread and their blocks; the other member keeps the thread and every message in it (theirs and
 * the deleted member's, which then show as from 'A former member').
 */
import { Types } from 'mongoose';
import type { Schemas } from '../../lib/openapi-types';
import { readById } from '../../lib/query';
import {
  BlockModel,
  BoxModel,
  BoxVersionModel,
  CountChangeModel,
  CountSnapshotModel,
  InboxEntryModel,
  InboxHeadModel,
  MessageModel,
  type MessageDoc,
} from './messages.model';
import { currentBox, threadIdsListed } from './messages.state';

/**
 * The messages the member sent or received, in the threads still theirs (in their inbox or their deleted list), the
 * oldest first. Their threads are found through their thread activity (the list their inbox pages through), each
 * thread once, and it is theirs while they have a side of it (deleted or not): all read by `_id`, where a filter on
 * the member would read every side there is on FerretDB (the test and dev database). A thread is put on the list
 * before the member's side of it is written, so a process that stops in between leaves no side off the list (and
 * `npm run rebuild -- inbox-lists` lists any side that a list lacks).
 */
export async function messagesExportOf(userId: string): Promise<Schemas['DataExportMessage'][]> {
  const threadIds = await threadIdsListed(userId);
  const boxes = (await Promise.all(threadIds.map((threadId) => currentBox(threadId, userId)))).flatMap((box) => (box ? [box] : []));
  const rows = await Promise.all(
    boxes.map(async (box) => {
      const docs = await Promise.all(Array.from({ length: box.lastN }, (_, i) => readById<MessageDoc>(MessageModel, `${box.threadId}-${i + 1}`)));
      return docs.flatMap((doc, i) =>
        doc
          ? [
              {
                id: doc._id,
                senderId: String(doc.senderId),
                receiverId: String(doc.receiverId),
                subject: box.subject,
                message: doc.text,
                replyTo: i === 0 ? null : `${box.threadId}-1`,
                isImportant: box.isImportant,
                at: doc.at.toISOString(),
              },
            ]
          : [],
      );
    }),
  );
  return rows.flat().sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
}

/**
 * Removes the member's side of every thread (with its versions), their counts and thread list, and every block by or
 * of them; safe to repeat. The other member's side, counts and list are theirs and stay as they are.
 */
export async function removeMessagesOf(userId: string): Promise<number> {
  const member = new Types.ObjectId(userId);
  const [boxes] = await Promise.all([
    BoxModel.deleteMany({ userId: member }),
    BoxVersionModel.deleteMany({ userId: member }),
    CountChangeModel.deleteMany({ userId: member }),
    CountSnapshotModel.deleteOne({ _id: userId }),
    InboxEntryModel.deleteMany({ userId: member }),
    InboxHeadModel.deleteOne({ _id: userId }),
    BlockModel.deleteMany({ blockerId: member }),
    BlockModel.deleteMany({ blockedId: member }),
  ]);
  return boxes.deletedCount;
}
