/**
 * Session reload (POST auth/check-loggedin). The server rotates the refresh cookie on every reload and
 * treats a refresh token used twice as theft (every session revoked), so reloads never overlap: one at a
 * time in this page (callers share it), and one at a time across tabs (`withSessionLock`).
 */
import type { Dispatch } from '@reduxjs/toolkit';
import { checkLoggedIn, type CheckLoggedInResult } from '../../api/generated/operations';
import { registerAuthBridge } from '../../api/http';
import { withSessionLock } from '../../lib/storedAccount';
import { sessionLost, sessionRefreshed, type AuthState } from './auth.slice';

let inFlight: Promise<CheckLoggedInResult> | null = null;

export function reloadSession(token: string | null): Promise<CheckLoggedInResult> {
  inFlight ??= withSessionLock(() => checkLoggedIn(token ? { body: { token } } : {}, { quiet: 'a session that cannot be renewed ends quietly' })).finally(
    () => {
      inFlight = null;
    },
  );
  return inFlight;
}

interface StoreLike {
  getState(): { auth: AuthState };
  dispatch: Dispatch;
}

/** Lends the HTTP client the current token, the renewal and the quiet sign-out. */
export function installAuthBridge(store: StoreLike): () => void {
  return registerAuthBridge({
    getToken: () => store.getState().auth.token,
    renew: async () => {
      const result = await reloadSession(store.getState().auth.token);
      if (!result.token || !result.user) return null;
      store.dispatch(sessionRefreshed({ user: result.user, token: result.token }));
      return result.token;
    },
    sessionLost: () => {
      store.dispatch(sessionLost());
    },
  });
}
