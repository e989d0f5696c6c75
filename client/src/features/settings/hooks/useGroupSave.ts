import { useState } from 'react';
import { toApiError } from '../../../api/http';
import { notify } from '../../../components/notify';

/**
 * What each settings group does when it is saved: one save at a time, the server's messages shown under their
 * fields (or as a toast when they belong to no field), and a toast when it worked (`success`, or the message the
 * save answers).
 */
export function useGroupSave() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  async function save(run: () => Promise<string | void>, success = 'Success'): Promise<void> {
    setSaving(true);
    try {
      notify('success', (await run()) || success);
    } catch (error) {
      const apiError = toApiError(error);
      const fields = Object.fromEntries((apiError.errors ?? []).map((field) => [field.path, field.message]));
      setErrors(fields);
      if (!Object.keys(fields).length) notify('error', apiError.message);
    } finally {
      setSaving(false);
    }
  }

  return { errors, setErrors, saving, save };
}
