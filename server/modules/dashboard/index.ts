/**
 * The admin dashboard: figures of today and this month counted by the admin-stats job into `admin_stats` (one
 * document per day and per month, read by `_id`), with the open flags, the waiting cash-outs and the week of product events.
 */
export { dashboardRouter } from './dashboard.routes';
export { adminDashboard, COUNT_LIMIT, DASHBOARD_MESSAGES, OVERDUE_MS } from './dashboard.service';
export { adminStatsState, refreshAdminStats } from './dashboard.stats';
