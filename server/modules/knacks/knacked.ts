/** Who knacked what, from the ledger's knack entries (kept free of other modules: auth and feeds use it). */
import { Types } from 'mongoose';
import { ours } from '../../lib/query';
import type { ContentDoc } from '../contents/contents.model';
import { LedgerEntryModel, type LedgerEntryDoc } from './ledger.model';

/** The ledger key of a member's knack on a piece: at most one per member per piece. */
export const knackKey = (contentId: unknown, userId: unknown) => `knack:${String(contentId)}:${String(userId)}`;

/** The pieces a member has knacked (the auth answers' `reacted_contents`). */
export async function reactedContentIds(userId: string): Promise<string[]> {
  const entries = await LedgerEntryModel.find(ours({ kind: 'knack', actorId: new Types.ObjectId(userId) }), { contentId: 1 }).lean<Pick<LedgerEntryDoc, 'contentId'>[]>();
  return entries.map((entry) => String(entry.contentId));
}

/** Every knack there is, as (piece, time): the facts the feeds' counts are recounted from. */
export async function knackFacts(): Promise<Pick<LedgerEntryDoc, 'contentId' | 'at'>[]> {
  return LedgerEntryModel.find({ kind: 'knack' }, { _id: 0, contentId: 1, at: 1 }).lean<Pick<LedgerEntryDoc, 'contentId' | 'at'>[]>();
}

/** Whether a member has knacked a piece. */
export async function hasKnacked(contentId: unknown, userId: string): Promise<boolean> {
  return Boolean(await LedgerEntryModel.exists({ _id: knackKey(contentId, userId) }));
}

export type KnackStatus = 0 | 1 | 2 | 3;

/** Spec §4: 3 owner; 0 not paid out; 2 already knacked; 1 the viewer may knack it. */
export function knackStatusOf(content: Pick<ContentDoc, 'ownerId' | 'isPaidOut'>, viewerId: string | undefined, reacted: boolean): KnackStatus {
  if (viewerId && String(content.ownerId) === viewerId) return 3;
  if (!content.isPaidOut) return 0;
  return reacted ? 2 : 1;
}
