import type { ReactNode } from 'react';
import Button from 'antd/es/button';
import Skeleton from 'antd/es/skeleton';
import type { HistoryItem } from '../hooks/useHistory';
import { formatUsd } from '../../../components/format';

const TYPE_LABELS: Record<string, string> = { Paid0: 'Listing fee', Paid1: 'Knack', Earn: 'Cash-out', Payout: 'Payout', Refund: 'Refund' };

const when = (at: string) => new Date(at).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** How a cash-out request's state reads after its text. */
const STATUS_LABELS: Record<string, string> = { pending: 'pending', cancelled: 'cancelled', declined: 'declined', paidByPayout: 'paid by the monthly payout' };

/**
 * One line's money: what the member earned (Paid1), got back (Refund), paid (Paid0) or took out (cash-out, payout).
 * A request closed without a cash-out moved nothing itself (the monthly payout's own line shows what it paid).
 */
function amountOf(item: HistoryItem): { text: string; tone: 'in' | 'out' | 'none' } {
  const { paid, earned } = item.changes;
  if (item.activityType === 'Earn' && item.status && ['cancelled', 'declined', 'paidByPayout'].includes(item.status))
    return { text: formatUsd(paid), tone: 'none' };
  if (item.activityType === 'Paid1') return { text: `+${formatUsd(earned)}`, tone: earned > 0 ? 'in' : 'none' };
  if (item.activityType === 'Refund') return { text: `+${formatUsd(earned)}`, tone: 'in' };
  if (item.activityType === 'Paid0') return { text: formatUsd(paid), tone: 'none' };
  return { text: `-${formatUsd(paid)}`, tone: 'out' };
}

export interface HistoryListProps {
  items: HistoryItem[];
  loading: boolean;
  loaded: boolean;
  more?: () => void;
  /** A page that could not be loaded, and how to ask for it again. */
  error?: { message: string };
  retry?: () => void;
  empty: string;
  /** What each item offers besides its text (the wallet: its proof), at the end of its row. */
  action?: (item: HistoryItem) => ReactNode;
}

function LoadFailed({ message, retry }: { message: string; retry?: () => void }) {
  return (
    <p className="kn-wallet__empty" role="alert">
      {message}{' '}
      {retry ? (
        <Button type="link" onClick={retry}>
          Try again
        </Button>
      ) : null}
    </p>
  );
}

/** History items: date, kind, what happened, and the money it moved; 'Load more' pages on. */
export function HistoryList({ items, loading, loaded, more, error, retry, empty, action }: HistoryListProps) {
  if (!loaded && loading) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (!items.length) return error ? <LoadFailed message={error.message} retry={retry} /> : <p className="kn-wallet__empty">{empty}</p>;
  return (
    <>
      <ul className="kn-history" aria-label="History">
        {items.map((item) => {
          const amount = amountOf(item);
          return (
            <li key={item.historyId} className={action ? 'kn-history__item kn-history__item--action' : 'kn-history__item'}>
              <span className={`kn-history__type kn-history__type--${item.activityType.toLowerCase()}`}>
                {TYPE_LABELS[item.activityType] ?? item.activityType}
              </span>
              <span className="kn-history__text">
                {item.activity}
                {item.status && item.status !== 'approved' ? <em className="kn-history__status"> · {STATUS_LABELS[item.status] ?? item.status}</em> : null}
              </span>
              <time className="kn-history__when" dateTime={item.at}>
                {when(item.at)}
              </time>
              <strong className={`kn-history__amount is-${amount.tone}`}>{amount.text}</strong>
              {action?.(item)}
            </li>
          );
        })}
      </ul>
      {error ? <LoadFailed message={error.message} /> : null}
      {more ? (
        <Button className="kn-history__more" loading={loading} onClick={more}>
          Load more
        </Button>
      ) : null}
    </>
  );
}
