/** features/home: the landing page (route `/`). The page itself is a lazy chunk, loaded through here. */
export const loadHomePage = () => import('./pages/HomePage');
