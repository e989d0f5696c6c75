import { useEffect } from 'react';
import type { FormInstance } from 'antd/es/form';
import type { FieldError, FormState } from '../auth.types';

/** The field a server error names ('password', 'body.password' or '/body/password'). */
export function fieldOf(error: FieldError): string {
  return error.path.split(/[./]/).filter(Boolean).pop() ?? '';
}

/**
 * Shows the server's field errors under their fields (each field its own message; a message for two fields,
 * such as a password mismatch, marks both). Returns whether the failure named none of the form's fields, so
 * the form shows the message above the fields instead.
 */
export function useServerErrors(form: FormInstance, state: FormState, fields: readonly string[]): boolean {
  useEffect(() => {
    if (state.status !== 'failed') return;
    const byField = new Map<string, string[]>();
    for (const error of state.errors) {
      const field = fieldOf(error);
      if (fields.includes(field)) byField.set(field, [...(byField.get(field) ?? []), error.message]);
    }
    if (byField.size) form.setFields([...byField].map(([name, errors]) => ({ name, errors })));
  }, [form, state, fields]);
  return state.status === 'failed' && !state.errors.some((error) => fields.includes(fieldOf(error)));
}

/**
 * Fields validate on blur and on submit; a field's error clears as soon as it is edited. A mismatch message
 * on the partner password field clears too, since editing either side may fix it.
 */
export function clearErrorsOnEdit(form: FormInstance, partners: Record<string, string> = {}, mismatch?: string) {
  return (changed: Record<string, unknown>) => {
    const names = Object.keys(changed);
    const updates = names.map((name) => ({ name, errors: [] as string[] }));
    for (const name of names) {
      const partner = partners[name];
      if (partner && mismatch && form.getFieldError(partner).includes(mismatch)) updates.push({ name: partner, errors: [] });
    }
    form.setFields(updates);
  };
}

/** A form rule's answer to a problem found by one of the auth rules: refused with its message, or passed (null). */
export const refuseWith = (problem: string | null): Promise<void> => (problem ? Promise.reject(new Error(problem)) : Promise.resolve());
