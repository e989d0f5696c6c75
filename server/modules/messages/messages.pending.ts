/**
 * Marks of changes of messages on their way (lib/pending-marks.ts), each made of several writes, so that the
 * message-repairs job finishes the ones a process died in the middle of (messages.service.ts `repairLostSteps`):
 * - a change of a member's side of a thread is two writes: the side's next version (the fact), then the change of the
 *   member's counts it makes. A process that dies between them leaves the counts short of that change for good (no
 *   later change carries it): the job appends it;
 * - a reply is the message, then each member's side taking it (an entry in their list, a new version). A process
 *   that dies between them leaves the message out of the inboxes until the thread's next message: the job has each
 *   side that lacks it take it;
 * - a new thread is the thread, its first message, then both members' sides. A process that dies between them
 *   leaves a thread nobody sees: the job writes the missing sides.
 */
import { randomBytes } from 'node:crypto';
import type { Types } from 'mongoose';
import { pendingMarks } from '../../lib/pending-marks';
import { MessagePendingModel, type MessagePendingDoc } from './messages.model';

/** As for follows and comments: a change of messages takes milliseconds, so a mark this old names a process that died. */
export const MESSAGE_CHANGE_GRACE_MS = 2 * 60_000;

export const messageSteps = pendingMarks<MessagePendingDoc>(MessagePendingModel, MESSAGE_CHANGE_GRACE_MS);

/** Marks the version `v` of a member's side before it is inserted; answers the mark's id. */
export const markVersion = (threadId: string, userId: Types.ObjectId, v: number) =>
  messageSteps.mark({ _id: `version|${threadId}:${String(userId)}|${v}|${randomBytes(4).toString('hex')}`, kind: 'version', threadId, userId, v });

/** Marks a reply before its message is appended; answers the mark's id. */
export const markReply = (threadId: string, senderId: string, receiverId: string) =>
  messageSteps.mark({ _id: `message|${threadId}|${senderId}|${randomBytes(4).toString('hex')}`, kind: 'message', threadId, senderId, receiverId });

/** Marks a new thread before it is inserted; answers the mark's id. */
export const markThread = (threadId: string, senderId: string, receiverId: string) =>
  messageSteps.mark({ _id: `thread|${threadId}`, kind: 'thread', threadId, senderId, receiverId });
