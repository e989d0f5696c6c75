/**
 * features/knack: plays and views that knack: the play session and the knack past half a song, the
 * image knack when the detail modal reports it (`imageViewed`), and the verification modal after 9 recent
 * knacks. A registered knack is announced with `knackRegistered`; both actions are in lib/contentEvents.
 */
export { knackSaga } from './knack.saga';
export { KNACK_THANKS, VERIFICATION_MESSAGES } from './knack.messages';

export const loadVerificationModal = () => import('./components/VerificationModal');
