import { lazy, Suspense } from 'react';
import Skeleton from 'antd/es/skeleton';
import { useGetWalletSummaryQuery } from '../../../api/generated/endpoints';
import { useAppSelector } from '../../../lib/storeHooks';
import { selectUser } from '../../auth';
import { loadPayoutAccountForm } from '../../wallet';

const PayoutAccountForm = lazy(loadPayoutAccountForm);

/** The payment group: the PayPal email payouts and cash-outs are sent to (the wallet page links here). */
export function PayoutSettings() {
  const user = useAppSelector(selectUser)!;
  const wallet = useGetWalletSummaryQuery({ path: { id: user.id } });
  return (
    <section id="payout" className="kn-settings__group" aria-labelledby="kn-payout-title">
      <h2 id="kn-payout-title" className="kn-settings__title">
        Payout account
      </h2>
      {wallet.data ? (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 2 }} />}>
          <PayoutAccountForm userId={user.id} paypal={wallet.data.payoutAccount?.paypal ?? null} held={wallet.data.payoutAccount?.held ?? false} />
        </Suspense>
      ) : (
        <Skeleton active paragraph={{ rows: 2 }} />
      )}
    </section>
  );
}
