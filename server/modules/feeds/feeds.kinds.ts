/** The feeds' rankings (feeds.rankings.ts says what each one means): each one's sort key and what a piece needs to be in it. */
export type FeedKind = 'featured' | 'popular' | 'trending' | 'radar' | 'new';

/** The sort key of each feed (null: `_id` alone) and the extra condition a piece must meet to be in it. */
export const RANKINGS: Record<FeedKind, { key: 'featureRank' | 'reactedCount' | 'trendScore' | 'radarScore' | null; where?: Record<string, unknown> }> = {
  featured: { key: 'featureRank' },
  popular: { key: 'reactedCount' },
  trending: { key: 'trendScore' },
  radar: { key: 'radarScore', where: { radarScore: { $gt: 0 } } },
  new: { key: null },
};
