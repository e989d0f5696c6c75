/** Messages: members writing to each other and to support, their inboxes, blocks and new-message mails. */
export { messagesRouter } from './messages.routes';
export {
  ADMIN_RECIPIENT,
  createMessagesService,
  ensureSupportAccount,
  forgetMessageThreads,
  hasBlocked,
  MESSAGE_LIMIT,
  MESSAGE_MESSAGES,
  type MessagesService,
} from './messages.service';
export {
  BlockModel,
  BoxModel,
  BoxVersionModel,
  CountChangeModel,
  CountSnapshotModel,
  InboxEntryModel,
  InboxHeadModel,
  MailClaimModel,
  MessageModel,
  ThreadModel,
} from './messages.model';
export { messagesExportOf, removeMessagesOf } from './messages.erasure';
export { repairMessageKeys } from './messages.repair';

export { buildStatesOfOlderSides, inboxListsState, unreadCountsState } from './messages.kept';
