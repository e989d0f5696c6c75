/**
 * features/profile: a member's pages: the public profile (and a share link, which is the profile with the
 * piece open over it), the own profile with its uploads and collection, and an artist's Top 50 chart. The
 * pages are lazy chunks, loaded through here.
 */

/**
 * `/{username}`, `/{username}/{type}`: the public profile; `/{username}-{slug}` (a share link, route `{hash}`):
 * the same profile with the piece open over it in the detail modal.
 */
export const loadProfilePage = () => import('./pages/ProfilePage');
/** `/profile/{kind?}`: the own profile (default = own uploads, supported = collection). */
export const loadOwnProfilePage = () => import('./pages/OwnProfilePage');
/** `/{name}-music-top-50`: the artist's Top 50 chart. */
export const loadTop50Page = () => import('./pages/Top50Page');
