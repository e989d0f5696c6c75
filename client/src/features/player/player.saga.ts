/**
 * The player's side effects: the one audio element follows the state, its events come back
 * as actions; previous/next pause, then step after 100 ms; a song that ends repeats or goes next; a visitor
 * listens 30 seconds, then is asked to sign up (again at each later attempt); a song's signed link that ends
 * is renewed and the song goes on (signedLinks.ts).
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { buffers, eventChannel, type EventChannel, type SagaIterator } from 'redux-saga';
import { call, delay, fork, put, select, take, takeEvery, takeLatest } from 'redux-saga/effects';
import { getContentDetail, type GetContentDetailResult } from '../../api/generated/operations';
import { mediaUrl } from '../../api/mediaUrl';
import { selectIsLoggedIn, selectUser, type User } from '../auth';
import type { Content } from '../../lib/content';
import { track } from '../../lib/track';
import { modalOpened } from '../../lib/ui';
import { loadTrack, playerAudio, relinkTrack, startPlayback, unloadTrack } from './audioEngine';
import { linkEnd, linkEnding, RENEW_AGAIN_AFTER_MS, sameFile } from './signedLinks';
import { selectCurrentTrack, selectHasNext, selectPlayer } from './player.selectors';
import {
  audioEnded,
  audioErrored,
  audioFailed,
  audioPaused,
  audioPlaying,
  audioProgressed,
  muteToggled,
  nextRequested,
  pauseRequested,
  playerClosed,
  playRequested,
  previewEnded,
  previousRequested,
  seekRequested,
  signupAsked,
  trackDetailLoaded,
  trackRenewed,
  trackRequested,
  trackStepped,
  volumeChanged,
  type PlayerState,
} from './player.slice';

/** Previous/next wait 100 ms after the pause; a visitor listens 30 seconds. */
export const PLAYER_TIMING = { stepDelayMs: 100, previewSeconds: 30 };

const finite = (value: number) => (Number.isFinite(value) ? value : 0);

/** The audio element's events as player actions. */
function audioEvents(element: HTMLAudioElement): EventChannel<UnknownAction> {
  return eventChannel<UnknownAction>((emit) => {
    const progressed = () => emit(audioProgressed({ position: finite(element.currentTime), duration: finite(element.duration) }));
    const listeners: Record<string, () => void> = {
      play: () => emit(audioPlaying()),
      playing: () => emit(audioPlaying()),
      // The pause that comes with the end is the end's business.
      pause: () => {
        if (!element.ended) emit(audioPaused());
      },
      timeupdate: progressed,
      loadedmetadata: progressed,
      ended: () => emit(audioEnded()),
      error: () => {
        if (element.getAttribute('src')) emit(audioErrored({ position: finite(element.currentTime) }));
      },
    };
    Object.entries(listeners).forEach(([name, listener]) => element.addEventListener(name, listener));
    return () => Object.entries(listeners).forEach(([name, listener]) => element.removeEventListener(name, listener));
  }, buffers.sliding(32));
}

function* forwardAudioEvents(element: HTMLAudioElement): SagaIterator {
  const channel: EventChannel<UnknownAction> = yield call(audioEvents, element);
  try {
    while (true) {
      const action: UnknownAction = yield take(channel);
      yield put(action);
    }
  } finally {
    // The store's sagas were stopped: the element no longer reports to it.
    channel.close();
  }
}

/** A track's detail as the signed-in member (or a guest) is shown it now; throws when it cannot be read. */
function* readTrackDetail(track: Content): SagaIterator<GetContentDetailResult> {
  const user: User | null = yield select(selectUser);
  return (yield call(
    getContentDetail,
    { path: { contentId: track.id, userId: user?.id ?? 'guest' } },
    { quiet: 'the player decides what to do with a piece it cannot read' },
  )) as GetContentDetailResult;
}

/** The track as the detail call answers it now, with new signed links; null when it cannot be had (gone, not shown to us any more). */
function* renewedTrack(track: Content): SagaIterator<Content | null> {
  try {
    const detail: GetContentDetailResult = yield call(readTrackDetail, track);
    yield put(trackRenewed(detail.content));
    return detail.content;
  } catch {
    return null;
  }
}

/**
 * Plays the current track from the element (loading it first when it is another song). A song whose signed link
 * has ended (a queue older than the link) is renewed first; otherwise `play()` runs inside the dispatch of the tap.
 * Answers the song that started playing, or null.
 */
function* playCurrent(element: HTMLAudioElement): SagaIterator<Content | null> {
  let track: Content | null = yield select(selectCurrentTrack);
  if (!track) return null;
  const { status }: PlayerState = yield select(selectPlayer);
  // After an audio error the same song is loaded again from the start.
  if (status === 'suspended') element.removeAttribute('src');
  if (!sameFile(element.getAttribute('src'), mediaUrl(track.filePath)) && linkEnding(track.filePath)) {
    track = ((yield call(renewedTrack, track)) as Content | null) ?? track;
  }
  loadTrack(element, mediaUrl(track.filePath));
  const outcome: Awaited<ReturnType<typeof startPlayback>> = yield call(startPlayback, element);
  if (outcome === 'refused') yield put(audioPaused());
  return outcome === 'playing' ? track : null;
}

/**
 * The audio failed. On a signed link (it ends a few minutes after it was given, and the browser asks for more of
 * the file as the song plays), the link is renewed and the song goes on from where it was, playing if it was;
 * at most once a minute, so that a link refused for another reason ends in `audioFailed` as any other error.
 */
