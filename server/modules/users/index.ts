/** Users: accounts' public data, look-ups, the user extension, and the session check every signed-in route uses. */
export { usersRouter } from './users.routes';
export {
  activateAccount,
  createAccount,
  deleteAccount,
  linkSocialId,
  markActivationSent,
  revokeAccessTokens,
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
  givePlanCreditBack,
  normalizeUsername,
  payoutEmailOf,
  planCreditsLeft,
  setPayoutEmail,
  takePlanCredit,
  usernameTaken,
  type CreditTier,
} from './users.service';
export * as usersService from './users.service';
export { profileImagesRouter } from './profile-images.routes';
export { optionalAuth, requireAuth, requireSelfOrAdmin } from './users.guards';
