/** Flags: members flagging pieces, pieces held off the lists at the threshold, and the admins' decisions. */
export { flagsRouter } from './flags.routes';
export { createFlagsService, FLAG_LIMIT, FLAG_MESSAGES, type FlagsService } from './flags.service';
export { COUNTING_ACCOUNT_AGE_MS } from './flags.counting';
export { HOLD_AT_FLAGS, removeFlagsOf } from './flags.hold';
export { FlagModel, FlagHoldModel, type FlagDoc } from './flags.model';
export { openFlagCounts, type OpenFlagCounts } from './flags.reads';
