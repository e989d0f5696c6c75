import { useGetArtistsInfiniteQuery, useGetTrendingArtistsInfiniteQuery } from '../../../api/generated/endpoints';
import type { UserCard } from '../../../lib/content';

export interface ArtistStripData {
  artists: UserCard[];
  loading: boolean;
}

const NO_ARTISTS: UserCard[] = [];

/**
 * The artists of the Explore strip: those trending this week, or, when none is (a quiet week, a new site)
 * or that call fails, the newest artists. Only the first page of each list is shown.
 */
export function useArtistStrip(limit = 12): ArtistStripData {
  const trending = useGetTrendingArtistsInfiniteQuery({ query: { limit } });
  const trendingDone = trending.isSuccess || trending.isError;
  const trendingArtists = trending.data?.pages[0]?.users ?? NO_ARTISTS;
  const needFallback = trendingDone && !trendingArtists.length;
  const latest = useGetArtistsInfiniteQuery({ query: { limit } }, { skip: !needFallback });
  if (!trendingDone) return { artists: NO_ARTISTS, loading: true };
  if (!needFallback) return { artists: trendingArtists, loading: false };
  return { artists: latest.data?.pages[0]?.users ?? NO_ARTISTS, loading: !(latest.isSuccess || latest.isError) };
}
