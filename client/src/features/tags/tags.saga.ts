import type { SagaIterator } from 'redux-saga';
import { call, put, takeLatest } from 'redux-saga/effects';
import { getAllTags, type GetAllTagsResult } from '../../api/generated/operations';
import { toApiError } from '../../api/http';
import { tagsFailed, tagsLoaded, tagsRequested } from './tags.slice';

export function* loadTags(): SagaIterator {
  try {
    const result: GetAllTagsResult = yield call(getAllTags);
    yield put(tagsLoaded(result.tags));
  } catch (error) {
    yield put(tagsFailed(toApiError(error).message));
  }
}

export function* tagsSaga(): SagaIterator {
  yield takeLatest(tagsRequested.type, loadTags);
}
