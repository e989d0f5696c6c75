/**
 * features/content-detail: the content detail modal (the piece, its waveform player, what it is, its share
 * link, then strips of more pieces) and the address bar while it is open. Any feature opens the modal by
 * dispatching `detailOpened({ content, siblings })` from lib/contentEvents.
 */
export { contentDetailReducer, initialContentDetailState, detailStepped, contentRemoved, detailClosed } from './contentDetail.slice';
export type { ContentDetailState } from './contentDetail.slice';
export { selectContentDetail, selectDetailOpen, selectDetailPosition } from './contentDetail.selectors';
export type { DetailPosition } from './contentDetail.selectors';
export { detailBackground } from './detailHistory';
/** Keeps the address bar on the open piece; rendered once by the app, outside the routes. */
export { DetailUrlSync } from './components/DetailUrlSync';

/** The content detail modal (a lazy chunk, loaded the first time a piece opens). */
export const loadContentDetailModal = () => import('./components/ContentDetailModal');