function makeErrorHandler(element: HTMLAudioElement) {
  let lastRenewal = Number.NEGATIVE_INFINITY;
  return function* onAudioError(action: ReturnType<typeof audioErrored>): SagaIterator {
    const track: Content | null = yield select(selectCurrentTrack);
    const src = element.getAttribute('src');
    const renewable = track && src && linkEnd(src) !== null && Date.now() - lastRenewal >= RENEW_AGAIN_AFTER_MS;
    const renewed: Content | null = renewable ? yield call(renewedTrack, track) : null;
    const still: Content | null = yield select(selectCurrentTrack);
    if (!renewed || still?.id !== renewed.id || element.getAttribute('src') !== src) {
      if (!renewed) yield put(audioFailed());
      return;
    }
    lastRenewal = Date.now();
    relinkTrack(element, mediaUrl(renewed.filePath), action.payload.position);
    const { status }: PlayerState = yield select(selectPlayer);
    if (status !== 'playing') return;
    const outcome: Awaited<ReturnType<typeof startPlayback>> = yield call(startPlayback, element);
    if (outcome === 'refused') yield put(audioPaused());
  };
}

/** The comments count and views of the new track (the bar shows them). */
function* loadTrackDetail(): SagaIterator {
  const track: Content | null = yield select(selectCurrentTrack);
  if (!track) return;
  try {
    const detail: GetContentDetailResult = yield call(readTrackDetail, track);
    yield put(trackDetailLoaded({ contentId: track.id, commentsCount: detail.commentsCount, reactedCount: detail.content.reactedCount }));
  } catch {
    // The bar keeps what the card knew.
  }
}

/** A song chosen that starts playing is a play (a product event); playing on after a pause is not another. */
function* onTrackChosen(element: HTMLAudioElement): SagaIterator {
  yield fork(loadTrackDetail);
  const started: Content | null = yield call(playCurrent, element);
  if (started) yield call(track, 'play', { contentId: started.id });
}

function* onPlay(element: HTMLAudioElement): SagaIterator {
  const { status }: PlayerState = yield select(selectPlayer);
  if (status === 'playing') yield call(playCurrent, element);
}

/** Previous/next pause, then move after 100 ms. */
function* step(offset: -1 | 1): SagaIterator {
  yield put(pauseRequested());
  yield delay(PLAYER_TIMING.stepDelayMs);
  yield put(trackStepped(offset));
}

/** On end, repeat if on, else pause, reset and go next. */
function* onEnded(element: HTMLAudioElement): SagaIterator {
  const { repeat }: PlayerState = yield select(selectPlayer);
  if (repeat) {
    element.currentTime = 0;
    yield call(startPlayback, element);
    return;
  }
  element.currentTime = 0;
  if (yield select(selectHasNext)) yield call(step, 1);
}

function* syncVolume(element: HTMLAudioElement): SagaIterator {
  const { volume, muted }: PlayerState = yield select(selectPlayer);
  element.volume = volume;
  element.muted = muted;
}

/** Pauses and opens signup; once signed up, the song plays on (the modal's callback). */
function* askToSignUp(): SagaIterator {
  yield put(pauseRequested());
  yield put(modalOpened({ name: 'signup', origin: 'onClickKnack', callback: playRequested() }));
}

/** A visitor's listening is counted; at 30 seconds the audio pauses and signup opens. */
function* watchPreview(): SagaIterator {
  let listened = 0;
  let last: number | null = null;
  while (true) {
    const action: ReturnType<typeof audioProgressed> | ReturnType<typeof trackStepped> = yield take([
      audioProgressed.type,
      trackRequested.type,
      trackStepped.type,
    ]);
    const loggedIn: boolean = yield select(selectIsLoggedIn);
    const { status, previewUsed }: PlayerState = yield select(selectPlayer);
    if (!audioProgressed.match(action)) {
      last = null;
      continue;
    }
    const { position } = action.payload;
    // Only time heard counts: a seek (a jump of more than 2 s) or a pause adds nothing.
    const heard = last === null ? 0 : position - last;
    last = position;
    if (loggedIn || status !== 'playing' || heard <= 0 || heard > 2) continue;
    listened += heard;
    if (listened >= PLAYER_TIMING.previewSeconds && !previewUsed) {
      yield put(previewEnded());
      yield put(modalOpened({ name: 'signup', origin: 'onClickKnack', callback: playRequested() }));
    }
  }
}

export function* playerSaga(): SagaIterator {
  yield takeEvery(signupAsked.type, askToSignUp);
  // Nothing touches the DOM before the first song is chosen.
  yield take(trackRequested.type);
  const element = playerAudio();
  yield fork(forwardAudioEvents, element);
  yield fork(watchPreview);
  yield call(syncVolume, element);
  yield takeLatest([trackRequested.type, trackStepped.type], onTrackChosen, element);
  yield takeEvery(playRequested.type, onPlay, element);
  yield takeEvery([pauseRequested.type, previewEnded.type], function* pause() {
    element.pause();
  });
  yield takeEvery(seekRequested.type, function* seek(action: ReturnType<typeof seekRequested>) {
    if (Number.isFinite(action.payload)) element.currentTime = Math.max(0, action.payload);
  });
  yield takeEvery([volumeChanged.type, muteToggled.type], syncVolume, element);
  yield takeLatest([nextRequested.type, previousRequested.type], function* stepped(action: UnknownAction) {
    yield call(step, action.type === nextRequested.type ? 1 : -1);
  });
  yield takeEvery(audioEnded.type, onEnded, element);
  yield takeLatest(audioErrored.type, makeErrorHandler(element));
  yield takeEvery(audioFailed.type, function* failed() {
    element.pause();
  });
  yield takeEvery(playerClosed.type, function* closed() {
    unloadTrack(element);
  });
  // The first request is handled like the later ones.
  yield call(onTrackChosen, element);
}
