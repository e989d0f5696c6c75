import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { laterCount, type Content } from '../../lib/content';
import { detailOpened, knackRegistered, listingPaid, pieceUpdated } from '../../lib/contentEvents';

/**
 * The content detail modal: whether it is open, which piece it shows and the pieces the arrows
 * step through (the grid or strip it was opened from, in its order). After closing, `content` is the last
 * piece shown.
 */
export interface ContentDetailState {
  open: boolean;
  content: Content | null;
  siblings: Content[];
  /** Pieces changed here since the modal opened, as the server answered the change: newer than the detail call's copy. */
  savedHere: Record<string, Content>;
}

export const initialContentDetailState: ContentDetailState = { open: false, content: null, siblings: [], savedHere: {} };

const contentDetailSlice = createSlice({
  name: 'contentDetail',
  initialState: initialContentDetailState,
  reducers: {
    /** The previous or next arrow (or key, or swipe): shows the sibling `offset` away, if there is one. */
    detailStepped(state, action: PayloadAction<-1 | 1>) {
      const index = state.siblings.findIndex((piece) => piece.id === state.content?.id);
      const next = index < 0 ? undefined : state.siblings[index + action.payload];
      if (state.open && next) state.content = next;
    },
    /** A piece was removed: it leaves the list; the modal closes if it was showing it. */
    contentRemoved(state, action: PayloadAction<string>) {
      state.siblings = state.siblings.filter((piece) => piece.id !== action.payload);
      if (state.content?.id === action.payload) state.open = false;
    },
    /** The modal closes; the last piece stays in the state while the closing animation shows it. */
    detailClosed(state) {
      state.open = false;
    },
  },
  extraReducers: (builder) => {
    // A card was chosen (in any feature): the modal shows it, the arrows walk `siblings`.
    builder.addCase(detailOpened, (state, action) => {
      const { content, siblings = [] } = action.payload;
      state.open = true;
      state.content = content;
      state.siblings = siblings.some((piece) => piece.id === content.id) ? siblings : [content, ...siblings];
      state.savedHere = {};
    });
    // A listing fee was paid here: the piece shows as monetized at once (check icon, knack status).
    builder.addCase(listingPaid, (state, action) => {
      const { contentId, payerId } = action.payload;
      for (const piece of [state.content, ...state.siblings]) {
        if (piece?.id === contentId) Object.assign(piece, { isPaidOut: true, payerId });
      }
    });
    // A knack here: the piece's views count it at once.
    builder.addCase(knackRegistered, (state, action) => {
      const { contentId, reactedCount } = action.payload;
      for (const piece of [state.content, ...state.siblings]) {
        if (piece?.id === contentId) piece.reactedCount = laterCount(reactedCount, piece.reactedCount);
      }
    });
    // The owner changed the piece here (its privacy): every copy takes the server's answer (setting, counts, file URLs).
    builder.addCase(pieceUpdated, (state, action) => {
      const saved = action.payload;
      if (state.content?.id === saved.id) state.content = saved;
      state.siblings = state.siblings.map((piece) => (piece.id === saved.id ? saved : piece));
      state.savedHere[saved.id] = saved;
    });
  },
});

export const { detailStepped, contentRemoved, detailClosed } = contentDetailSlice.actions;
export const contentDetailReducer = contentDetailSlice.reducer;
