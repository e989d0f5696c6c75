import { createAction } from '@reduxjs/toolkit';

/** A member's message counts, as `message/counts` answers them. */
export interface InboxCounts {
  unread: number;
  important: number;
  deleted: number;
  total: number;
}

/**
 * Something changed in this tab's inbox (a message sent, a thread read, marked, deleted or restored), with the counts
 * when the change answered them: the badge and open lists follow at once. Kept with the app-wide UI events so that
 * the inbox's lazy page and modal can send it without bringing the messages feature's eager code into their chunks.
 */
export const inboxChanged = createAction<InboxCounts | undefined>('messages/inboxChanged');
