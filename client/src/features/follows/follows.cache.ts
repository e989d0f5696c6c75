/**
 * Follows as the cached data layer holds them: a member's counts (and whether the viewer follows them), and the
 * answers of a change shown at once in every read on screen that holds them (both members' counts, the rows of the
 * follow lists). The change also invalidates those reads (its contract tags), which load again and confirm it.
 */
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { knackApi, useGetFollowCountQuery } from '../../api/generated/endpoints';
import type { GetFollowCountResult, MakeFollowingResult, RemoveFollowerResult } from '../../api/generated/operations';
import type { RootState } from '../../lib/storeHooks';

export type FollowCounts = Pick<GetFollowCountResult, 'followersCount' | 'followingsCount'>;

/** Every reader of a member's counts asks with the same arguments, so that they share one cached answer. */
const followCountArgs = (userId: string) => ({ path: { id: userId }, quiet: 'a failed read leaves the counts the page loaded with' });

/**
 * A member's counts and whether the viewer follows them. `load` reads them; without it, the answer a reader on the
 * same screen loaded (the page's Follow button), if any.
 */
export function useFollowCounts(userId: string, load: boolean): GetFollowCountResult | undefined {
  const loaded = useGetFollowCountQuery(followCountArgs(userId), { skip: !load });
  const cached = knackApi.endpoints.getFollowCount.useQueryState(followCountArgs(userId), { skip: load });
  return load ? loaded.data : cached.data;
}

type FollowThunk = ThunkAction<void, RootState, unknown, UnknownAction>;

const { selectCachedArgsForQuery, updateQueryData } = knackApi.util;

function showCounts(userId: string, counts: FollowCounts, isFollowing?: boolean): FollowThunk {
  return (dispatch) => {
    dispatch(
      updateQueryData('getFollowCount', followCountArgs(userId), (cached) => {
        Object.assign(cached, counts, isFollowing === undefined ? {} : { isFollowing });
      }),
    );
  };
}

/** The viewer followed or unfollowed `userId`: their button, both members' counts and the list rows show it. */
export function showFollowAnswer(userId: string, viewerId: string, answer: MakeFollowingResult): FollowThunk {
  return (dispatch, getState) => {
    dispatch(showCounts(userId, answer.subjector, answer.isFollowing));
    dispatch(showCounts(viewerId, answer.me));
    for (const list of ['getFollowers', 'getFollowings'] as const) {
      for (const args of selectCachedArgsForQuery(getState(), list)) {
        dispatch(
          updateQueryData(list, args, (pages) => {
            for (const entry of pages.pages.flatMap((page) => page.entries)) if (entry.user.id === userId) entry.isFollowing = answer.isFollowing;
          }),
        );
      }
    }
  };
}

/** The viewer took `followerId` off their followers: the row leaves the viewer's followers, and both counts move. */
export function showFollowerRemoved(followerId: string, viewerId: string, answer: RemoveFollowerResult): FollowThunk {
  return (dispatch, getState) => {
    dispatch(showCounts(followerId, answer.follower));
    dispatch(showCounts(viewerId, answer.me));
    for (const args of selectCachedArgsForQuery(getState(), 'getFollowers')) {
      if (args.path.userId !== viewerId) continue;
      dispatch(
        updateQueryData('getFollowers', args, (pages) => {
          for (const page of pages.pages) page.entries = page.entries.filter((entry) => entry.user.id !== followerId);
        }),
      );
    }
  };
}
