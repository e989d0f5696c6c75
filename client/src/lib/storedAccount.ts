/**
 * The account (user and token) in localStorage, so a reload can restore the session. The app's auth feature keeps it;
 * the embeddable player (a page of its own) reads it too, and writes it when it renews the session in a Knack window.
 */
import type { components } from '../../../generated/openapi';

/** The account kept in browser storage: user and token. */
export interface StoredAccount {
  user: components['schemas']['User'];
  token: string;
}

export const ACCOUNT_KEY = 'knack:account';

/**
 * Runs a session renewal alone among this origin's pages (Web Locks, where the browser has them): the server rotates the
 * refresh cookie on every renewal and treats a refresh token used twice as theft (every session revoked), so no two
 * renewals may overlap, whether the app's tabs or a player's Knack window make them.
 */
export function withSessionLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  // request() resolves with what the task's promise resolves with.
  return locks ? (locks.request('knack:session-reload', task) as Promise<unknown> as Promise<T>) : task();
}

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined; // storage disabled: the session lasts as long as the page
  }
}

export function parseAccount(raw: string | null | undefined): StoredAccount | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredAccount> | null;
    if (!value || typeof value.token !== 'string' || !value.user || typeof value.user.id !== 'string') return null;
    return { user: value.user, token: value.token };
  } catch {
    return null;
  }
}

export function loadAccount(): StoredAccount | null {
  return parseAccount(storage()?.getItem(ACCOUNT_KEY));
}

export function saveAccount(account: StoredAccount): void {
  try {
    storage()?.setItem(ACCOUNT_KEY, JSON.stringify(account));
  } catch {
    // quota or privacy mode: keep going without persistence
  }
}

export function clearAccount(): void {
  try {
    storage()?.removeItem(ACCOUNT_KEY);
  } catch {
    // nothing to clear
  }
}
