import { useGetArtists, useGetTrendingArtists } from '../../../api/generated/hooks';
import type { UserCard } from '../../../lib/content';

export interface ArtistStripData {
  artists: UserCard[];
  loading: boolean;
}

/**
 * The artists of the Explore strip: those trending this week, or, when none is (a quiet week, a new site)
 * or that call fails, the newest artists.
 */
export function useArtistStrip(limit = 12): ArtistStripData {
  const trending = useGetTrendingArtists({ query: { limit } });
  const trendingDone = !trending.loading && (trending.data !== undefined || trending.error !== undefined);
  const needFallback = trendingDone && !trending.data?.users.length;
  const latest = useGetArtists({ query: { limit } }, { enabled: needFallback });
  if (!trendingDone) return { artists: [], loading: true };
  if (!needFallback) return { artists: trending.data?.users ?? [], loading: false };
  const latestDone = !latest.loading && (latest.data !== undefined || latest.error !== undefined);
  return { artists: latest.data?.users ?? [], loading: !latestDone };
}
