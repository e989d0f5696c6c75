/**
 * features/auth: accounts and sessions (the auth modals and their form rules, login, signup, the session
 * reload, the route guard's account check). The modals and pages are lazy chunks, loaded through here.
 */
export {
  authReducer,
  initialAuthState,
  loginSubmitted,
  loginSucceeded,
  loginNeedsActivation,
  signupEmailSubmitted,
  signupDetailsShown,
  signupSubmitted,
  signupSucceeded,
  passwordResetRequested,
  newPasswordSubmitted,
  registrationSubmitted,
  accountConfirmRequested,
  authFormFailed,
  sessionRestored,
  sessionRefreshed,
  userUpdated,
  sessionLost,
  logoutRequested,
  loggedOut,
} from './auth.slice';
export type { AuthState } from './auth.slice';
export { authSaga, toSession } from './auth.saga';
export { installAuthBridge, reloadSession } from './auth.session';
export {
  selectIsLoggedIn,
  selectUser,
  selectToken,
  selectSubscription,
  selectPlans,
  selectReactedContents,
  selectReactedCount,
  selectSessionStatus,
  selectHasAccount,
  selectIsAdmin,
} from './auth.selectors';
export { AUTH_MESSAGES, emailProblem, normalizeEmail, normalizeUsername, usernameProblem } from './auth.rules';
export { ACCOUNT_KEY, loadAccount, saveAccount, clearAccount } from '../../lib/storedAccount';
export type { User, UserExt, Subscription, Plan, Session, StoredAccount } from './auth.types';

/** The login / signup / forgot / reset modals (one chunk, loaded when one opens). */
export const loadAuthModal = () => import('./components/AuthModal');
/** /confirm?token=…: activates the account, then home; or opens a link of an email change. */
export const loadConfirmPage = () => import('./pages/ConfirmPage');
/** /auth/{type}: opens the matching modal over the home page. */
export const loadAuthRoutePage = () => import('./pages/AuthRoutePage');
export type { AuthModalName } from './components/AuthModal';
