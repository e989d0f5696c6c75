import type { UiState } from './ui.slice';

type WithUi = { ui: UiState };

export const selectDevice = (state: WithUi) => state.ui.device;
export const selectIsPhone = (state: WithUi) => state.ui.device === 'phone';
export const selectOrientation = (state: WithUi) => state.ui.orientation;
export const selectOpenModal = (state: WithUi) => state.ui.modal;
export const selectModalProps = (state: WithUi) => state.ui.modalProps;
export const selectSideMenuOpen = (state: WithUi) => state.ui.sideMenuOpen;
export const selectViewportWidth = (state: WithUi) => state.ui.width;
export const selectViewportHeight = (state: WithUi) => state.ui.height;
