import { useEffect } from 'react';
import { compactCount } from '../../../components/format';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { modalOpened } from '../../../app/ui';
import { selectFollowCounts } from '../follows.selectors';
import { countsRequested, type FollowCounts as Counts } from '../follows.slice';
import './follows.css';

export interface FollowCountsProps {
  userId: string;
  /** The counts the page loaded with, until the store knows newer ones. */
  initial?: Counts;
  /** Reads the counts (when no page brings them). */
  load?: boolean;
  className?: string;
}

/** "12 followers · 3 following": each opens the follow modal on its tab. */
export function FollowCounts({ userId, initial, load = false, className = '' }: FollowCountsProps) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (load) dispatch(countsRequested({ userId }));
  }, [dispatch, load, userId]);
  const counts = useAppSelector((state) => selectFollowCounts(state, userId)) ?? initial;
  if (!counts) return null;
  const open = (followTab: 'followers' | 'following') => dispatch(modalOpened({ name: 'follow', userId, followTab }));
  return (
    <span className={`kn-follow-counts ${className}`.trim()}>
      <button type="button" className="kn-follow-counts__item" onClick={() => open('followers')}>
        <strong>{compactCount(counts.followersCount)}</strong> {counts.followersCount === 1 ? 'follower' : 'followers'}
      </button>
      <span aria-hidden="true">·</span>
      <button type="button" className="kn-follow-counts__item" onClick={() => open('following')}>
        <strong>{compactCount(counts.followingsCount)}</strong> following
      </button>
    </span>
  );
}
