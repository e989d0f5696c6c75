import type { AuthState } from './auth.slice';
import type { FormName } from './auth.types';

type WithAuth = { auth: AuthState };

export const selectIsLoggedIn = (state: WithAuth) => state.auth.isLoggedIn;
export const selectUser = (state: WithAuth) => state.auth.user;
export const selectToken = (state: WithAuth) => state.auth.token;
export const selectSubscription = (state: WithAuth) => state.auth.subscription;
export const selectPlans = (state: WithAuth) => state.auth.plans;
export const selectReactedContents = (state: WithAuth) => state.auth.reactedContents;
export const selectReactedCount = (state: WithAuth) => state.auth.reactedCount;
export const selectSessionStatus = (state: WithAuth) => state.auth.session;
export const selectSignupStep = (state: WithAuth) => state.auth.signup;
export const selectAuthForm = (state: WithAuth, form: FormName) => state.auth.forms[form];
/** A stored (or fresh) account exists: what the route guard asks. */
export const selectHasAccount = (state: WithAuth) => state.auth.user !== null;
export const selectIsAdmin = (state: WithAuth) => state.auth.user?.role === 'admin';
