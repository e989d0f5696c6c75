import { useState } from 'react';
import { toApiError } from '../api/http';
import { notify } from '../components/notify';

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
      notify('error', toApiError(error).message);
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { busy, run };
}
