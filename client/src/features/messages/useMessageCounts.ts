import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import { knackApi, useGetMessageCountsQuery } from '../../api/generated/endpoints';
import { useAppSelector } from '../../lib/storeHooks';
import { selectUser } from '../auth';

/** How often the badge asks for the counts while the tab is visible: a new message shows within this time. */
export const MESSAGE_POLL_MS = 30_000;

/** The signed-in member's counts, as the poll reads them and the badges show them (one entry of the cache). */
const countsOf = (userId: string | undefined) =>
  userId ? { path: { id: userId }, quiet: 'a missed poll of the badge is retried by the next one' } : skipToken;

const onVisibilityChange = (changed: () => void) => {
  document.addEventListener('visibilitychange', changed);
  return () => document.removeEventListener('visibilitychange', changed);
};
const isTabVisible = () => document.visibilityState !== 'hidden';

/**
 * Keeps the signed-in member's message counts fresh: read at sign-in, every 30 s while the tab is visible, when the
 * tab becomes visible again, and right after a change made in this tab (every change of a message invalidates
 * them). The server keeps nothing per client: any API instance answers the poll.
 */
export function useMessageCountsPoll(): void {
  const userId = useAppSelector(selectUser)?.id;
  const visible = useSyncExternalStore(onVisibilityChange, isTabVisible);
  const { refetch, isUninitialized } = useGetMessageCountsQuery(countsOf(userId), { pollingInterval: visible ? MESSAGE_POLL_MS : 0 });
  // The first read is the subscription's own: only a tab shown again reads at once.
  const readAgain = useEffectEvent(() => {
    if (!isUninitialized) void refetch();
  });
  useEffect(() => {
    if (visible) readAgain();
  }, [visible]);
}

/** Mounted once in the front layout: runs the poll. */
export function MessageCountsPoll() {
  useMessageCountsPoll();
  return null;
}

/** The number of unread conversations of the signed-in member, as last read (0 signed out or before the first read). */
export function useUnreadMessages(): number {
  const userId = useAppSelector(selectUser)?.id;
  return knackApi.endpoints.getMessageCounts.useQueryState(countsOf(userId)).data?.unread ?? 0;
}
