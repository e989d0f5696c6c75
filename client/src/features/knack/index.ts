/**
 * features/knack: plays and views that knack: the play session and the knack past half a song, the
 * image knack when the detail modal opens it, and the verification modal after 9 recent knacks.
 */
export { knackSaga } from './knack.saga';
export { knackRegistered, imageViewed } from './knack.events';
export { KNACK_THANKS, VERIFICATION_MESSAGES } from './knack.messages';

export const loadVerificationModal = () => import('./components/VerificationModal');
