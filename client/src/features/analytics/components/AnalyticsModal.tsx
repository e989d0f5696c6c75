import { useAppSelector } from '../../../lib/storeHooks';
import { HostedModal } from '../../../components/modal';
import { selectUser } from '../../auth';
import { EarningsAnalytics } from './EarningsAnalytics';

/** The earnings analytics modal (800 wide, the whole screen on phones), opened from the wallet, the profile summary and /analytics. */
export default function AnalyticsModal({ open }: { open: boolean }) {
  const user = useAppSelector(selectUser);
  return (
    <HostedModal open={open} width={800} title="Earnings analytics" rootClassName="kn-analytics-modal">
      {user ? <EarningsAnalytics userId={user.id} /> : null}
    </HostedModal>
  );
}
