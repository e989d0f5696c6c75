/** What the message calls answer: plain DTOs made from the stored documents. */
import type { Schemas } from '../../lib/openapi-types';
import type { UserDoc } from '../users';
import type { BoxDoc, MessageDoc } from './messages.model';

export type Person = Pick<UserDoc, '_id' | 'username' | 'fullName' | 'firstName' | 'lastName' | 'image'>;
export const PERSON_FIELDS = { username: 1, fullName: 1, firstName: 1, lastName: 1, image: 1 } as const;

/** How a member whose account is gone shows in the threads they were part of. */
const FORMER_MEMBER = 'A former member';

const nameOf = (person: Person | undefined) =>
  !person ? FORMER_MEMBER : person.fullName || [person.firstName, person.lastName].filter(Boolean).join(' ') || person.username;

/** A member's side of a thread, as their inbox lists it. */
export function toThreadDto(box: BoxDoc, other: Person | undefined): Schemas['MessageThread'] {
  return {
    id: box.threadId,
    subject: box.subject,
    otherId: String(box.otherId),
    otherName: nameOf(other),
    otherUsername: other?.username ?? null,
    otherPhoto: other?.image ?? null,
    lastMessage: box.lastText,
    lastSenderId: String(box.lastSenderId),
    messagesCount: box.lastN,
    isRead: box.readN >= box.lastN,
    isImportant: box.isImportant,
    isDeleted: Boolean(box.deletedAt),
    at: box.at.toISOString(),
  };
}

export function toMessageDto(doc: MessageDoc, n: number, people: Map<string, Person>): Schemas['Message'] {
  return {
    id: doc._id,
    threadId: doc.threadId,
    n,
    senderId: String(doc.senderId),
    senderName: nameOf(people.get(String(doc.senderId))),
    receiverId: String(doc.receiverId),
    message: doc.text,
    at: doc.at.toISOString(),
  };
}
