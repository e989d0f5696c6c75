/**
 * Knacks from the client's side: a song counts once the signed-in member has heard more than half of it — the
 * server measures that from the play session started here (`knack/play`) and answers 409 when too little time
 * has passed, so the client waits and asks again; an image counts when the detail modal opens it with knack
 * status 1. After 9 recent knacks the next needs the emailed code: the verification modal asks for it. Each
 * new knack says 'Thank you for being apart of our Community.'.
 */
import type { SagaIterator } from 'redux-saga';
import { call, delay, put, select, take, takeEvery, takeLatest } from 'redux-saga/effects';
import { knackApi } from '../../api/generated/endpoints';
import { addKnack, startPlay, type AddKnackResult, type StartPlayResult } from '../../api/generated/operations';
import { toApiError } from '../../api/http';
import { notify } from '../../components/notify';
import { selectReactedContents, selectUser, type User } from '../auth';
import type { Content } from '../../lib/content';
import { audioPlaying, audioProgressed, playerClosed, type PlayerState, selectCurrentTrack, selectPlayer, trackRequested, trackStepped } from '../player';
import { track } from '../../lib/track';
import { modalOpened } from '../../lib/ui';
import { imageViewed, knackRegistered } from '../../lib/contentEvents';
import { KNACK_THANKS } from './knack.messages';

/** How often a play the server found too short is asked again, at most. */
export const KNACK_RETRIES = 3;

/** May this member knack this piece now? Active, not the owner, not knacked already. */
function* mayKnack(content: Content): SagaIterator<boolean> {
  const user: User | null = yield select(selectUser);
  const reacted: string[] = yield select(selectReactedContents);
  return Boolean(user?.isActive && content.ownerId !== user.id && !reacted.includes(content.id));
}

/** A new knack (the server thanks the member for it; a repeated one it does not) is thanked and recorded. */
function* thank(action: ReturnType<typeof knackRegistered>): SagaIterator {
  if (action.payload.message !== KNACK_THANKS) return;
  yield call(notify, 'success', KNACK_THANKS);
  yield call(track, 'knack', { contentId: action.payload.contentId });
}

type Attempt = 'done' | 'too-early' | 'stopped';

/**
 * One `knack/add`: 428 opens the verification modal (which finishes the knack), other errors are toasts. A knack
 * moves money (the member's knacks left, the owner's and the supporter's balances): the money reads on screen
 * load again.
 */
export function* tryKnack(contentId: string, playId?: string): SagaIterator<Attempt> {
  const user: User | null = yield select(selectUser);
  if (!user) return 'stopped';
  try {
    const result: AddKnackResult = yield call(
      addKnack,
      { body: { contentId, userId: user.id, ...(playId ? { playId } : {}) } },
      { quiet: 'too early is retried, a needed code opens its modal, any other failure is toasted below' },
    );
    yield put(knackRegistered({ contentId, ...result }));
    yield put(knackApi.util.invalidateTags(['Knack']));
    return 'done';
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.status === 409) return 'too-early';
    if (apiError.status === 428) yield put(modalOpened({ name: 'verification', contentId, playId }));
    else notify('error', apiError.message);
    return 'stopped';
  }
}

/** Waits until more than half of the current song (still `contentId`) has played; false if it changed. */
function* halfHeard(contentId: string): SagaIterator<boolean> {
  while (true) {
    const track: Content | null = yield select(selectCurrentTrack);
    if (track?.id !== contentId) return false;
    const { position, duration }: PlayerState = yield select(selectPlayer);
    if (duration > 0 && position > duration / 2) return true;
    yield take(audioProgressed.type);
  }
}

/** One song: the play session starts with the audio; past half, the knack is asked for. */
function* knackThePlayedSong(): SagaIterator {
  // A knack that goes wrong must not stop the player and the other sagas with it.
  try {
    yield call(followThePlayedSong);
  } catch (error) {
    console.error('Knack of the played song failed', error);
  }
}

function* followThePlayedSong(): SagaIterator {
  const track: Content | null = yield select(selectCurrentTrack);
  if (!track) return;
  // Starts when the audio really plays, for a member who may knack it (a visitor may sign in meanwhile).
  while (true) {
    yield take(audioPlaying.type);
    if (yield call(mayKnack, track)) break;
  }
  let session: StartPlayResult | undefined;
  try {
    session = yield call(startPlay, { body: { contentId: track.id } }, { quiet: 'a play that cannot start a knack session still plays' });
  } catch {
    // No session (offline, the piece went private…): this play does not knack.
  }
  if (!session) return;
  const startedAt = Date.now();
  if (!(yield call(halfHeard, track.id))) return;
  for (let attempt = 0; attempt <= KNACK_RETRIES; attempt += 1) {
    const outcome: Attempt = yield call(tryKnack, track.id, session.playId);
    if (outcome !== 'too-early') return;
    // Seeked ahead: the server counts from the start of the session, so wait out the rest.
    yield delay(Math.max(500, session.minSeconds * 1000 - (Date.now() - startedAt) + 250));
  }
}

/** Each image knacks once, even when the modal shows it again before the answer. */
function* knackTheViewedImages(): SagaIterator {
  const asked = new Set<string>();
  yield takeEvery(imageViewed.type, function* viewed(action: ReturnType<typeof imageViewed>) {
    const { contentId } = action.payload;
    const reacted: string[] = yield select(selectReactedContents);
    if (asked.has(contentId) || reacted.includes(contentId)) return;
    asked.add(contentId);
    const outcome: Attempt = yield call(tryKnack, contentId);
    if (outcome !== 'done') asked.delete(contentId);
  });
}

export function* knackSaga(): SagaIterator {
  yield takeEvery(knackRegistered.type, thank);
  yield takeLatest([trackRequested.type, trackStepped.type, playerClosed.type], knackThePlayedSong);
  yield call(knackTheViewedImages);
}
