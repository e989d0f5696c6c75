/**
 * Discount codes as the admins see them: which tier a code covers, and each code with its uses. The uses are
 * counted from the use documents themselves (one per slot taken), never from a counter, so the figures are
 * exact whatever ran at the same time.
 */
import type { Types } from 'mongoose';
import { anyOf } from '../../lib/query';
import { contentReads } from '../contents';
import { userReads } from '../users';
import type { Tier } from './listing';
import { DiscountCodeModel, DiscountUseModel, type DiscountCodeDoc, type DiscountCover, type DiscountUseDoc } from './payments.model';

/** How many of a code's latest uses the admin list names (who and when); the count covers them all. */
export const RECENT_USES_SHOWN = 5;

export const coverOf = (code: Pick<DiscountCodeDoc, 'covers'>): DiscountCover => code.covers ?? 'both';

/** Whether the code pays the fee of a piece of this tier. */
export const coversTier = (code: Pick<DiscountCodeDoc, 'covers'>, tier: Tier) => coverOf(code) === 'both' || coverOf(code) === tier;

export const notCoveredMessage = (tier: Tier) => `This discount code does not cover ${tier} pieces.`;

interface UseTally {
  count: number;
  /** The latest uses, newest first, at most RECENT_USES_SHOWN. */
  recent: DiscountUseDoc[];
}

/**
 * Every use, counted per code with its latest ones kept. One pass over the uses collection (FerretDB scans it
 * for any filter but `_id` anyway), holding at most RECENT_USES_SHOWN uses per code in memory.
 */
async function tallyUses(): Promise<Map<string, UseTally>> {
  const tallies = new Map<string, UseTally>();
  for await (const use of DiscountUseModel.find({}).lean<DiscountUseDoc>().cursor()) {
    const tally = tallies.get(use.code) ?? { count: 0, recent: [] };
    tally.count += 1;
    tally.recent.push(use);
    tally.recent.sort((a, b) => b.at.getTime() - a.at.getTime());
    tally.recent.length = Math.min(tally.recent.length, RECENT_USES_SHOWN);
    tallies.set(use.code, tally);
  }
  return tallies;
}

/** Names of members and titles of pieces by id, in two queries (null for one deleted since). */
async function namesOf(uses: DiscountUseDoc[]) {
  const unique = (ids: Types.ObjectId[]) => [...new Map(ids.map((id) => [String(id), id])).values()];
  const userIds = unique(uses.map((use) => use.userId));
  const contentIds = unique(uses.map((use) => use.contentId));
  const [users, contents] = await Promise.all([
    userIds.length ? userReads.many<{ _id: Types.ObjectId; username: string }>({ _id: anyOf(userIds) }, { projection: { username: 1 } }) : [],
    contentIds.length ? contentReads.many<{ _id: Types.ObjectId; title: string }>({ _id: anyOf(contentIds) }, { projection: { title: 1 } }) : [],
  ]);
  return {
    username: new Map(users.map((user) => [String(user._id), user.username])),
    title: new Map(contents.map((content) => [String(content._id), content.title])),
  };
}

/** Every code, newest first, with its uses: how many, how many are left, and who used it lately and when. */
export async function listDiscountCodes(now: Date) {
  const [codes, tallies] = await Promise.all([DiscountCodeModel.find({}).sort({ createdAt: -1, _id: 1 }).lean<DiscountCodeDoc[]>(), tallyUses()]);
  const names = await namesOf([...tallies.values()].flatMap((tally) => tally.recent));
  return codes.map((code) => {
    const tally = tallies.get(code._id) ?? { count: 0, recent: [] };
    return {
      code: code._id,
      covers: coverOf(code),
      maxUses: code.maxUses,
      uses: tally.count,
      usesLeft: Math.max(0, code.maxUses - tally.count),
      expiresAt: code.expiresAt?.toISOString() ?? null,
      expired: code.expiresAt !== null && code.expiresAt.getTime() <= now.getTime(),
      createdAt: code.createdAt.toISOString(),
      recentUses: tally.recent.map((use) => ({
        userId: String(use.userId),
        username: names.username.get(String(use.userId)) ?? null,
        contentId: String(use.contentId),
        contentTitle: names.title.get(String(use.contentId)) ?? null,
        at: use.at.toISOString(),
      })),
    };
  });
}
