import { useState } from 'react';
import type { CachedError } from '../api/cache';
import { toApiError } from '../api/http';
import { notify } from '../components/notify';

/** The server's message of a failed call: the HTTP client's ApiError, or the plain CachedError a cached change throws. */
function failureMessage(error: unknown): string {
  const cached = error as Partial<CachedError> | null;
  return !(error instanceof Error) && typeof cached?.message === 'string' ? cached.message : toApiError(error).message;
}

/**
 * One call at a time from a button: `busy` while it runs, its success message as a toast (the message the call
 * answers, when it answers one), and the server's message as an error toast when it fails. `run` answers
 * whether it worked, so the caller can close a modal or move on.
 */
export function useToastedCall() {
  const [busy, setBusy] = useState(false);

  async function run(call: () => Promise<string | void>): Promise<boolean> {
    setBusy(true);
    try {
      const message = await call();
      if (message) notify('success', message);
      return true;
    } catch (error) {
      notify('error', failureMessage(error));
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { busy, run };
}
