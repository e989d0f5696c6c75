/**
 * Blocks and members' sides of threads that older code keyed by a member's id as a request spelled it (in
 * capitals): such a block was never found (the blocked member's messages went through), and such a side was not the
 * one its member reads. The rankings job puts each back under its key.
 */
import type { Types } from 'mongoose';
import { rekeyDocuments } from '../../lib/rekey';
import { blockKey, BlockModel, boxKey, BoxModel, type BoxDoc } from './messages.model';

interface BlockDoc {
  _id: string;
  blockerId: Types.ObjectId;
  blockedId: Types.ObjectId;
}

/** Puts blocks and thread sides keyed by an id in capitals under their keys (a block of oneself is deleted); safe to repeat. */
export async function repairMessageKeys(): Promise<number> {
  const [blocks, boxes] = await Promise.all([
    rekeyDocuments<BlockDoc>(BlockModel, /[A-F]/, ({ blockerId, blockedId }) =>
      blockerId.equals(blockedId) ? null : blockKey(String(blockerId), String(blockedId)),
    ),
    rekeyDocuments<BoxDoc>(BoxModel, /[A-F]/, ({ threadId, userId }) => boxKey(threadId, String(userId))),
  ]);
  return blocks + boxes;
}
