import Button from 'antd/es/button';
import Skeleton from 'antd/es/skeleton';
import type { CachedError } from '../../../api/cache';
import { useGetWalletSummaryQuery, useRequestCashOutMutation } from '../../../api/generated/endpoints';
import { useAppSelector } from '../../../lib/storeHooks';
import { notify } from '../../../components/notify';
import { selectUser } from '../../auth';
import { formatUsd } from '../../../components/format';

/**
 * The payment modal of type price confirms a withdrawal; yes adds an earn history item (the wallet's figures and
 * history load again).
 */
export function CashOutConfirm({ onClose }: { onClose: () => void }) {
  const user = useAppSelector(selectUser);
  const wallet = useGetWalletSummaryQuery({ path: { id: user?.id ?? '' } }, { skip: !user });
  const [requestCashOut, { isLoading: asking }] = useRequestCashOutMutation();
  if (!wallet.data) {
    return wallet.error ? <p className="kn-payment__note">{(wallet.error as CachedError).message}</p> : <Skeleton active paragraph={{ rows: 2 }} />;
  }
  const { balance, payoutAccount } = wallet.data;
  const confirm = async () => {
    if (!user) return;
    try {
      const answer = await requestCashOut({ body: { userId: user.id } }).unwrap();
      notify('success', answer.message);
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
        <Button type="primary" size="large" loading={asking} onClick={() => void confirm()}>
          Yes, cash out
        </Button>
        <Button size="large" disabled={asking} onClick={onClose}>
          No
        </Button>
      </div>
    </div>
  );
}
