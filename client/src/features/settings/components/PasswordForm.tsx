import { useState, type FormEvent } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import { useChangePasswordMutation } from '../../../api/generated/endpoints';
import { MESSAGES } from '../../../../../generated/validation';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { selectUser, sessionRefreshed } from '../../auth';
import { SHOWN_UNDER_THE_FIELDS, useGroupSave } from '../hooks/useGroupSave';
import { FieldError } from './FieldError';

const EMPTY = { password: '', newPassword: '', confirm: '' };

/**
 * The password group: the current password, then the new one twice. Saving signs out every other device; this one
 * goes on with the new session the answer brings.
 */
export function PasswordForm() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser)!;
  const [value, setValue] = useState(EMPTY);
  const { errors, setErrors, saving, save } = useGroupSave();
  const [changePassword] = useChangePasswordMutation();

  const change = (patch: Partial<typeof EMPTY>) => {
    setValue((current) => ({ ...current, ...patch }));
    setErrors({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!value.password) return setErrors({ password: MESSAGES.loginPassword });
    if (value.newPassword !== value.confirm) return setErrors({ confirm: MESSAGES.passwordMismatch });
    void save(async () => {
      const session = await changePassword({
        path: { id: user.id },
        body: { password: value.password, newPassword: value.newPassword },
        quiet: SHOWN_UNDER_THE_FIELDS,
      }).unwrap();
      if (session.user && session.token) dispatch(sessionRefreshed({ user: session.user, token: session.token }));
      setValue(EMPTY);
    }, 'Your password is changed. Your other devices are signed out.');
  };

  const field = (name: keyof typeof EMPTY, label: string, autoComplete: string) => (
    <label className="kn-settings__field">
      <span>{label}</span>
      <Input.Password
        value={value[name]}
        autoComplete={autoComplete}
        aria-label={label}
        status={errors[name] ? 'error' : undefined}
        onChange={(event) => change({ [name]: event.target.value })}
      />
      <FieldError message={errors[name]} />
    </label>
  );

  return (
    <form className="kn-settings__form" onSubmit={submit} noValidate aria-labelledby="kn-settings-password">
      <h2 id="kn-settings-password" className="kn-settings__title">
        Password
      </h2>
      {field('password', 'Current password', 'current-password')}
      {field('newPassword', 'New password', 'new-password')}
      {field('confirm', 'Confirm the new password', 'new-password')}
      <p className="kn-settings__hint">Changing it signs you out on every other device.</p>
      <Button type="primary" htmlType="submit" loading={saving}>
        Change password
      </Button>
    </form>
  );
}
