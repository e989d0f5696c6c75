/**
 * The upload flows, loaded with the first member modal: a file is checked, then sent as soon as it is chosen,
 * with its byte progress; the save call publishes the piece from the stored paths. Failures set the status to
 * failed and show the server's message as a toast. Closing the modal stops a transfer in flight. The profile
 * photo and header dialogs upload their crops the same way, then update the account.
 */
import type { PayloadAction, UnknownAction } from '@reduxjs/toolkit';
import { buffers, END, eventChannel, type SagaIterator } from 'redux-saga';
import { call, delay, put, race, select, take, takeLatest, takeLeading } from 'redux-saga/effects';
import {
  createTop50UploadPass,
  replaceContentAudio,
  replaceContentImage,
  saveArtistContent,
  saveContent,
  saveTop50Content,
  updateUserHeaderImage,
  updateUserPhoto,
  uploadContentAudio,
  uploadContentPhoto,
  uploadUserHeaderImage,
  uploadUserPhoto,
  type CreateTop50UploadPassResult,
  type ReplaceContentImageResult,
  type SaveContentResult,
  type UpdateUserHeaderImageResult,
  type UpdateUserPhotoResult,
} from '../../api/generated/operations';
import { knackApi } from '../../api/generated/endpoints';
import { toApiError, type RequestOptions } from '../../api/http';
import { mediaUrl } from '../../api/mediaUrl';
import { notify } from '../../components/notify';
import { loggedOut, selectUser, userUpdated, type User } from '../auth';
import { pieceUpdated } from '../../lib/contentEvents';
import { track } from '../../lib/track';
import { modalClosed, modalOpened, selectModalProps, selectOpenModal, type ModalProps } from '../../lib/ui';
import { pageReload } from './pageReload';
import { fileProblem, slotKind, UPLOAD_MESSAGES } from './upload.rules';
import { selectUpload } from './upload.selectors';
import {
  avatarFailed,
  avatarProgress,
  avatarSaved,
  avatarSaveRequested,
  fileChosen,
  fileUploadFailed,
  fileUploadProgress,
  fileUploadStarted,
  fileUploadSucceeded,
  headerFailed,
  headerFileChosen,
  headerOriginalStarted,
  headerOriginalUploaded,
  headerProgress,
  headerSaved,
  headerSaveRequested,
  isUploadFormModal,
  replaceCancelled,
  replaceFailed,
  replaceFileChosen,
  replaceProgress,
  replaceStarted,
  replaceSucceeded,
  uploadCancelled,
  uploadFormStarted,
  uploadSaved,
  uploadSaveFailed,
  uploadSubmitted,
  visitorPassIssued,
  type UploadState,
} from './upload.slice';
import type { FileSlot, PieceFileKind, StoredFile, UploadAnswer, UploadValues } from './upload.types';

/** A multipart call: the body and the request options (progress, abort); `T` is what it answers. */
type Send<T = UploadAnswer> = (body: FormData, options: RequestOptions) => Promise<T>;

type TransferMessage<T> = { progress: number } | { answer: T } | { error: unknown };

/** The stored file as the forms show it (URLs made loadable). */
export function toStoredFile(answer: UploadAnswer): StoredFile {
  const upload = answer.upload;
  return {
    path: answer.path,
    name: upload.originalName,
    size: upload.size,
    mimeType: upload.mimeType,
    url: mediaUrl(upload.url),
    previewUrl: mediaUrl(upload.thumbs?.mthumb ?? upload.url),
    width: upload.width,
    height: upload.height,
    duration: upload.duration,
    processing: upload.status === 'processing',
  };
}

/**
 * Sends one file (multipart, field `file`) and reports its byte progress through `progressAction`; answers
 * the server's answer. Cancelling the saga aborts the request.
 */
