import { useHistory } from '../hooks/useHistory';
import { HistoryList } from './HistoryList';
import './wallet.css';

/** Every history item of a member (an admin may read anyone's), newest first, a page at a time; nothing to act on. */
export function MemberHistory({ userId }: { userId: string }) {
  const history = useHistory(userId, 'all');
  return <HistoryList {...history} empty="This member has no history yet." />;
}
