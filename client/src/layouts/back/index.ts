/** The back (admin) layout: a lazy chunk, loaded only when an admin opens `/admin`. */
export const loadBackLayout = () => import('./BackLayout');
