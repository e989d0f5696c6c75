/** What tests use of this module beyond its index.ts: the rollups' model and ids. Production code never imports this file. */
export {
  EarningsDayModel,
  hostsDayId,
  memberDayId,
  pieceDayId,
  tagDayId,
  dayIndexId,
  NO_TAG,
  STATE_ID,
  type DayRollup,
  type HostDayRollup,
  type HostShare,
} from './analytics.model';
