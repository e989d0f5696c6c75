/**
 * features/content-detail: the content detail modal and the pages that show pieces: the content
 * page (a share link), the public and own profiles, the Top 50 chart. Other features open the modal by
 * dispatching `detailOpened({ content, siblings })`.
 */
export {
  contentDetailReducer,
  initialContentDetailState,
  detailOpened,
  detailStepped,
  contentRemoved,
  detailClosed,
} from './contentDetail.slice';
export type { ContentDetailState, DetailRequest } from './contentDetail.slice';
export { selectContentDetail, selectDetailOpen, selectDetailPosition } from './contentDetail.selectors';
export type { DetailPosition } from './contentDetail.selectors';
export type { Content, PublicUser, UserCard, ContentDetail } from './contentDetail.types';
export { parsePath, profilePath } from './links';
export type { SegmentTarget } from './links';
export { detailBackground } from './detailHistory';
/** Keeps the address bar on the open piece; rendered once by the app, outside the routes. */
export { DetailUrlSync } from './components/DetailUrlSync';

/** The one pattern of the single-segment screens (profile, share link, Top 50), with an optional second segment. */
export const SEGMENT_PATH = '/:segment/:sub?';

/** The content detail modal (a lazy chunk, loaded the first time a piece opens). */
export const loadContentDetailModal = () => import('./components/ContentDetailModal');
/**
 * `/{username}`, `/{username}/{type}`: the public profile; `/{username}-{slug}` (a share link, route `{hash}`):
 * the same profile with the piece open over it in the detail modal.
 */
export const loadProfilePage = () => import('./pages/ProfilePage');
/** `/profile/{kind?}`: the own profile (default = own uploads, supported = collection). */
export const loadOwnProfilePage = () => import('./pages/OwnProfilePage');
/** `/{name}-music-top-50`: the artist's Top 50 chart. */
export const loadTop50Page = () => import('./pages/Top50Page');
