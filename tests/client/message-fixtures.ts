/**
 * Inbox data shaped as the messages calls answer it: a thread with another member, its messages, and the counts
 * behind the unread badge. Each test file names its own people.
 */
import type { components } from '../../generated/openapi';

type Thread = components['schemas']['MessageThread'];
type Message = components['schemas']['Message'];
export interface Person {
  id: string;
  name: string;
}

export const THREAD_ID = '65a000000000000000000001';

/** The inbox's counts: `unread` of `total` threads. */
export const messageCounts = (unread: number, total = 1) => ({ unread, important: 0, deleted: 0, total });

/** A thread with `other` (`username` for their profile link), unread, whose last message is theirs. */
export function messageThread(other: Person & { username: string }, overrides: Partial<Thread> = {}): Thread {
  return {
    id: THREAD_ID,
    subject: 'Hello',
    otherId: other.id,
    otherName: other.name,
    otherUsername: other.username,
    otherPhoto: null,
    lastMessage: 'Hello!',
    lastSenderId: other.id,
    messagesCount: 1,
    isRead: false,
    isImportant: false,
    isDeleted: false,
    at: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

/** Message `n` of the thread, from `sender` to `receiver`. */
export const threadMessage = (n: number, sender: Person, receiver: Person, text: string): Message => ({
  id: `${THREAD_ID}-${n}`,
  threadId: THREAD_ID,
  n,
  senderId: sender.id,
  senderName: sender.name,
  receiverId: receiver.id,
  message: text,
  at: '2026-11-20T10:00:00.000Z',
});
