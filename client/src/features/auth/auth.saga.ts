/**
 * Auth flows: login, signup (two steps), activation link, forgot / reset password, social
 * sign-in, logout, and the session reload at start. Calls go through the generated functions; form errors
 * are shown by the forms (quiet calls), other messages through `notify`.
 */
import type { PayloadAction, UnknownAction } from '@reduxjs/toolkit';
import { eventChannel, type EventChannel, type SagaIterator } from 'redux-saga';
import { call, fork, put, race, select, take, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import {
  cancelEmailChange,
  confirmAccount,
  confirmEmailChange,
  facebookSignin,
  getUserByEmail,
  googleSignin,
  logout,
  requestPasswordReset,
  resendActivationEmail,
  resetPassword,
  signin,
  signup,
  signupOrland,
  type RequestPasswordResetResult,
  type ResendActivationEmailResult,
  type ResetPasswordResult,
  type ConfirmEmailChangeResult as EmailLinkAnswer,
} from '../../api/generated/operations';
import { knackApi } from '../../api/generated/endpoints';
import { toApiError } from '../../api/http';
import { PATHS } from '../../lib/constants';
import { currentPath, navigateTo } from '../../lib/navigation';
import { sessionChanged, track } from '../../lib/track';
import { notify } from '../../components/notify';
import { modalClosed, modalOpened, selectModalProps, type ModalProps } from '../../lib/ui';
import { AUTH_MESSAGES, normalizeEmail, normalizeUsername } from './auth.rules';
import { reloadSession } from './auth.session';
import {
  accountConfirmFinished,
  accountConfirmRequested,
  activationEmailResendRequested,
  emailChangeLinkOpened,
  authFormFailed,
  facebookLoginReceived,
  googleCredentialReceived,
  loggedOut,
  loginNeedsActivation,
  loginSubmitted,
  loginSucceeded,
  logoutRequested,
  newPasswordSubmitted,
  passwordResetEmailSent,
  passwordResetRequested,
  passwordResetSucceeded,
  registrationSubmitted,
  sessionLost,
  sessionRefreshed,
  sessionRestored,
  userUpdated,
  signupDetailsShown,
  signupEmailSubmitted,
  signupSubmitted,
  signupSucceeded,
  type AuthState,
} from './auth.slice';
import { ACCOUNT_KEY, clearAccount, parseAccount, saveAccount } from '../../lib/storedAccount';
import type { AuthResponse, EmailChangeLink, FormName, RegistrationValues, Session, SignupValues, StoredAccount } from './auth.types';

type WithAuth = { auth: AuthState };
const selectAuth = (state: WithAuth) => state.auth;

export const PATHS_AFTER_LOGIN = { userProfile: '/profile/default', default: '/explore' } as const;

/** A complete session from an auth answer, or null when it carries no token (account not activated). */
export function toSession(result: AuthResponse): Session | null {
  if (!result.token || !result.user) return null;
  return { user: result.user, token: result.token, reactedContents: result.reacted_contents };
}

function* formFailed(form: FormName, error: unknown): SagaIterator {
  const apiError = toApiError(error);
  yield put(authFormFailed({ form, message: apiError.message, errors: apiError.errors ?? [] }));
}

function goHome(): void {
  if (currentPath() !== '/') navigateTo('/', { replace: true });
}

/**
 * After a sign-in from a modal: the modal closes; 'onClickKnack' and 'comments' (after a login)
 * or 'onClickKnack', 'comments' and 'pricing' (after a signup) run the callback (the comment box takes the focus
 * again, so the comment goes on); 'userProfile' goes to the own profile;
 * anything else goes to /explore. 'upload' (a visitor pressed Upload) runs its callback too: the upload
 * modal opens once signed in.
 */
export function* afterSignIn(kind: 'login' | 'signup'): SagaIterator {
  const props: ModalProps = yield select(selectModalProps);
  yield put(modalClosed());
  const callbackOrigins = kind === 'login' ? ['onClickKnack', 'comments', 'upload'] : ['onClickKnack', 'comments', 'pricing', 'upload'];
  if (props.origin && callbackOrigins.includes(props.origin)) {
    // A copy: the stored action is frozen state, and the saga middleware marks the actions it puts.
    if (props.callback) yield put({ ...props.callback });
    return;
  }
  yield call(navigateTo, kind === 'login' && props.origin === 'userProfile' ? PATHS_AFTER_LOGIN.userProfile : PATHS_AFTER_LOGIN.default);
}

// Login

/**
 * A login's or a signup's answer: a session signs the person in (a server that activates at once does so for a
 * signup too); an answer without one means the account waits for activation, and the form shows 'Check Your Email'
 * with the server's message; a refusal shows on the form.
 */
function* answerAccountForm(kind: 'login' | 'signup', email: string, send: () => Promise<AuthResponse>): SagaIterator {
  try {
    const result: AuthResponse = yield call(send);
    // An account made is a sign-up, whether it is signed in at once or waits for its activation.
    if (kind === 'signup') yield call(track, 'signup');
    const session = toSession(result);
    if (!session) {
      const sent = { email, message: result.message || AUTH_MESSAGES.checkEmail };
      yield put(kind === 'login' ? loginNeedsActivation(sent) : signupSucceeded(sent));
      return;
    }
    yield put(loginSucceeded(session));
    if (kind === 'login') yield call(track, 'login');
    yield call(afterSignIn, kind);
  } catch (error) {
    yield call(formFailed, kind, error);
  }
}

export function* login(action: PayloadAction<{ email: string; password: string }>): SagaIterator {
  const email = normalizeEmail(action.payload.email);
  yield call(answerAccountForm, 'login', email, () =>
    signin({ body: { email, password: action.payload.password } }, { quiet: 'the sign-in form shows a refusal under its fields' }),
  );
}

// Signup

/** Step 1: an email that has an account opens login prefilled; otherwise (or if the look-up fails) step 2. */
export function* checkSignupEmail(action: PayloadAction<string>): SagaIterator {
  const email = normalizeEmail(action.payload);
  let exists = false;
  try {
    const result: { exists: boolean } = yield call(
      getUserByEmail,
      { path: { email } },
      { quiet: 'an unknown email leads on to sign-up rather than to an error' },
    );
    exists = result.exists;
  } catch {
    exists = false; // 404: nobody uses it; any other failure: let the person go on
  }
  if (exists) {
    const props: ModalProps = yield select(selectModalProps);
    yield put(modalOpened({ name: 'login', email, origin: props.origin, callback: props.callback }));
  } else {
    yield put(signupDetailsShown(email));
  }
}

export function* submitSignup(action: PayloadAction<SignupValues>): SagaIterator {
  const { signup: step } = (yield select(selectAuth)) as AuthState;
  const values = action.payload;
  const firstName = values.firstName.trim();
  const lastName = values.lastName.trim();
  const body = {
    email: step.email,
    firstName,
    lastName,
    fullName: `${firstName} ${lastName}`,
    username: normalizeUsername(values.username),
    password: values.password,
    passwordConfirm: values.passwordConfirm,
  };
  yield call(answerAccountForm, 'signup', step.email, () => signup({ body }, { quiet: 'the sign-up form shows a refusal under its fields' }));
}

export function* resendActivation(action: PayloadAction<string>): SagaIterator {
  try {
    const result: ResendActivationEmailResult = yield call(resendActivationEmail, { path: { email: normalizeEmail(action.payload) } });
    yield call(notify, 'success', result.message);
  } catch {
    // the HTTP client already showed the server's message
  }
}

// Forgot and reset password

export function* requestReset(action: PayloadAction<string>): SagaIterator {
  const email = normalizeEmail(action.payload);
  try {
    const result: RequestPasswordResetResult = yield call(
      requestPasswordReset,
      { body: { email } },
      { quiet: 'the reset form shows a refusal under its field' },
    );
    yield put(passwordResetEmailSent({ email, message: result.message }));
    yield call(track, 'forgot_password');
  } catch (error) {
    yield call(formFailed, 'forgot', error);
  }
}

export function* submitNewPassword(action: PayloadAction<{ token: string; newPassword: string; passwordConfirm: string }>): SagaIterator {
  try {
    const result: ResetPasswordResult = yield call(
      resetPassword,
      { body: action.payload },
      { quiet: 'the new-password form shows a refusal under its fields' },
    );
    yield put(passwordResetSucceeded(result.message));
    yield call(track, 'reset_password');
    yield put(modalOpened({ name: 'login', notice: result.message }));
  } catch (error) {
    yield call(formFailed, 'reset', error);
  }
}

// Registering a waiting account (the `{name} register` modal, opened from the link mailed after a Top 50 upload)

/**
 * Registers the account and signs it in; the modal closes and the chart page loses the link's token from its
 * address (the chart, where the song now shows, loads again).
 */
export function* submitRegistration(action: PayloadAction<RegistrationValues>): SagaIterator {
  const values = { ...action.payload, username: normalizeUsername(action.payload.username) };
  try {
    const result: AuthResponse = yield call(signupOrland, { body: values }, { quiet: 'the register form shows a refusal under its fields' });
    // The account an upload left waiting becomes the person's own: their sign-up.
    yield call(track, 'signup');
    const session = toSession(result);
    if (session) {
      yield put(loginSucceeded(session));
      yield call(track, 'login');
    }
    yield put(modalClosed());
    yield put(knackApi.util.invalidateTags(['Content', 'User']));
    yield call(notify, 'success', result.message || AUTH_MESSAGES.activated);
    const path = currentPath();
    const chart = /^\/[^/]+-music-top-50/.exec(path)?.[0];
    if (chart && chart !== path) yield call(navigateTo, chart, { replace: true });
  } catch (error) {
    yield call(formFailed, 'register', error);
  }
}

// Activation link (/confirm?token=…)

export function* confirm(action: PayloadAction<string>): SagaIterator {
  try {
    const result: AuthResponse = yield call(confirmAccount, { body: { token: action.payload } }, { quiet: 'the activation page says what went wrong' });
    const session = toSession(result);
    if (session) {
      yield put(loginSucceeded(session));
      // The activation signs the member in: their first sign-in.
      yield call(track, 'login');
    }
    yield put(accountConfirmFinished({ ok: true, message: result.message }));
    yield call(notify, 'success', result.message || AUTH_MESSAGES.activated);
  } catch (error) {
    const message = toApiError(error).message;
    yield put(accountConfirmFinished({ ok: false, message }));
    yield call(notify, 'error', message);
  }
  // The activation link goes home whether it worked or not.
  yield call(navigateTo, '/', { replace: true });
}

// Email change links (/confirm?token=…&action=email, or action=cancel-email from the notice to the old address)

export function* openEmailChangeLink(action: PayloadAction<{ token: string; kind: EmailChangeLink }>): SagaIterator {
  const { token, kind } = action.payload;
  let signedInAsThem = false;
  try {
    const result: EmailLinkAnswer = yield call(
      kind === 'email' ? confirmEmailChange : cancelEmailChange,
      { body: { token } },
      { quiet: 'the email-link page says what went wrong' },
    );
    // Opened in a browser signed in as the member: its copy of the account changes too. A cancel link signs
    // everyone out of the account, this browser too: it goes home signed out, to choose a new password.
    const { user } = (yield select(selectAuth)) as AuthState;
    signedInAsThem = user?.id === result.userId;
    if (user && signedInAsThem && kind === 'cancel-email') {
      yield put(loggedOut());
      signedInAsThem = false;
    } else if (user && signedInAsThem) yield put(userUpdated({ ...user, email: result.email, pendingEmail: null }));
    yield put(accountConfirmFinished({ ok: true, message: result.message }));
    yield call(notify, 'success', result.message);
  } catch (error) {
    const message = toApiError(error).message;
    yield put(accountConfirmFinished({ ok: false, message }));
    yield call(notify, 'error', message);
  }
  // The member's settings show their email as it is now; anyone else goes home, as with the activation link.
  yield call(navigateTo, signedInAsThem ? PATHS.settings : '/', { replace: true });
}

// Social sign-in (only offered when the server has the provider configured)

function* socialSignIn(provider: 'Google' | 'Facebook', send: () => Promise<AuthResponse>): SagaIterator {
  const prefix = provider === 'Google' ? AUTH_MESSAGES.googleError : AUTH_MESSAGES.facebookError;
  try {
    const result: AuthResponse = yield call(send);
    const session = toSession(result);
    if (!session) {
      yield put(loginNeedsActivation({ email: '', message: result.message || AUTH_MESSAGES.checkEmail }));
      return;
    }
    yield put(loginSucceeded(session));
    yield call(track, 'login');
    yield call(afterSignIn, 'login');
  } catch (error) {
    const message = `${prefix} ${toApiError(error).message}`;
    console.error(message);
    yield call(notify, 'error', message);
  }
}

export function* googleLogin(action: PayloadAction<string>): SagaIterator {
  yield call(socialSignIn, 'Google', () =>
    googleSignin({ body: { credential: action.payload } }, { quiet: 'the sign-in form shows a refusal under its fields' }),
  );
}

export function* facebookLogin(action: PayloadAction<{ accessToken: string; userID?: string }>): SagaIterator {
  yield call(socialSignIn, 'Facebook', () => facebookSignin({ body: action.payload }, { quiet: 'the sign-in form shows a refusal under its fields' }));
}

// Session

/** Quiet sign-out: the store and storage are cleared and the visitor goes home (unless there already). */
export function* signOutQuietly(): SagaIterator {
  yield put(loggedOut());
  yield call(goHome);
}

/** Start with a stored account: reload it (user, token, reacted contents); a failed reload signs out quietly. */
export function* restoreSession(): SagaIterator {
  const { user, token } = (yield select(selectAuth)) as AuthState;
  if (!user) return;
  try {
    const { result, interrupted } = (yield race({
      result: call(reloadSession, token),
      interrupted: take([loginSucceeded.type, loggedOut.type]),
    })) as { result?: AuthResponse; interrupted?: UnknownAction };
    if (interrupted || !result) return; // a login or logout happened meanwhile: it wins
    const session = toSession(result);
    if (!session) throw new Error('The session reload answered no token.');
    yield put(sessionRestored(session));
  } catch {
    yield call(signOutQuietly);
  }
}

export function* logoutFlow(): SagaIterator {
  yield put(loggedOut());
  yield call(goHome);
  try {
    yield call(logout, {}, { quiet: 'the member is signed out here whatever the server answers' });
  } catch {
    // the local sign-out stands; the refresh cookie expires on its own
  }
}

export function* onSessionLost(): SagaIterator {
  const { isLoggedIn } = (yield select(selectAuth)) as AuthState;
  if (isLoggedIn) yield call(signOutQuietly);
}

/** Keeps the account stored in the browser in step with the store. */
export function* persistAccount(): SagaIterator {
  const { user, token } = (yield select(selectAuth)) as AuthState;
  if (user && token) yield call(saveAccount, { user, token });
  else yield call(clearAccount);
}

/** Another tab signed out or renewed the token: follow it. */
function accountChanges(): EventChannel<{ account: StoredAccount | null }> {
  return eventChannel((emit) => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === ACCOUNT_KEY || event.key === null) emit({ account: parseAccount(event.newValue) });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  });
}

