/** The mails the jobs send to members (payout notice, monthly statement, weekly digest) and their one-click unsubscribe. */
export { unsubscribeRouter, UNSUBSCRIBE_PATH } from './mailings.routes';
export { createMailingsService, PAYOUT_NOTICE_LOOKBACK_MS, type MailingsDeps, type MailingsService, type MailRunSummary } from './mailings.service';
export { MAIL_KINDS, unsubscribeUrl } from './mailings.links';
export type { MailKind } from './mailings.model';
