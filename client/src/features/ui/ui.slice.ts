import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readViewport, type Device, type Orientation, type Viewport } from './viewport';

/** Modals later issues render; for now the buttons only record the request. */
export type ModalName = 'login' | 'signup' | 'upload';

export interface UiState {
  device: Device;
  orientation: Orientation;
  width: number;
  height: number;
  /** The open modal, or null. */
  modal: ModalName | null;
  /** The phone side-menu drawer. */
  sideMenuOpen: boolean;
}

export function initialUiState(viewport: Viewport = readViewport()): UiState {
  return { ...viewport, modal: null, sideMenuOpen: false };
}

const uiSlice = createSlice({
  name: 'ui',
  initialState: initialUiState,
  reducers: {
    viewportChanged(state, action: PayloadAction<Viewport>) {
      Object.assign(state, action.payload);
      if (action.payload.device === 'desktop') state.sideMenuOpen = false;
    },
    modalOpened(state, action: PayloadAction<ModalName>) {
      state.modal = action.payload;
      state.sideMenuOpen = false;
    },
    modalClosed(state) {
      state.modal = null;
    },
    sideMenuOpened(state) {
      state.sideMenuOpen = true;
    },
    sideMenuClosed(state) {
      state.sideMenuOpen = false;
    },
  },
});

export const { viewportChanged, modalOpened, modalClosed, sideMenuOpened, sideMenuClosed } = uiSlice.actions;
export const uiReducer = uiSlice.reducer;
