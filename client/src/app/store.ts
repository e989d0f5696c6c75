import { configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { installAuthBridge } from '../features/auth';
import { rootReducer, type RootState } from './rootReducer';
import { rootSaga } from './rootSaga';

/**
 * A store with the saga middleware running the root saga, lending the HTTP client its token and session
 * renewal. Tests make their own with preloaded state.
 */
export function createAppStore(preloadedState?: Partial<RootState>) {
  const sagaMiddleware = createSagaMiddleware({
    onError: (error) => console.error('Uncaught saga error', error),
  });
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault({
        thunk: false,
        // The chosen File rides on the upload actions to the saga that sends it; it never enters the state.
        serializableCheck: { ignoredActionPaths: ['meta.arg', 'meta.baseQueryMeta', 'payload.file'] },
      }).concat(sagaMiddleware),
  });
  const uninstallAuthBridge = installAuthBridge(store);
  const rootTask = sagaMiddleware.run(rootSaga);
  return Object.assign(store, { rootTask, uninstallAuthBridge });
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
export type { RootState };
