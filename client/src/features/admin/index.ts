/** features/admin: the admin area's home, listing the admin tools there are. The page is a lazy chunk. */
export const loadAdminHomePage = () => import('./pages/AdminHomePage');
export const loadAdminFlagsPage = () => import('./pages/AdminFlagsPage');
