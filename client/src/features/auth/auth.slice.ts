import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { knackApi } from '../../api/generated/endpoints';
import { knackRegistered } from '../../lib/contentEvents';
import { modalOpened } from '../../lib/ui';
import { loadAccount } from '../../lib/storedAccount';
import type {
  EmailChangeLink,
  FieldError,
  FormName,
  FormState,
  Plan,
  RegistrationValues,
  Session,
  SignupValues,
  StoredAccount,
  Subscription,
  User,
} from './auth.types';

/**
 * Client auth state: isLoggedIn, user, token, the reacted contents list with its counter; plus the status of each
 * auth form and the signup step. The member's extension, subscription and the plans are server reads: the screens
 * read them through the cache.
 */
export interface AuthState {
  isLoggedIn: boolean;
  user: User | null;
  token: string | null;
  /**
   * Copies of the cache's latest reads of the member's subscription and of the plans, for the readers that still
   * take them from here (selectSubscription, selectPlans): they follow the cache, nothing loads them for this state.
   */
  subscription: Subscription | null;
  plans: Plan[];
  reactedContents: string[];
  reactedCount: number;
  /** guest: no account; restoring: a stored account is being reloaded; active: the server confirmed it. */
  session: 'guest' | 'restoring' | 'active';
  signup: { step: 1 | 2; email: string };
  forms: Record<FormName, FormState>;
}

const idleForm: FormState = { status: 'idle', message: null, errors: [] };
const idleForms = (): Record<FormName, FormState> => ({
  login: idleForm,
  signup: idleForm,
  forgot: idleForm,
  reset: idleForm,
  confirm: idleForm,
  register: idleForm,
});

/** The state at start: signed in from the stored account (if any) while it is reloaded. */
export function initialAuthState(account: StoredAccount | null = loadAccount()): AuthState {
  return {
    isLoggedIn: Boolean(account),
    user: account?.user ?? null,
    token: account?.token ?? null,
    subscription: null,
    plans: [],
    reactedContents: [],
    reactedCount: 0,
    session: account ? 'restoring' : 'guest',
    signup: { step: 1, email: '' },
    forms: idleForms(),
  };
}

export interface FormFailure {
  form: FormName;
  message: string;
  errors: FieldError[];
}

function signIn(state: AuthState, session: Session) {
  state.isLoggedIn = true;
  state.user = session.user;
  state.token = session.token;
  state.reactedContents = session.reactedContents;
  state.reactedCount = session.reactedContents.length;
  state.session = 'active';
}

const MODAL_FORMS: Partial<Record<string, FormName>> = {
  login: 'login',
  signup: 'signup',
  'forgot-password': 'forgot',
  'reset-password': 'reset',
  'artist-register': 'register',
};

