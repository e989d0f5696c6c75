/** Account: "Download my data" and "Delete my account", put together from the parts each module exports. */
export { accountRouter } from './account.routes';
export { createAccountService, ACCOUNT_MESSAGES, DOWNLOAD_LIMIT, STALLED_DELETION_MS, type AccountService } from './account.service';
export { AccountDeletionModel } from './account.model';
