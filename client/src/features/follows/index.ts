/**
 * features/follows: following members from their profile, the detail modal and the follow modal, the followers and
 * following counts (which open the follow modal), and the toasts that confirm a change. The counts and lists are
 * reads of the cached data layer; the store keeps only a visitor's follow waiting for their sign-in.
 */
export { followsReducer } from './follows.slice';
export type { FollowsState } from './follows.slice';
export { FollowButton } from './components/FollowButton';
export { FollowCount, FollowCounts } from './components/FollowCounts';

/** The follow modal (a lazy chunk). */
export const loadFollowModal = () => import('./components/FollowModal');
