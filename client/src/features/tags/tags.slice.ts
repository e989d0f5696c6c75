import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { LoadStatus, Tag } from '../../lib/tags';

export interface TagsState {
  status: LoadStatus;
  items: Tag[];
  error: string | null;
}

export const initialTagsState: TagsState = { status: 'idle', items: [], error: null };

const tagsSlice = createSlice({
  name: 'tags',
  initialState: initialTagsState,
  reducers: {
    tagsRequested(state) {
      state.status = 'loading';
      state.error = null;
    },
    tagsLoaded(state, action: PayloadAction<Tag[]>) {
      state.status = 'loaded';
      state.items = action.payload;
      state.error = null;
    },
    tagsFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
    },
  },
});

export const { tagsRequested, tagsLoaded, tagsFailed } = tagsSlice.actions;
export const tagsReducer = tagsSlice.reducer;
