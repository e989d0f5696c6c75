/** Flags: members flagging pieces, pieces held off the lists at the threshold, and the admins' decisions. */
export { flagsRouter } from './flags.routes';
export { createFlagsService, FLAG_LIMIT, FLAG_MESSAGES, HOLD_AT_FLAGS, type FlagsService } from './flags.service';
export { FlagModel, FlagHoldModel, type FlagDoc } from './flags.model';
