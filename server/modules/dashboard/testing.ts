/** What tests need of the dashboard beyond its index: its collection. */
export { AdminStatsModel } from './dashboard.model';
