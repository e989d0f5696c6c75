/**
 * NFT mode's always-present saga: opening the page starts a fresh form (the upload feature's file slots too), and
 * the first opening loads the flows (start, prepare, sign and publish), whose code, with the wallet's, stays out of
 * the first page load.
 */
import type { SagaIterator } from 'redux-saga';
import { call, fork, put, take, takeEvery } from 'redux-saga/effects';
import { notify } from '../../components/notify';
import { uploadFormStarted } from '../upload';
import { nftFormOpened } from './nft.slice';

const NFT_UNAVAILABLE = 'NFT mode could not start. Check your connection and try again.';

export const loadNftFlows = () => import('./nft.flows');

/** The details' files start empty with the form. */
export function* onFormOpened(): SagaIterator {
  yield put(uploadFormStarted());
}

/** Loads and starts the flows the first time the form opens (again next time if loading failed). */
export function* startFlowsOnFirstUse(): SagaIterator {
  for (;;) {
    yield take(nftFormOpened.type);
    try {
      const flows: Awaited<ReturnType<typeof loadNftFlows>> = yield call(loadNftFlows);
      yield fork(flows.nftFlows);
      return;
    } catch {
      yield call(notify, 'error', NFT_UNAVAILABLE);
    }
  }
}

export function* nftSaga(): SagaIterator {
  yield takeEvery(nftFormOpened.type, onFormOpened);
  yield fork(startFlowsOnFirstUse);
}
