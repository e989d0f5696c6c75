/** Users: accounts' public data, look-ups, the user extension, and the session check every signed-in route uses. */
export { usersRouter } from './users.routes';
export {
  activateAccount,
  createAccount,
  deleteAccount,
  linkSocialId,
  markActivationSent,
  memberBySocialId,
  registerWaitingAccount,
  revokeAccessTokens,
  waitingAccountFor,
  setPasswordHash,
  type NewAccount,
} from './users.accounts';
export { UserModel, UserExtModel, userReads, userExtReads, type UserDoc } from './users.model';
export { roleOf, toPublicUserDto, toUserDto, type Role } from './users.mapper';
export {
  adjustContentsCount,
  backfillSearchWords,
  setMemberTotals,
  setFollowTotals,
  type MemberTotals,
  findUserByEmail,
  normalizeUsername,
  usernameTaken,
} from './users.service';
export {
  holdPayoutEmailSetSince,
  payoutAccountOf,
  payoutAccountsOf,
  payoutEmailOf,
  releasePayoutHold,
  setPayoutEmail,
  type PayoutAccount,
} from './users.payout';
export * as usersService from './users.service';
export {
  adjustCredits,
  creditMovementsOf,
  forgetCreditLists,
  creditUsesBefore,
  creditsOf,
  givePlanCreditBack,
  grantCredits,
  planCreditsLeft,
  settlePendingCredits,
  takePlanCredit,
  CREDIT_MESSAGES,
  type CreditMovementDoc,
  type CreditTier,
} from './credits';
export { accountExportOf, closeAccount, removeAccount } from './users.erasure';
export {
  dropPendingEmail,
  pendingEmailOf,
  renameAccount,
  resolveUsername,
  setPendingEmail,
  switchEmail,
  takeBackAccount,
  usernameHeldByAnother,
  type RenameResult,
} from './users.identity';
export {
  memberById,
  memberPage,
  memberStatusOf,
  setDeactivated,
  toMemberSummaryDto,
  type MemberFields,
  type MemberQuery,
  type MemberStatus,
  type MemberStatusFilter,
} from './users.members';
export { ensureMemberKeys, memberKeysState } from './users.keys';
export { creditListsState } from './credits.kept';
export { anyMemberExists } from './users.service';
export { MAIL_CHOICE_FIELDS, setMailChoice, type MailChoice } from './users.settings';
export { profileImagesRouter } from './profile-images.routes';
export { creditsRouter } from './credits.routes';
export { memberWhoMayAct, optionalAuth, requireAuth } from './users.guards';
export { nameIndexState, newestMembersMatching } from './users.search';
