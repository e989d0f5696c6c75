/** The account (user and token) in localStorage, so a reload can restore the session. */
import type { StoredAccount } from './auth.types';

export const ACCOUNT_KEY = 'knack:account';

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
