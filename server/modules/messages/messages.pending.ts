/**
 * Marks of a side's versions on their way (lib/pending-marks.ts). A change of a member's side of a thread is two
 * writes: the side's next version (the fact), then the change of the member's counts it makes. A process that dies
 * between them leaves the counts short of that change for good (no later change carries it); the message-repairs job
 * (messages.state.ts `repairLostCountChanges`) appends it for each version marked more than MESSAGE_CHANGE_GRACE_MS ago.
 */
import { randomBytes } from 'node:crypto';
import type { Types } from 'mongoose';
import { pendingMarks } from '../../lib/pending-marks';
import { MessagePendingModel, type MessagePendingDoc } from './messages.model';

/** As for follows and comments: a side's change takes milliseconds, so a mark this old names a process that died. */
export const MESSAGE_CHANGE_GRACE_MS = 2 * 60_000;

export const versionChanges = pendingMarks<MessagePendingDoc>(MessagePendingModel, MESSAGE_CHANGE_GRACE_MS);

/** Marks the version `v` of a member's side before it is inserted; answers the mark's id. */
export const markVersion = (threadId: string, userId: Types.ObjectId, v: number) =>
  versionChanges.mark({ _id: `version|${threadId}:${String(userId)}|${v}|${randomBytes(4).toString('hex')}`, threadId, userId, v });
