import './badge.css';
import { useAppSelector } from '../../../lib/storeHooks';
import { selectUnreadMessages } from '../messages.slice';

/** The number of unread conversations, or nothing when there are none (plain markup: it sits on the landing route). */
export function UnreadBadge({ className = '' }: { className?: string }) {
  const unread = useAppSelector(selectUnreadMessages);
  if (!unread) return null;
  return (
    <span className={`kn-unread-badge ${className}`.trim()} data-testid="unread-badge" aria-label={`${unread} unread`}>
      {unread > 99 ? '99+' : unread}
    </span>
  );
}
