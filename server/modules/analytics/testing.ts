/** What tests use of this module beyond its index.ts: the rollups' model and ids. Production code never imports this file. */
export { EarningsDayModel, memberDayId, pieceDayId, tagDayId, dayIndexId, NO_TAG, STATE_ID, type DayRollup } from './analytics.model';
