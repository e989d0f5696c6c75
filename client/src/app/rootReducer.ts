import { combineReducers } from '@reduxjs/toolkit';
import { uiReducer } from './ui';
import { tagsReducer } from '../features/tags';
import { cmsReducer } from '../features/cms';
import { authReducer } from '../features/auth';
import { uploadReducer } from '../features/upload';
import { contentDetailReducer } from '../features/content-detail';
import { paymentsReducer } from '../features/payments';
import { playerReducer } from '../features/player';
import { commentsReducer } from '../features/comments';
import { followsReducer } from '../features/follows';
import { messagesReducer } from '../features/messages';

export const rootReducer = combineReducers({
  ui: uiReducer,
  tags: tagsReducer,
  cms: cmsReducer,
  auth: authReducer,
  upload: uploadReducer,
  contentDetail: contentDetailReducer,
  payments: paymentsReducer,
  player: playerReducer,
  comments: commentsReducer,
  follows: followsReducer,
  messages: messagesReducer,
});

export type RootState = ReturnType<typeof rootReducer>;
