import { useState } from 'react';
import type { CachedError } from '../../../api/cache';
import { notify } from '../../../components/notify';

/** Why the settings' saves are quiet: each group shows the server's messages under their fields itself. */
export const SHOWN_UNDER_THE_FIELDS = 'the settings group shows the server’s messages under their fields';

/**
 * What each settings group does when it is saved: one save at a time, the server's messages shown under their
 * fields (or as a toast when they belong to no field), and a toast when it worked (`success`, or the message the
 * save answers). `run` makes its calls quiet (`SHOWN_UNDER_THE_FIELDS`) and unwraps them, so a refusal reaches here.
 */
export function useGroupSave() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  async function save(run: () => Promise<string | void>, success = 'Success'): Promise<void> {
    setSaving(true);
    try {
      notify('success', (await run()) || success);
    } catch (error) {
      const failure = error as CachedError;
      const fields = Object.fromEntries((failure.errors ?? []).map((field) => [field.path, field.message]));
      setErrors(fields);
      if (!Object.keys(fields).length) notify('error', failure.message);
    } finally {
      setSaving(false);
    }
  }

  return { errors, setErrors, saving, save };
}
