/**
 * Following and unfollowing: the change sent through the cached data layer, its answer shown at once on screen and a
 * toast that says it is done (a failure is the one error toast). A visitor is asked to sign in first, and the follow
 * goes on once they are.
 */
import { useEffect } from 'react';
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { knackApi, useMakeFollowingMutation } from '../../api/generated/endpoints';
import { notify } from '../../components/notify';
import { useAppDispatch, useAppSelector, type RootState } from '../../lib/storeHooks';
import { track } from '../../lib/track';
import { modalOpened } from '../../lib/ui';
import { selectUser } from '../auth';
import { showFollowAnswer } from './follows.cache';
import { selectFollowAfterSignIn } from './follows.selectors';
import { followAfterSignIn, followAfterSignInTaken, type FollowRequest } from './follows.slice';

export const followToast = (name: string, isFollowing: boolean) => `You are ${isFollowing ? 'following' : 'unfollowing'} ${name} now`;

/** The changes of one member's follow share this key, so every button of that member shows one on its way. */
const followChangeKey = (userId: string) => `follow-${userId}`;

type FollowThunk<Result = void> = ThunkAction<Result, RootState, unknown, UnknownAction>;

function sendFollow({ userId, name, set }: FollowRequest, viewerId: string): FollowThunk<Promise<void>> {
  return async (dispatch) => {
    const change = knackApi.endpoints.makeFollowing.initiate(
      { body: { subjectorId: userId, myuserId: viewerId, set } },
      { fixedCacheKey: followChangeKey(userId) },
    );
    try {
      const answer = await dispatch(change).unwrap();
      dispatch(showFollowAnswer(userId, viewerId, answer));
      notify('success', followToast(name, answer.isFollowing));
      // A follow made is a product event (the followed member is not named in it); an unfollow is not recorded.
      if (set && answer.isFollowing) track('follow');
    } catch {
      // The one error toast has shown the server's message.
    }
  };
}

/** Sends the follow waiting for the sign-in, once, whichever part of the screen asks first. */
function sendFollowAfterSignIn(viewerId: string): FollowThunk {
  return (dispatch, getState) => {
    const request = selectFollowAfterSignIn(getState());
    if (!request) return;
    dispatch(followAfterSignInTaken());
    // Signed in as that member: nobody follows themselves.
    if (request.userId !== viewerId) void dispatch(sendFollow(request, viewerId));
  };
}

/**
 * Follows a visitor asked for before signing in, sent once they are. Every part of the screen that offers a follow
 * runs it (the button a visitor pressed may be gone by then: a follow modal's row, replaced by the login modal).
 */
export function useFollowAfterSignIn() {
  const dispatch = useAppDispatch();
  const request = useAppSelector(selectFollowAfterSignIn);
  const viewerId = useAppSelector(selectUser)?.id;
  useEffect(() => {
    if (request && viewerId) dispatch(sendFollowAfterSignIn(viewerId));
  }, [dispatch, request, viewerId]);
}

/** Follows (`set`) or unfollows `userId`; a visitor is asked to log in first. `busy`: a change of theirs is on its way. */
export function useFollowChange(userId: string, name: string) {
  const dispatch = useAppDispatch();
  const viewerId = useAppSelector(selectUser)?.id;
  const [, { isLoading }] = useMakeFollowingMutation({ fixedCacheKey: followChangeKey(userId) });
  useFollowAfterSignIn();
  const change = (set: boolean) => {
    const request = { userId, name, set };
    if (viewerId) void dispatch(sendFollow(request, viewerId));
    else dispatch(modalOpened({ name: 'login', origin: 'onClickKnack', callback: followAfterSignIn(request) }));
  };
  return { busy: isLoading, change };
}
