/**
 * lib/ui: the app-wide UI state every feature may read and change: device, orientation and viewport size,
 * the open modal (one at a time, by name) and the phone side menu.
 */
export { uiReducer, initialUiState, viewportChanged, modalOpened, modalClosed, sideMenuOpened, sideMenuClosed, AUTH_MODALS, MEMBER_MODALS } from './ui.slice';
export type { UiState, ModalName, ModalOrigin, ModalProps, ModalRequest } from './ui.slice';
export { uiSaga } from './ui.saga';
export {
  selectDevice,
  selectIsPhone,
  selectOrientation,
  selectOpenModal,
  selectModalProps,
  selectSideMenuOpen,
  selectViewportWidth,
  selectViewportHeight,
} from './ui.selectors';
export { detectDevice, detectOrientation, readViewport, isPhoneUserAgent } from './viewport';
export type { Device, Orientation, Viewport } from './viewport';
