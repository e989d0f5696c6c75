import { Link } from 'react-router-dom';
import HistoryOutlined from '@ant-design/icons/es/icons/HistoryOutlined';
import { PATHS } from '../../../lib/constants';
import { useAppSelector } from '../../../lib/storeHooks';
import { selectUser } from '../../auth';
import { CancelCashOut, isCancellable } from '../components/CancelCashOut';
import { HistoryList } from '../components/HistoryList';
import { useHistory, type HistoryItem } from '../hooks/useHistory';
import '../components/wallet.css';
import { PageHead } from '../../../components/PageHead';

/** Cancel on a cash-out request that waits. */
const cancelOf = (item: HistoryItem) => (isCancellable(item) ? <CancelCashOut item={item} /> : null);

/** `/activity-history`: every history item of the member — listing fees paid, knacks earned, cash-outs and payouts. */
export default function ActivityHistoryPage() {
  const user = useAppSelector(selectUser)!;
  const history = useHistory(user.id, 'all');
  return (
    <div className="kn-wallet">
      <PageHead
        icon={<HistoryOutlined aria-hidden />}
        title="Activity history"
        sub={
          <>
            Listing fees you paid, knacks your pieces and the pieces you support earned, and cash-outs. Balances are in your{' '}
            <Link to={PATHS.wallet}>wallet</Link> .
          </>
        }
      />
      <HistoryList {...history} action={cancelOf} empty="Nothing yet: monetize a piece or support one to start." />
    </div>
  );
}
