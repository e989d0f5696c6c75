/**
 * features/analytics: what a member's pieces have done, for members on a plan: the `/analytics` page (each piece's
 * figures and the earnings charts) and the earnings analytics modal. Both are lazy chunks, with the chart library.
 */
export const loadAnalyticsPage = () => import('./pages/AnalyticsPage');
export const loadAnalyticsModal = () => import('./components/AnalyticsModal');
