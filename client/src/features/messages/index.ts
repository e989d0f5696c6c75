/**
 * features/messages: the inbox (/inbox), the message modal (create and reply), the unread badge and the poll that
 * keeps it fresh, all read through the cache. The page and the modal are lazy chunks (they bring antd); the badge and
 * poll are plain.
 */
export { MessageCountsPoll, MESSAGE_POLL_MS } from './useMessageCounts';
export { UnreadBadge } from './components/UnreadBadge';
export { MESSAGE_TEXT } from './messages.text';

/** /inbox: the member's threads, a thread, and the support inbox for admins. */
export const loadInboxPage = () => import('./pages/InboxPage');
/** The message modal, in create or reply mode. */
export const loadMessageModal = () => import('./components/MessageModal');