export function* transfer<T = UploadAnswer>(send: Send<T>, file: File, progressAction: (fraction: number) => UnknownAction): SagaIterator<T> {
  const channel = eventChannel<TransferMessage<T>>((emit) => {
    const controller = new AbortController();
    const body = new FormData();
    body.append('file', file, file.name);
    // No time limit: a 100 MB song on a slow line takes minutes (the server limits what it accepts).
    send(body, {
      signal: controller.signal,
      quiet: 'the upload form shows the failure on the file',
      timeout: 0,
      onUploadProgress: (progress) => emit({ progress }),
    }).then(
      (answer) => {
        emit({ answer });
        emit(END);
      },
      (error: unknown) => {
        emit({ error });
        emit(END);
      },
    );
    return () => controller.abort();
  }, buffers.expanding<TransferMessage<T>>(16));
  try {
    let shown = -1;
    for (;;) {
      const message: TransferMessage<T> = yield take(channel);
      if ('progress' in message) {
        // One update per whole percent: the bar moves smoothly without flooding the store.
        const percent = Math.floor(message.progress * 100);
        if (percent !== shown) {
          shown = percent;
          yield put(progressAction(message.progress));
        }
      } else if ('answer' in message) {
        return message.answer;
      } else {
        throw message.error;
      }
    }
  } finally {
    channel.close();
  }
}

function* failWith(message: string): SagaIterator {
  yield call(notify, 'error', message);
}

/** Closes the modal after a save, unless the person has moved on to another one meanwhile. */
function* closeIfStillOpen(isIt: (name: string | null) => boolean): SagaIterator {
  const open: string | null = yield select(selectOpenModal);
  if (isIt(open)) yield put(modalClosed());
}

// Content forms

const SENDERS: Record<FileSlot, Send> = {
  photo: (body, options) => uploadContentPhoto({ body }, options),
  audio: (body, options) => uploadContentAudio({ body }, options),
};

/** The header a visitor's Top 50 upload pass goes in. */
const UPLOAD_PASS_HEADER = 'X-Upload-Pass';

/**
 * A visitor's Top 50 form sends its files and its save with an upload pass for the artist's chart, asked once
 * per opening of the form; a member's calls carry their session instead (no extra headers).
 */
export function* visitorHeaders(): SagaIterator<Record<string, string> | undefined> {
  const user: User | null = yield select(selectUser);
  const state: UploadState = yield select(selectUpload);
  if (user || state.kind !== 'top50') return undefined;
  if (state.visitorPass) return { [UPLOAD_PASS_HEADER]: state.visitorPass };
  const props: ModalProps = yield select(selectModalProps);
  const answer: CreateTop50UploadPassResult = yield call(
    createTop50UploadPass,
    { body: { artistId: props.userId ?? '' } },
    { quiet: 'the upload form shows the failure on the file' },
  );
  yield put(visitorPassIssued(answer.pass));
  return { [UPLOAD_PASS_HEADER]: answer.pass };
}

export function* uploadFile(action: PayloadAction<{ slot: FileSlot; file: File }>): SagaIterator {
  const { slot, file } = action.payload;
  const pending = { name: file.name, size: file.size, type: file.type };
  const problem = fileProblem(slotKind(slot), file);
  if (problem) {
    yield put(fileUploadFailed({ slot, message: problem, pending }));
    yield call(failWith, problem);
    return;
  }
  yield put(fileUploadStarted({ slot, pending }));
  try {
    const headers: Record<string, string> | undefined = yield call(visitorHeaders);
    const send: Send = headers ? (body, options) => SENDERS[slot](body, { ...options, headers }) : SENDERS[slot];
    const answer: UploadAnswer = yield call(transfer, send, file, (fraction) => fileUploadProgress({ slot, fraction }));
    yield put(fileUploadSucceeded({ slot, file: toStoredFile(answer) }));
  } catch (error) {
    const message = toApiError(error).message;
    yield put(fileUploadFailed({ slot, message }));
    yield call(failWith, message);
  }
}

