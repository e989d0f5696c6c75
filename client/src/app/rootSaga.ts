import type { SagaIterator } from 'redux-saga';
import { all, fork } from 'redux-saga/effects';
import { uiSaga } from '../lib/ui';
import { authSaga } from '../features/auth';
import { uploadSaga } from '../features/upload';
import { playerSaga } from '../features/player';
import { knackSaga } from '../features/knack';
import { nftSaga } from '../features/nft';

export function* rootSaga(): SagaIterator {
  yield all([fork(uiSaga), fork(authSaga), fork(uploadSaga), fork(playerSaga), fork(knackSaga), fork(nftSaga)]);
}
