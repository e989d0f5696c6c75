import { combineReducers, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware, { type Task } from 'redux-saga';
import { knackApi } from '../api/generated/endpoints';
import { installAuthBridge } from '../features/auth';
import { rootReducers, type RootState } from './rootReducer';
import { rootSaga } from './rootSaga';

/**
 * A store with the saga middleware running the root saga, lending the HTTP client its token and session
 * renewal. Tests make their own with preloaded state.
 */
export function createAppStore(preloadedState?: Partial<RootState>) {
  return createAppStoreInSteps(preloadedState).startSagas();
}

/**
 * The same store made in two steps, which the SPA's entry runs in separate tasks so that a slow phone's main
 * thread is not held for both: the store (combining the reducers builds each feature's initial state), then
 * `startSagas()`, which lends the HTTP client the session and starts every feature's sagas. Nothing may be
 * dispatched in between: no saga would see it.
 */
export function createAppStoreInSteps(preloadedState?: Partial<RootState>) {
  const sagaMiddleware = createSagaMiddleware({
    onError: (error) => console.error('Uncaught saga error', error),
  });
  const store = configureStore({
    reducer: combineReducers(rootReducers),
    preloadedState,
    middleware: (getDefault) =>
      // The thunk middleware stays: the cached data layer's calls are thunks.
      getDefault({
        // The chosen File rides on the upload actions to the saga that sends it; it never enters the state.
        // The development checks skip the cache's slice: it is plain data by construction (cache.ts), and walking every
        // cached answer on every action made each action slow in development and tests.
        serializableCheck: { ignoredActionPaths: ['meta.arg', 'meta.baseQueryMeta', 'payload.file'], ignoredPaths: [knackApi.reducerPath] },
        immutableCheck: { ignoredPaths: [knackApi.reducerPath] },
      }).concat(knackApi.middleware, sagaMiddleware),
  });
  forgetReadsWhenTheViewerChanges(store);
  const startSagas = (): typeof store & { rootTask: Task; uninstallAuthBridge: () => void } => {
    const uninstallAuthBridge = installAuthBridge(store);
    const rootTask = sagaMiddleware.run(rootSaga);
    return Object.assign(store, { rootTask, uninstallAuthBridge });
  };
  return { store, startSagas };
}

/**
 * What the server answers depends on who asks (a private profile, one's own wallet, what one follows): when the
 * signed-in member changes (sign-in, sign-out, a session lost), every cached read is dropped, and the pages on
 * screen load theirs again as the new viewer. A renewed token for the same member keeps the cache.
 */
function forgetReadsWhenTheViewerChanges(store: {
  getState: () => RootState;
  dispatch: (action: ReturnType<typeof knackApi.util.resetApiState>) => unknown;
  subscribe: (listener: () => void) => unknown;
}) {
  let viewer = store.getState().auth.user?.id ?? null;
  store.subscribe(() => {
    const current = store.getState().auth.user?.id ?? null;
    if (current === viewer) return;
    viewer = current;
    store.dispatch(knackApi.util.resetApiState());
  });
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
export type { RootState };

// Gives the typed hooks (lib/storeHooks), which features and shared code use, the types of the store assembled here.
// (Inside the block a name is first looked up in lib/storeHooks, which has its own RootState: hence the other names.)
type AssembledState = RootState;
type AssembledDispatch = AppDispatch;
declare module '../lib/storeHooks' {
  interface StoreTypes {
    state: AssembledState;
    dispatch: AssembledDispatch;
  }
}
