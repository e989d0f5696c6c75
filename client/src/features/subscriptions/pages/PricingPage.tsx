import DollarOutlined from '@ant-design/icons/es/icons/DollarOutlined';
import Skeleton from 'antd/es/skeleton';
import { skipToken } from '@reduxjs/toolkit/query/react';
import type { CachedError } from '../../../api/cache';
import { useGetAllPlansQuery, useGetUserExtQuery } from '../../../api/generated/endpoints';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';
import { ErrorPage } from '../../../components/errors';
import { selectIsLoggedIn, selectUser, type Plan } from '../../auth';
import { useMemberSubscription } from '../hooks/useMemberPlan';
import { CurrentPlan } from '../components/CurrentPlan';
import { PlanCards } from '../components/PlanCards';
import { RateComparison } from '../components/RateComparison';
import '../components/pricing.css';
import { PageHead } from '../../../components/PageHead';
import { formatUsd } from '../../../components/format';

/** What a member earns and keeps, as Knack promises it. */
const PROMISES = [
  'Every play or view by another signed-in member earns a knack, from $0.05: 90% to the artist, 10% to the supporter who listed the piece.',
  'Cash out from a balance of $10. Payouts go out on the 1st of each month; the payment provider’s fee is taken from the payout.',
  'No percentage is taken on NFT sales. Relisting costs 10% of the reserve balance.',
  'A minimum reserve price, the knack guarantee, grows with the plays, views and knacks a piece earns.',
  'Your wallet stays yours: Knack offers a non-custodial wallet.',
];

/**
 * `/pricing`: the plans and their monthly credits (prices from the server, which an admin sets), the listing
 * fee of each tier, what Knack pays per play beside others, and, for a member, their plan and credits.
 */
export default function PricingPage() {
  const dispatch = useAppDispatch();
  const loggedIn = useAppSelector(selectIsLoggedIn);
  const user = useAppSelector(selectUser);
  const subscription = useMemberSubscription() ?? null;
  const ext = useGetUserExtQuery(user ? { path: { id: user.id } } : skipToken).data?.userExt ?? null;
  const plans = useGetAllPlansQuery();

  const choose = (plan: Plan) => {
    const subscribe = modalOpened({ name: 'subscription', planId: plan.planId });
    // A visitor signs up first; the subscription modal opens after.
    dispatch(loggedIn ? subscribe : modalOpened({ name: 'signup', origin: 'pricing', callback: subscribe }));
  };

  const failure = plans.error as CachedError | undefined;
  if (failure) return <ErrorPage status={failure.status || 500} message={failure.message} />;
  const fees = plans.data?.listingFees;
  return (
    <div className="kn-pricing">
      <PageHead
        icon={<DollarOutlined aria-hidden />}
        title="Pricing"
        sub="List a piece once, and every play or view pays you. Pay per piece, or take a plan and list with credits."
      />

      {loggedIn && user ? (
        <CurrentPlan userId={user.id} subscription={subscription} plan={plans.data?.plans.find((p) => p.planId === subscription?.planId)} ext={ext} />
      ) : null}

      <section aria-labelledby="kn-pricing-plans">
        <h2 id="kn-pricing-plans">Plans</h2>
        {plans.data ? (
          <PlanCards plans={plans.data.plans} current={loggedIn ? subscription : null} onChoose={choose} />
        ) : (
          <Skeleton active paragraph={{ rows: 4 }} />
        )}
      </section>

      <section aria-labelledby="kn-pricing-fees" className="kn-pricing__fees">
        <h2 id="kn-pricing-fees">Or pay per piece</h2>
        {fees ? (
          <ul className="kn-fees">
            <li>
              <strong>{formatUsd(fees.standard)}</strong> standard listing, for a piece whose knack is under {formatUsd(fees.premiumFromKnack)}
            </li>
            <li>
              <strong>{formatUsd(fees.premium)}</strong> premium listing, for a piece whose knack is {formatUsd(fees.premiumFromKnack)} or more
            </li>
          </ul>
        ) : (
          <Skeleton active paragraph={{ rows: 1 }} />
        )}
        <p className="kn-page-sub">Paid once, from the money tab of an upload. A discount code or a plan credit can pay it too.</p>
      </section>

      <section aria-labelledby="kn-pricing-why" className="kn-pricing__why">
        <div>
          <h2 id="kn-pricing-why">Why artists choose Knack</h2>
          <ul className="kn-promises">
            {PROMISES.map((promise) => (
              <li key={promise}>{promise}</li>
            ))}
          </ul>
        </div>
        <RateComparison />
      </section>
    </div>
  );
}