/** A transfer stops when the modal closes, another opens, a page's form starts again, or the person cancels it. */
function* untilClosed(saga: (action: never) => SagaIterator, action: UnknownAction): SagaIterator {
  yield race({
    done: call(saga, action as never),
    stopped: take([modalClosed.type, modalOpened.type, uploadFormStarted.type, uploadCancelled.type, replaceCancelled.type, loggedOut.type]),
  });
}

function saveBody(values: UploadValues, state: UploadState) {
  const mainTag = values.mainTag ?? '';
  return {
    title: values.title.trim(),
    description: values.description.trim(),
    tags: mainTag ? [{ name: mainTag }] : [],
    subTag: values.subTag ?? '',
    photoPath: state.photo.file?.path,
    // A song only goes with Music (one chosen before switching to Art or Photos stays out).
    audioPath: mainTag === 'Music' ? state.audio.file?.path : undefined,
  };
}

export function* save(action: PayloadAction<UploadValues>): SagaIterator {
  const state: UploadState = yield select(selectUpload);
  const props: ModalProps = yield select(selectModalProps);
  const user: User | null = yield select(selectUser);
  const body = saveBody(action.payload, state);
  try {
    let result: SaveContentResult;
    if (state.kind === 'top50') {
      const headers: Record<string, string> | undefined = yield call(visitorHeaders);
      result = yield call(
        saveTop50Content,
        { body: { ...body, artistId: props.userId ?? '', email: (action.payload.email ?? '').trim() } },
        { quiet: 'the upload form shows a refusal under its fields', ...(headers ? { headers } : {}) },
      );
    } else if (state.kind === 'artist') {
      result = yield call(
        saveArtistContent,
        { body: { ...body, userId: props.userId ?? user?.id ?? '' } },
        { quiet: 'the upload form shows a refusal under its fields' },
      );
    } else {
      result = yield call(saveContent, { body }, { quiet: 'the upload form shows a refusal under its fields' });
    }
    yield put(uploadSaved(result.content));
    yield call(track, 'post_content', { contentId: result.content.id });
    // The lists the new piece belongs in (a profile's uploads, a Top 50 chart, the feeds) and its owner's count of
    // pieces load again.
    yield put(knackApi.util.invalidateTags(['Content', 'User']));
    yield call(notify, 'success', result.message || UPLOAD_MESSAGES.success);
    // After a classic upload the payment modal of type dollar offers to monetize the piece.
    if (state.kind === 'content') yield put(modalOpened({ name: 'payment', paymentType: 'dollar', contentId: result.content.id }));
    else yield call(closeIfStillOpen, isUploadFormModal);
    if (state.kind === 'artist') {
      yield delay(500);
      yield call([pageReload, 'run']);
    }
  } catch (error) {
    const apiError = toApiError(error);
    yield put(uploadSaveFailed({ message: apiError.message, errors: apiError.errors ?? [] }));
    yield call(failWith, apiError.message);
    // The artist page reloads after a failure too.
    if (state.kind === 'artist') {
      yield delay(500);
      yield call([pageReload, 'run']);
    }
  }
}

// Profile photo

export function* saveAvatar(action: PayloadAction<{ file: File }>): SagaIterator {
  const user: User | null = yield select(selectUser);
  if (!user) return;
  try {
    const answer: UploadAnswer = yield call(transfer, (body, options) => uploadUserPhoto({ body }, options), action.payload.file, avatarProgress);
    const result: UpdateUserPhotoResult = yield call(
      updateUserPhoto,
      { body: { userId: user.id, photoPath: answer.path } },
      { quiet: 'the photo form shows the failure' },
    );
    yield put(userUpdated(result.user));
    // The member's profile card, wherever it shows, takes the new photo.
    yield put(knackApi.util.invalidateTags(['User']));
    yield put(avatarSaved());
    yield call(notify, 'success', result.message || UPLOAD_MESSAGES.success);
    yield call(closeIfStillOpen, (name) => name === 'profile-photo');
  } catch (error) {
    const message = toApiError(error).message;
    yield put(avatarFailed(message));
    yield call(failWith, message);
  }
}

// Header image

