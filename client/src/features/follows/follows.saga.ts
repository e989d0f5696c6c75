/**
 * Follows from the client's side: counts read when a screen shows them, a follow or unfollow sent (a visitor signs
 * in first, and the follow goes on), and the toast that says it is done.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, select, takeEvery } from 'redux-saga/effects';
import { getFollowCount, makeFollowing, type GetFollowCountResult, type MakeFollowingResult } from '../../api/generated/operations';
import { toApiError } from '../../api/http';
import { modalOpened } from '../../lib/ui';
import { notify } from '../../components/notify';
import { loggedOut, selectUser, sessionLost, type User } from '../auth';
import { countsLoaded, countsRequested, followChanged, followFailed, followsForgotten, followToggled, type FollowTarget } from './follows.slice';

export const followToast = (name: string, isFollowing: boolean) => `You are ${isFollowing ? 'following' : 'unfollowing'} ${name} now`;

export function* loadCounts(action: PayloadAction<{ userId: string }>): SagaIterator {
  try {
    const result: GetFollowCountResult = yield call(getFollowCount, { path: { id: action.payload.userId } }, { quiet: true });
    yield put(countsLoaded({ userId: action.payload.userId, ...result }));
  } catch {
    // The counts shown stay those the page loaded with.
  }
}

export function* changeFollow(action: PayloadAction<FollowTarget & { set: boolean }>): SagaIterator {
  const { userId, name, set } = action.payload;
  const user: User | null = yield select(selectUser);
  if (!user) {
    yield put(followFailed({ userId }));
    yield put(modalOpened({ name: 'login', origin: 'onClickKnack', callback: followToggled({ userId, name, set }) }));
    return;
  }
  try {
    const result: MakeFollowingResult = yield call(makeFollowing, { body: { subjectorId: userId, myuserId: user.id, set } }, { quiet: true });
    yield put(followChanged({ userId, myId: user.id, ...result }));
    yield call(notify, 'success', followToast(name, result.isFollowing));
  } catch (error) {
    yield put(followFailed({ userId }));
    yield call(notify, 'error', toApiError(error).message);
  }
}

function* forget(): SagaIterator {
  yield put(followsForgotten());
}

export function* followsSaga(): SagaIterator {
  yield takeEvery(countsRequested.type, loadCounts);
  yield takeEvery(followToggled.type, changeFollow);
  yield takeEvery([loggedOut.type, sessionLost.type], forget);
}
