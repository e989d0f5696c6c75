import { useEffect, useState } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import type { CachedError } from '../../../api/cache';
import { useUpdatePaymentInfoMutation } from '../../../api/generated/endpoints';
import { MESSAGES } from '../../../../../generated/validation';
import { useAppDispatch } from '../../../lib/storeHooks';
import { notify } from '../../../components/notify';
import { modalOpened } from '../../../lib/ui';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PAYPAL_MESSAGES = {
  invalid: 'Enter the email address of your PayPal account.',
  password: MESSAGES.loginPassword,
  notice: 'For your safety, changing it asks for your password, and we email your account address each time it changes.',
  held: 'This PayPal email was set while someone else may have had your account, so nothing is paid to it for now. If it is yours, save it with your password to confirm it; if not, enter your own.',
} as const;

type Field = 'paypal' | 'password';
type FieldErrors = Partial<Record<Field, string>>;

/** The field a server error names ('password', 'body.password' or '/body/password'). */
const fieldOf = (path: string) => path.split(/[./]/).filter(Boolean).pop();

/**
 * The payout account (the PayPal email of the payment settings): where cash-outs and monthly payouts go.
 * Changing it takes the current password, so that someone holding only a signed-in session cannot send the
 * money elsewhere; a `held` address (set while someone else may have had the account) is confirmed by saving it
 * again with the password. Self-contained: it can sit on any page that knows the member and their current address
 * (a saved address reloads the wallet summary that holds it).
 */
export function PayoutAccountForm({ userId, paypal, held = false }: { userId: string; paypal: string | null; held?: boolean }) {
  const dispatch = useAppDispatch();
  const [value, setValue] = useState(paypal ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  // An account made by Google or Facebook sign-in has no password to give: it is offered the way to set one.
  const [noPassword, setNoPassword] = useState(false);
  const [save, { isLoading: saving }] = useUpdatePaymentInfoMutation();
  useEffect(() => setValue(paypal ?? ''), [paypal]);

  const submit = async () => {
    const email = value.trim().toLowerCase();
    const found: FieldErrors = {};
    if (!EMAIL.test(email)) found.paypal = PAYPAL_MESSAGES.invalid;
    if (!password) found.password = PAYPAL_MESSAGES.password;
    setErrors(found);
    setNoPassword(false);
    if (found.paypal || found.password) return;
    try {
      const answer = await save({
        path: { id: userId },
        body: { paypal: email, password },
        quiet: 'the form shows a refusal under its field, and any other as a toast itself',
      }).unwrap();
      setPassword('');
      notify('success', answer.message);
    } catch (error) {
      const failure = error as CachedError;
      const byField: FieldErrors = {};
      for (const fieldError of failure.errors ?? []) {
        const field = fieldOf(fieldError.path);
        if (field === 'paypal' || field === 'password') byField[field] ??= fieldError.message;
      }
      setErrors(byField);
      setNoPassword(failure.code === 'password_not_set');
      // A refusal about neither field (too many attempts, a network error) shows as the app's other errors do.
      if (!byField.paypal && !byField.password) notify('error', failure.message);
    }
  };

  return (
    <form
      className="kn-wallet__payout-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {held ? (
        <p className="kn-wallet__error" role="status" data-testid="payout-held">
          {PAYPAL_MESSAGES.held}
        </p>
      ) : null}
      <p className="kn-wallet__payout-note">{PAYPAL_MESSAGES.notice}</p>
      <label htmlFor="kn-paypal">PayPal email</label>
      <div className="kn-wallet__payout-row">
        <Input
          id="kn-paypal"
          type="email"
          value={value}
          placeholder="you@example.com"
          status={errors.paypal ? 'error' : undefined}
          aria-invalid={Boolean(errors.paypal)}
          aria-describedby={errors.paypal ? 'kn-paypal-error' : undefined}
          onChange={(event) => setValue(event.target.value)}
        />
      </div>
      {errors.paypal ? (
        <p id="kn-paypal-error" className="kn-wallet__error" role="alert">
          {errors.paypal}
        </p>
      ) : null}
      <label htmlFor="kn-paypal-password">Current password</label>
      <div className="kn-wallet__payout-row">
        <Input.Password
          id="kn-paypal-password"
          autoComplete="current-password"
          value={password}
          status={errors.password ? 'error' : undefined}
          aria-invalid={Boolean(errors.password)}
          aria-describedby={errors.password ? 'kn-paypal-password-error' : undefined}
          onChange={(event) => setPassword(event.target.value)}
        />
        <Button htmlType="submit" loading={saving}>
          Save
        </Button>
      </div>
      {errors.password ? (
        <p id="kn-paypal-password-error" className="kn-wallet__error" role="alert">
          {errors.password}
        </p>
      ) : null}
      {noPassword ? (
        <Button type="link" className="kn-wallet__payout-link" onClick={() => dispatch(modalOpened('forgot-password'))}>
          Forgot password? Set one by email
        </Button>
      ) : null}
    </form>
  );
}
