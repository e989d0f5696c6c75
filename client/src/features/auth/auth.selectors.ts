import { createSelector } from '@reduxjs/toolkit';
import type { AuthState } from './auth.slice';
import type { FormName } from './auth.types';

type WithAuth = { auth: AuthState };

export const selectIsLoggedIn = (state: WithAuth) => state.auth.isLoggedIn;
export const selectUser = (state: WithAuth) => state.auth.user;
export const selectToken = (state: WithAuth) => state.auth.token;
export const selectUserExt = (state: WithAuth) => state.auth.userExt;
export const selectSubscription = (state: WithAuth) => state.auth.subscription;
export const selectPlans = (state: WithAuth) => state.auth.plans;
export const selectReactedContents = (state: WithAuth) => state.auth.reactedContents;
export const selectReactedCount = (state: WithAuth) => state.auth.reactedCount;
export const selectSessionStatus = (state: WithAuth) => state.auth.session;
export const selectAuthProviders = (state: WithAuth) => state.auth.providers;
export const selectSignupStep = (state: WithAuth) => state.auth.signup;
export const selectAuthForm = (state: WithAuth, form: FormName) => state.auth.forms[form];
/** A stored (or fresh) account exists: what the route guard asks. */
export const selectHasAccount = (state: WithAuth) => state.auth.user !== null;
export const selectIsAdmin = (state: WithAuth) => state.auth.user?.role === 'admin';

/** The side menu's Analytics shows when the subscription's plan is among the known plans. */
export const selectHasKnownPlan = createSelector([selectSubscription, selectPlans], (subscription, plans) =>
  Boolean(subscription && plans.some((plan) => plan.planId === subscription.planId)),
);

/** The location line of the side menu: 'City, State', or null when neither is known. */
export const selectLocationLine = createSelector([selectUserExt], (ext) => {
  const parts = [ext?.city, ext?.state].map((part) => part?.trim()).filter(Boolean);
  return parts.length ? parts.join(', ') : null;
});
