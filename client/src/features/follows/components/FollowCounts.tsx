import { compactCount } from '../../../components/format';
import { useAppDispatch } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';
import { useFollowCounts, type FollowCounts as Counts } from '../follows.cache';
import './follows.css';

type Side = 'followers' | 'following';

/** The member's counts: the newest read on this screen (`load` reads them), else those the page loaded with. */
function useCounts(userId: string, initial: Counts | undefined, load: boolean): Counts | undefined {
  return useFollowCounts(userId, load) ?? initial;
}

/** "12 followers" or "3 following": opens the follow modal on that tab. */
export function FollowCount({ userId, side, initial }: { userId: string; side: Side; initial?: Counts }) {
  const dispatch = useAppDispatch();
  const counts = useCounts(userId, initial, false);
  if (!counts) return null;
  const count = side === 'followers' ? counts.followersCount : counts.followingsCount;
  const label = side === 'followers' ? (count === 1 ? 'follower' : 'followers') : 'following';
  return (
    <button type="button" className="kn-follow-counts__item" onClick={() => dispatch(modalOpened({ name: 'follow', userId, followTab: side }))}>
      {compactCount(count)} {label}
    </button>
  );
}

export interface FollowCountsProps {
  userId: string;
  /** The counts the page loaded with, until newer ones are read on this screen. */
  initial?: Counts;
  /** Reads the counts (when no page brings them). */
  load?: boolean;
  className?: string;
}

/** "12 followers · 3 following", each opening the follow modal on its tab. */
export function FollowCounts({ userId, initial, load = false, className = '' }: FollowCountsProps) {
  const counts = useCounts(userId, initial, load);
  if (!counts) return null;
  return (
    <span className={`kn-follow-counts ${className}`.trim()}>
      <FollowCount userId={userId} side="followers" initial={counts} />
      <span aria-hidden="true">·</span>
      <FollowCount userId={userId} side="following" initial={counts} />
    </span>
  );
}
