import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { loadSubscriptionReturnPage } from '../../subscriptions';
import { BidLinkPage } from './BidLinkPage';

const SubscriptionReturnPage = lazy(loadSubscriptionReturnPage);

/**
 * `/approve` and `/cancel` act on what the address names: a bid's signed token (`?token=`, the links in a bidder's
 * inbox), or a subscription coming back from the provider's checkout (`?subscription=`).
 */
export default function ReturnLinkPage() {
  const [params] = useSearchParams();
  if (params.has('token')) return <BidLinkPage token={params.get('token') ?? ''} />;
  return (
    <Suspense fallback={null}>
      <SubscriptionReturnPage />
    </Suspense>
  );
}