function* followOtherTabs(): SagaIterator {
  if (typeof window === 'undefined') return;
  const channel: EventChannel<{ account: StoredAccount | null }> = yield call(accountChanges);
  try {
    for (;;) {
      const { account }: { account: StoredAccount | null } = yield take(channel);
      const state = (yield select(selectAuth)) as AuthState;
      if (!account && state.isLoggedIn) yield call(signOutQuietly);
      else if (account && state.user?.id === account.user.id && account.token !== state.token) {
        yield put(sessionRefreshed(account));
      }
    }
  } finally {
    channel.close();
  }
}

export function* authSaga(): SagaIterator {
  yield takeLatest(loginSubmitted.type, login);
  yield takeLatest(signupEmailSubmitted.type, checkSignupEmail);
  yield takeLatest(signupSubmitted.type, submitSignup);
  yield takeLeading(activationEmailResendRequested.type, resendActivation);
  yield takeLatest(passwordResetRequested.type, requestReset);
  yield takeLatest(newPasswordSubmitted.type, submitNewPassword);
  yield takeLeading(registrationSubmitted.type, submitRegistration);
  // The confirm page may ask twice (React strict mode); an activation token works once.
  yield takeLeading(accountConfirmRequested.type, confirm);
  yield takeLeading(emailChangeLinkOpened.type, openEmailChangeLink);
  yield takeLeading(googleCredentialReceived.type, googleLogin);
  yield takeLeading(facebookLoginReceived.type, facebookLogin);
  yield takeLeading(logoutRequested.type, logoutFlow);
  yield takeLeading(sessionLost.type, onSessionLost);
  yield takeEvery([loginSucceeded.type, sessionRestored.type, sessionRefreshed.type, userUpdated.type, loggedOut.type], persistAccount);
  // Product events sent from now on are another member's, or a visitor's: beacons included.
  yield takeEvery([loginSucceeded.type, loggedOut.type], function* toldProductEvents() {
    yield call(sessionChanged);
  });
  yield fork(followOtherTabs);
  yield fork(restoreSession);
}
