/** features/analytics: what a member's pieces have done, for members on a plan. The page is a lazy chunk. */
export const loadAnalyticsPage = () => import('./pages/AnalyticsPage');
