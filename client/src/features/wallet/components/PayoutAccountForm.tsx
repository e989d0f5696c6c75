import { useEffect, useState } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import { useUpdatePaymentInfo } from '../../../api/generated/hooks';
import { notify } from '../../../components/notify';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PAYPAL_MESSAGES = { invalid: 'Enter the email address of your PayPal account.' } as const;

/** The payout account (spec §3 settings, payment: paypal): where cash-outs and monthly payouts go. */
export function PayoutAccountForm({ userId, paypal, onSaved }: { userId: string; paypal: string | null; onSaved: () => void }) {
  const [value, setValue] = useState(paypal ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = useUpdatePaymentInfo();
  useEffect(() => setValue(paypal ?? ''), [paypal]);
  const submit = async () => {
    const email = value.trim().toLowerCase();
    if (!EMAIL.test(email)) {
      setError(PAYPAL_MESSAGES.invalid);
      return;
    }
    setError(null);
    try {
      const answer = await save.run({ path: { id: userId }, body: { paypal: email } });
      notify('success', answer.message);
      onSaved();
    } catch {
      // The HTTP client has shown the server's message.
    }
  };
  return (
    <form
      className="kn-wallet__payout-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label htmlFor="kn-paypal">PayPal email</label>
      <div className="kn-wallet__payout-row">
        <Input id="kn-paypal" type="email" value={value} placeholder="you@example.com" status={error ? 'error' : undefined} onChange={(event) => setValue(event.target.value)} />
        <Button htmlType="submit" loading={save.loading}>
          Save
        </Button>
      </div>
      {error ? (
        <p className="kn-payment__error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
