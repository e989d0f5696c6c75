import Button from 'antd/es/button';
import Skeleton from 'antd/es/skeleton';
import { useGetWalletSummary, useRequestCashOut } from '../../../api/generated/hooks';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { notify } from '../../../components/notify';
import { selectUser } from '../../auth';
import { cashOutRequested } from '../payments.events';
import { formatUsd } from '../../../components/format';

/** The payment modal of type price confirms a withdrawal; yes adds an earn history item. */
export function CashOutConfirm({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const wallet = useGetWalletSummary({ path: { id: user?.id ?? '' } }, { enabled: Boolean(user) });
  const earn = useRequestCashOut();
  if (!wallet.data) return wallet.error ? <p className="kn-payment__note">{wallet.error.message}</p> : <Skeleton active paragraph={{ rows: 2 }} />;
  const { balance, payoutAccount } = wallet.data;
  const confirm = async () => {
    if (!user) return;
    try {
      const answer = await earn.run({ body: { userId: user.id } });
      notify('success', answer.message);
      dispatch(cashOutRequested());
      onClose();
    } catch {
      // The HTTP client has shown the server's message (minimum balance, no payout account).
    }
  };
  return (
    <div className="kn-payment">
      <p className="kn-payment__lead">
        Cash out <strong>{formatUsd(balance)}</strong>
        {payoutAccount?.paypal ? (
          <>
            {' '}
            to the PayPal account <strong>{payoutAccount.paypal}</strong>
          </>
        ) : null}
        ? The payment provider's fee is deducted from what is sent.
      </p>
      <div className="kn-payment__actions">
        <Button type="primary" size="large" loading={earn.loading} onClick={() => void confirm()}>
          Yes, cash out
        </Button>
        <Button size="large" disabled={earn.loading} onClick={onClose}>
          No
        </Button>
      </div>
    </div>
  );
}
