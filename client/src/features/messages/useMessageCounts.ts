import { useEffect } from 'react';
import { getMessageCounts } from '../../api/generated/operations';
import { useAppDispatch, useAppSelector } from '../../lib/storeHooks';
import { selectUser } from '../auth';
import { messageCountsCleared, messageCountsReceived, selectMessagesVersion } from './messages.slice';

/** How often the badge asks for the counts while the tab is visible: a new message shows within this time. */
export const MESSAGE_POLL_MS = 30_000;

/**
 * Keeps the signed-in member's message counts fresh: read at sign-in, every 30 s while the tab is visible, when the
 * tab becomes visible again, and right after a change made in this tab. The server keeps nothing per client: any
 * API instance answers the poll.
 */
export function useMessageCountsPoll(): void {
  const dispatch = useAppDispatch();
  const userId = useAppSelector(selectUser)?.id;
  const version = useAppSelector(selectMessagesVersion);

  useEffect(() => {
    if (!userId) {
      dispatch(messageCountsCleared());
      return;
    }
    let stopped = false;
    const read = () => {
      if (document.visibilityState === 'hidden') return;
      // Started inside a promise: whatever the call does, a failed poll never throws into the page.
      Promise.resolve()
        .then(() => getMessageCounts({ path: { id: userId } }, { quiet: true }))
        .then((counts) => {
          if (!stopped && counts) dispatch(messageCountsReceived(counts));
        })
        // A missed poll is retried by the next one.
        .catch(() => undefined);
    };
    read();
    const timer = setInterval(read, MESSAGE_POLL_MS);
    document.addEventListener('visibilitychange', read);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', read);
    };
  }, [dispatch, userId, version]);
}

/** Mounted once in the front layout: runs the poll. */
export function MessageCountsPoll() {
  useMessageCountsPoll();
  return null;
}
