import './badge.css';
import { useUnreadMessages } from '../useMessageCounts';

/** The number of unread conversations, or nothing when there are none (plain markup: it sits on the landing route). */
export function UnreadBadge({ className = '' }: { className?: string }) {
  const unread = useUnreadMessages();
  if (!unread) return null;
  return (
    <span className={`kn-unread-badge ${className}`.trim()} data-testid="unread-badge" aria-label={`${unread} unread`}>
      {unread > 99 ? '99+' : unread}
    </span>
  );
}
