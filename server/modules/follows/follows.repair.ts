/**
 * Follows that older code keyed by the followed member's id as a request spelled it (in capitals): one member could
 * so follow another several times, or follow themself. The rankings job puts each back under its key before it counts.
 */
import { rekeyDocuments } from '../../lib/rekey';
import { followKey, FollowModel, type FollowDoc } from './follows.model';

/** Merges follows keyed by an id in capitals into the one follow of their pair, and deletes follows of oneself; safe to repeat. */
export const repairFollowKeys = () =>
  rekeyDocuments<FollowDoc>(FollowModel, /[A-F]/, ({ followerId, followedId }) =>
    followerId.equals(followedId) ? null : followKey(String(followerId), String(followedId)),
  );
