/** What tests need beyond the index: the mails sent, by their keys. */
export { MailSendModel, type MailSendDoc } from './mailings.model';
