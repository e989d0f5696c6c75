import { eventChannel, type EventChannel, type SagaIterator, type Task } from 'redux-saga';
import { call, cancel, delay, fork, put, take } from 'redux-saga/effects';
import { viewportChanged } from './ui.slice';
import { readViewport } from './viewport';

/** The window's resize and orientationchange events as a channel. */
export function viewportEvents(): EventChannel<string> {
  return eventChannel((emit) => {
    const onEvent = (event: Event) => emit(event.type);
    window.addEventListener('resize', onEvent);
    window.addEventListener('orientationchange', onEvent);
    return () => {
      window.removeEventListener('resize', onEvent);
      window.removeEventListener('orientationchange', onEvent);
    };
  });
}

function* rereadViewport(): SagaIterator {
  // Orientation is re-read 100 ms after the change, once the browser has settled.
  yield delay(100);
  yield put(viewportChanged(readViewport()));
}

/** Keeps device and orientation current; a burst of events is read once, 100 ms after the last. */
export function* uiSaga(): SagaIterator {
  if (typeof window === 'undefined') return;
  const channel: EventChannel<string> = yield call(viewportEvents);
  let pending: Task | undefined;
  try {
    for (;;) {
      yield take(channel);
      if (pending) yield cancel(pending);
      pending = yield fork(rereadViewport);
    }
  } finally {
    channel.close();
  }
}
