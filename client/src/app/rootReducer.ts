import type { StateFromReducersMapObject } from '@reduxjs/toolkit';
import { knackApi } from '../api/generated/endpoints';
import { uiReducer } from '../lib/ui';
import { authReducer } from '../features/auth';
import { uploadReducer } from '../features/upload';
import { contentDetailReducer } from '../features/content-detail';
import { playerReducer } from '../features/player';
import { commentsReducer } from '../features/comments';
import { followsReducer } from '../features/follows';
import { nftReducer } from '../features/nft';

/**
 * Every feature's reducer under its key. The store combines them when it is made (createAppStore), not when this
 * module is evaluated: combining calls each reducer to check its initial state, work that a slow phone feels while
 * the page's scripts load.
 */
export const rootReducers = {
  ui: uiReducer,
  auth: authReducer,
  upload: uploadReducer,
  contentDetail: contentDetailReducer,
  player: playerReducer,
  comments: commentsReducer,
  follows: followsReducer,
  nft: nftReducer,
  [knackApi.reducerPath]: knackApi.reducer,
};

export type RootState = StateFromReducersMapObject<typeof rootReducers>;
