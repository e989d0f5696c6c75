/**
 * The upload feature's always-present saga: the member modals' guard (a visitor is sent to the login modal),
 * the tags the content forms need, closing on sign-out, and the upload flows themselves, whose code is
 * loaded with the first upload modal (so the first page load does not carry it). A visitor may open one upload
 * form: the Top 50's, to enter a song in an artist's chart.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, fork, put, select, take, takeEvery } from 'redux-saga/effects';
import { loggedOut, selectIsLoggedIn } from '../auth';
import { prefetchTags } from '../tags';
import { MEMBER_MODALS, modalClosed, modalOpened, selectOpenModal, type ModalRequest } from '../../lib/ui';
import { notify } from '../../components/notify';
import { isUploadFormModal, uploadFormStarted } from './upload.slice';

const UPLOAD_UNAVAILABLE = 'Uploading could not start. Check your connection and try again.';

const isMemberModal = (name: string | null | undefined) => Boolean(name && (MEMBER_MODALS as readonly string[]).includes(name));
/** The upload form a visitor may open. */
const isVisitorUploadModal = (name: string | null | undefined) => name === 'upload-top50';

/**
 * The upload and profile modals are for members: a visitor who asks for one gets the login modal, and once
 * signed in the modal asked for opens (origin 'upload'). The content forms need the tags: they load if
 * they have not yet.
 */
export function* onModalOpened(action: PayloadAction<ModalRequest>): SagaIterator {
  const { name, ...props } = action.payload;
  if (isVisitorUploadModal(name)) {
    yield put(prefetchTags());
    return;
  }
  if (!isMemberModal(name)) return;
  const loggedIn: boolean = yield select(selectIsLoggedIn);
  if (!loggedIn) {
    const callback = modalOpened({ name, ...props });
    yield put(modalOpened({ name: 'login', origin: 'upload', callback }));
    return;
  }
  if (isUploadFormModal(name)) {
    // Loads them while the form's code downloads; a list loaded already is not asked for again.
    yield put(prefetchTags());
  }
}

/** Signing out closes a member modal. */
export function* onLoggedOut(): SagaIterator {
  const open: string | null = yield select(selectOpenModal);
  if (isMemberModal(open)) yield put(modalClosed());
}

export const loadUploadFlows = () => import('./upload.flows');

/**
 * Loads and starts the upload flows when a member first opens a member modal or a content form of a page, or anyone
 * opens the Top 50 form (again next time if it failed).
 */
export function* startFlowsOnFirstUse(): SagaIterator {
  for (;;) {
    const action: PayloadAction<ModalRequest | undefined> = yield take([modalOpened.type, uploadFormStarted.type]);
    const name = action.payload?.name;
    if (action.type === modalOpened.type && !isMemberModal(name) && !isVisitorUploadModal(name)) continue;
    const loggedIn: boolean = yield select(selectIsLoggedIn);
    if (!loggedIn && !isVisitorUploadModal(name)) continue;
    try {
      const flows: Awaited<ReturnType<typeof loadUploadFlows>> = yield call(loadUploadFlows);
      yield fork(flows.uploadFlows);
      return;
    } catch {
      yield call(notify, 'error', UPLOAD_UNAVAILABLE);
    }
  }
}

export function* uploadSaga(): SagaIterator {
  yield takeEvery(modalOpened.type, onModalOpened);
  yield takeEvery(loggedOut.type, onLoggedOut);
  yield fork(startFlowsOnFirstUse);
}