export function* uploadHeaderOriginal(action: PayloadAction<{ file: File }>): SagaIterator {
  const { file } = action.payload;
  const problem = fileProblem('image', file);
  if (problem) {
    yield put(headerFailed(problem));
    yield call(failWith, problem);
    return;
  }
  yield put(headerOriginalStarted());
  try {
    const answer: UploadAnswer = yield call(transfer, (body, options) => uploadUserHeaderImage({ body }, options), file, headerProgress);
    yield put(headerOriginalUploaded(toStoredFile(answer)));
  } catch (error) {
    const message = toApiError(error).message;
    yield put(headerFailed(message));
    yield call(failWith, message);
  }
}

export function* saveHeader(action: PayloadAction<{ file: File }>): SagaIterator {
  const user: User | null = yield select(selectUser);
  const { header }: UploadState = yield select(selectUpload);
  if (!user) return;
  if (!header.original) {
    yield put(headerFailed(UPLOAD_MESSAGES.uploadImageFirst));
    return;
  }
  try {
    const crop: UploadAnswer = yield call(transfer, (body, options) => uploadUserHeaderImage({ body }, options), action.payload.file, headerProgress);
    const result: UpdateUserHeaderImageResult = yield call(
      updateUserHeaderImage,
      { body: { userId: user.id, headerImage: header.original.path, headerImageEdited: crop.path } },
      { quiet: 'the header form shows the failure' },
    );
    yield put(userUpdated(result.user));
    // The member's profile card, wherever it shows, takes the new header image.
    yield put(knackApi.util.invalidateTags(['User']));
    yield put(headerSaved());
    yield call(notify, 'success', result.message || UPLOAD_MESSAGES.success);
    yield call(closeIfStillOpen, (name) => name === 'header-image');
  } catch (error) {
    const message = toApiError(error).message;
    yield put(headerFailed(message));
    yield call(failWith, message);
  }
}

// A published piece's new file

const REPLACERS: Record<PieceFileKind, (contentId: string) => Send<ReplaceContentImageResult>> = {
  audio: (id) => (body, options) => replaceContentAudio({ path: { id }, body }, options),
  image: (id) => (body, options) => replaceContentImage({ path: { id }, body }, options),
};

/**
 * A new file for a published piece, checked as an upload's, then sent with its progress. The server's answer is the
 * piece with its new file: the copies the store keeps take it, and every cached read of pieces (feeds, profiles, the
 * piece, its versions, projects, the admin's list) loads again, so each place shows the new file at once.
 */
export function* replacePieceFile(action: PayloadAction<{ contentId: string; kind: PieceFileKind; file: File }>): SagaIterator {
  const { contentId, kind, file } = action.payload;
  const pending = { name: file.name, size: file.size, type: file.type };
  const problem = fileProblem(kind, file);
  if (problem) {
    yield put(replaceFailed({ contentId, kind, message: problem, pending }));
    yield call(failWith, problem);
    return;
  }
  yield put(replaceStarted({ contentId, kind, pending }));
  try {
    const answer: ReplaceContentImageResult = yield call(transfer, REPLACERS[kind](contentId), file, replaceProgress);
    yield put(replaceSucceeded());
    yield put(pieceUpdated(answer.content));
    yield put(knackApi.util.invalidateTags(['Content', 'Project', 'Admin']));
    yield call(notify, 'success', answer.message);
  } catch (error) {
    const message = toApiError(error).message;
    yield put(replaceFailed({ contentId, kind, message }));
    yield call(failWith, message);
  }
}

export function* uploadFlows(): SagaIterator {
  yield takeLatest(fileChosen.type, untilClosed, uploadFile);
  yield takeLeading(uploadSubmitted.type, save);
  yield takeLeading(avatarSaveRequested.type, untilClosed, saveAvatar);
  yield takeLatest(headerFileChosen.type, untilClosed, uploadHeaderOriginal);
  yield takeLeading(headerSaveRequested.type, untilClosed, saveHeader);
  yield takeLatest(replaceFileChosen.type, untilClosed, replacePieceFile);
}
