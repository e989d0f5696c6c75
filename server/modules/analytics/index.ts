/**
 * Analytics: the daily rollups of the ledger's knacks (per member, piece and tag, and per member and embedding site with
 * the embed plays), the earnings analytics, the plays and earnings by site, and the listing-fee forecast read from them,
 * and the tag market's daily prices set from them.
 */
import { applyDailyPrices, clearAnalyticsAnswers } from './analytics.service';
import { refreshRollups } from './analytics.rollups';

export { analyticsRouter } from './analytics.routes';
export { ANALYTICS_MESSAGES, applyDailyPrices, earningsAnalytics, embedHostEarnings, listingForecast, PERIOD_DAYS, type Period } from './analytics.service';
export { earningsRollupsState, hostRollupsOf, rebuildRollups, refreshRollups, rollupsOf, type RollupRun } from './analytics.rollups';

/**
 * The `earnings-rollups` job: the rollups of the open days counted again from the ledger's lists of days, then
 * the day's tag prices set (once per tag and day) from the days now counted, and this process's kept answers cleared.
 */
export async function runEarningsRollups(now = new Date()) {
  const run = await refreshRollups(now);
  const priced = await applyDailyPrices(now);
  clearAnalyticsAnswers();
  return { daysCounted: run.daysCounted, rollups: run.rollups, tagsPriced: priced };
}