const authSlice = createSlice({
  name: 'auth',
  initialState: () => initialAuthState(),
  reducers: {
    // Login
    loginSubmitted(state, _action: PayloadAction<{ email: string; password: string }>) {
      state.forms.login = { status: 'sending', message: null, errors: [] };
    },
    loginSucceeded(state, action: PayloadAction<Session>) {
      signIn(state, action.payload);
      state.forms.login = { status: 'idle', message: null, errors: [] };
    },
    /** The password was right but the account is not activated: no token, 'Check Your Email'. */
    loginNeedsActivation(state, action: PayloadAction<{ email: string; message: string }>) {
      state.forms.login = { status: 'sent', message: action.payload.message, errors: [], email: action.payload.email };
    },
    // Signup
    signupEmailSubmitted(state, action: PayloadAction<string>) {
      state.forms.signup = { status: 'sending', message: null, errors: [] };
      state.signup.email = action.payload;
    },
    signupDetailsShown(state, action: PayloadAction<string>) {
      state.forms.signup = idleForm;
      state.signup = { step: 2, email: action.payload };
    },
    signupBackToEmail(state) {
      state.forms.signup = idleForm;
      state.signup.step = 1;
    },
    signupSubmitted(state, _action: PayloadAction<SignupValues>) {
      state.forms.signup = { status: 'sending', message: null, errors: [] };
    },
    /** The account exists and the activation mail is sent: 'Check Your Email'. */
    signupSucceeded(state, action: PayloadAction<{ email: string; message: string }>) {
      state.forms.signup = { status: 'sent', message: action.payload.message, errors: [], email: action.payload.email };
    },
    activationEmailResendRequested(_state, _action: PayloadAction<string>) {},
    // Forgot and reset password
    passwordResetRequested(state, action: PayloadAction<string>) {
      state.forms.forgot = { status: 'sending', message: null, errors: [], email: action.payload };
    },
    passwordResetEmailSent(state, action: PayloadAction<{ email: string; message: string }>) {
      state.forms.forgot = { status: 'sent', message: action.payload.message, errors: [], email: action.payload.email };
    },
    newPasswordSubmitted(state, _action: PayloadAction<{ token: string; newPassword: string; passwordConfirm: string }>) {
      state.forms.reset = { status: 'sending', message: null, errors: [] };
    },
    passwordResetSucceeded(state, action: PayloadAction<string>) {
      state.forms.reset = { status: 'sent', message: action.payload, errors: [] };
    },
    /** The `{name} register` form was sent (a waiting account registered from its mailed link). */
    registrationSubmitted(state, _action: PayloadAction<RegistrationValues>) {
      state.forms.register = { status: 'sending', message: null, errors: [] };
    },
    // Activation link
    accountConfirmRequested(state, _action: PayloadAction<string>) {
      state.forms.confirm = { status: 'sending', message: null, errors: [] };
    },
    accountConfirmFinished(state, action: PayloadAction<{ ok: boolean; message: string }>) {
      state.forms.confirm = { status: action.payload.ok ? 'sent' : 'failed', message: action.payload.message, errors: [] };
    },
    /** A link of an email change was opened (/confirm?token=…&action=email or action=cancel-email); it shows as the confirm page. */
    emailChangeLinkOpened(state, _action: PayloadAction<{ token: string; kind: EmailChangeLink }>) {
      state.forms.confirm = { status: 'sending', message: null, errors: [] };
    },
    /** Any auth form's call failed; the server's message and the fields it named. */
    authFormFailed(state, action: PayloadAction<FormFailure>) {
      const { form, message, errors } = action.payload;
      state.forms[form] = { status: 'failed', message, errors };
    },
    // Social sign-in
    googleCredentialReceived(_state, _action: PayloadAction<string>) {},
    facebookLoginReceived(_state, _action: PayloadAction<{ accessToken: string; userID?: string }>) {},
    // Session
    sessionRestored(state, action: PayloadAction<Session>) {
      signIn(state, action.payload);
    },
    /** A new access token (the 401 renewal, or another tab). */
    sessionRefreshed(state, action: PayloadAction<{ user: User; token: string }>) {
      state.user = action.payload.user;
      state.token = action.payload.token;
      state.isLoggedIn = true;
      state.session = 'active';
    },
    /** The account changed (a new profile photo or header image): the server's fresh copy of the user. */
    userUpdated(state, action: PayloadAction<User>) {
      if (state.user && state.user.id === action.payload.id) state.user = action.payload;
    },
    /** The session could not be renewed (the HTTP client's 401 handling): sign out quietly. */
    sessionLost() {},
    logoutRequested() {},
    /** Logout clears the account, its subscription and the reacted list. Plans are not personal. */
    loggedOut(state) {
      state.isLoggedIn = false;
      state.user = null;
      state.token = null;
      state.subscription = null;
      state.reactedContents = [];
      state.reactedCount = 0;
      state.session = 'guest';
    },
  },
  extraReducers: (builder) => {
    // A knack the server counted for this member joins the reacted list (once).
    builder.addCase(knackRegistered, (state, action) => {
      const { contentId, knackStatus } = action.payload;
      if (knackStatus !== 2 || state.reactedContents.includes(contentId)) return;
      state.reactedContents.push(contentId);
      state.reactedCount += 1;
    });
    // A modal opens fresh: its form forgets the last answer; signup starts at step 1.
    builder.addCase(modalOpened, (state, action) => {
      const form = MODAL_FORMS[action.payload.name];
      if (form) state.forms[form] = idleForm;
      if (action.payload.name === 'signup') state.signup = { step: 1, email: action.payload.email ?? '' };
    });
    builder.addMatcher(knackApi.endpoints.getSubscription.matchFulfilled, (state, action) => {
      if (action.meta.arg.originalArgs.path.id === state.user?.id) state.subscription = action.payload.subscription;
    });
    builder.addMatcher(knackApi.endpoints.getAllPlans.matchFulfilled, (state, action) => {
      state.plans = action.payload.plans;
    });
  },
});

export const {
  loginSubmitted,
  loginSucceeded,
  loginNeedsActivation,
  signupEmailSubmitted,
  signupDetailsShown,
  signupBackToEmail,
  signupSubmitted,
  signupSucceeded,
  activationEmailResendRequested,
  passwordResetRequested,
  passwordResetEmailSent,
  newPasswordSubmitted,
  passwordResetSucceeded,
  registrationSubmitted,
  accountConfirmRequested,
  accountConfirmFinished,
  emailChangeLinkOpened,
  authFormFailed,
  googleCredentialReceived,
  facebookLoginReceived,
  sessionRestored,
  sessionRefreshed,
  userUpdated,
  sessionLost,
  logoutRequested,
  loggedOut,
} = authSlice.actions;
export const authReducer = authSlice.reducer;
