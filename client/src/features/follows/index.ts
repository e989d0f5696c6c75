/**
 * features/follows: following members from their profile, the detail modal and the follow modal, the followers and
 * following counts (which open the follow modal), and the toasts that confirm a change.
 */
export { followsReducer, initialFollowsState } from './follows.slice';
export type { FollowsState } from './follows.slice';
export { followsSaga } from './follows.saga';
export { FollowButton } from './components/FollowButton';
export { FollowCount, FollowCounts } from './components/FollowCounts';

/** The follow modal (a lazy chunk). */
export const loadFollowModal = () => import('./components/FollowModal');
