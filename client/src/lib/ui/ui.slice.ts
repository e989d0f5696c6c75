import { createSlice, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';
import { readViewport, type Device, type Orientation, type Viewport } from './viewport';

/**
 * The modals of the front layout. The auth modal names match the `/auth/{type}` route. The upload
 * modals: 'upload' (upload content, classic), 'upload-top50' (upload music, Top 50), 'upload-artist'
 * (upload-{name}, artist page); 'profile-photo' and 'header-image' change the member's pictures.
 */
export type ModalName =
  | 'login'
  | 'signup'
  | 'forgot-password'
  | 'reset-password'
  | 'upload'
  | 'upload-top50'
  | 'upload-artist'
  // The `{name} register` modal: a waiting account (left by a visitor's Top 50 upload) registered from its mailed link.
  | 'artist-register'
  | 'profile-photo'
  | 'header-image'
  // Issue 6: the payment modal (types dollar / price / paid), the knack verification code, share & embed.
  | 'payment'
  | 'verification'
  | 'share'
  // Issue 16: a member's followers and following; flagging a piece.
  | 'follow'
  | 'flag'
  // Issue 17: subscribing to a plan; who can see a piece (settings (Privacy)).
  | 'subscription'
  | 'privacy'
  // Issue 18: adding a piece to a project, or creating one.
  | 'project'
  // Issue 18: the message modal (create and reply).
  | 'message'
  // The earnings analytics modal (members on a plan).
  | 'analytics'
  // A piece's owner replaces its file (song, picture or cover) or restores an earlier one.
  | 'replace-file';

export const AUTH_MODALS: readonly ModalName[] = ['login', 'signup', 'forgot-password', 'reset-password', 'artist-register'];

/** The modals only a signed-in member may use; a visitor asking for one gets the login modal. */
export const MEMBER_MODALS: readonly ModalName[] = [
  'upload',
  'upload-artist',
  'profile-photo',
  'header-image',
  'payment',
  'verification',
  'flag',
  'subscription',
  'privacy',
  'project',
  'message',
  'analytics',
  'replace-file',
];

/**
 * Where a modal was opened from: after a login, 'onClickKnack' and 'comments' run the callback,
 * 'userProfile' goes to the own profile, anything else to /explore; after a signup 'onClickKnack' and
 * 'pricing' run the callback.
 */
export type ModalOrigin = 'onClickKnack' | 'comments' | 'userProfile' | 'pricing' | (string & {});

export interface ModalProps {
  origin?: ModalOrigin;
  /** An action dispatched after a successful login when the origin asks for it (must stay serializable). */
  callback?: UnknownAction;
  /** Prefills the email field (login opened from signup step 1). */
  email?: string;
  /** The emailed token (reset password, the `{name} register` link). */
  token?: string;
  /** A line shown above the form (e.g. the password was reset). */
  notice?: string;
  /**
   * The artist-page and Top 50 uploads: whose page or chart (the artist's user id) and the artist's name; the
   * `{name} register` modal: the waiting account's id (and the chart's artist).
   */
  userId?: string;
  artistName?: string;
  /** Payment modal: which type ('dollar' offer to monetize, 'price' confirm cash-out, 'paid' congratulation). */
  paymentType?: 'dollar' | 'price' | 'paid';
  /** The piece a payment, share, verification, privacy, project or replace-file modal is about. */
  contentId?: string;
  /** Verification modal: the play session of the song being knacked. */
  playId?: string;
  /** Follow modal (whose lists: `userId`): the tab it opens on. */
  followTab?: 'followers' | 'following';
  /** Subscription modal: the plan chosen. */
  planId?: number;
  /**
   * Message modal: a new thread or a reply (the recipient locked); the recipient (`admin` for support) and name, and
   * for a member their username and photo (the recipient list shows them).
   */
  messageMode?: 'create' | 'reply';
  receiverId?: string;
  receiverName?: string;
  receiverUsername?: string;
  receiverImage?: string | null;
  /** Message modal, reply: the thread, its subject, and who answers (an admin answers as the support account). */
  threadId?: string;
  subject?: string;
  senderId?: string;
}

export interface ModalRequest extends ModalProps {
  name: ModalName;
}

export interface UiState {
  device: Device;
  orientation: Orientation;
  width: number;
  height: number;
  /** The open modal, or null. */
  modal: ModalName | null;
  /** What the open modal was opened with. */
  modalProps: ModalProps;
  /** The phone side-menu drawer. */
  sideMenuOpen: boolean;
}

export function initialUiState(viewport: Viewport = readViewport()): UiState {
  return { ...viewport, modal: null, modalProps: {}, sideMenuOpen: false };
}

const uiSlice = createSlice({
  name: 'ui',
  initialState: initialUiState,
  reducers: {
    viewportChanged(state, action: PayloadAction<Viewport>) {
      Object.assign(state, action.payload);
      if (action.payload.device === 'desktop') state.sideMenuOpen = false;
    },
    /** Opens a modal (one at a time: opening another replaces it), by name or with its props. */
    modalOpened: {
      reducer(state, action: PayloadAction<ModalRequest>) {
        const { name, ...props } = action.payload;
        state.modal = name;
        state.modalProps = props;
        state.sideMenuOpen = false;
      },
      prepare(request: ModalName | ModalRequest) {
        return { payload: typeof request === 'string' ? { name: request } : request };
      },
    },
    modalClosed(state) {
      state.modal = null;
      state.modalProps = {};
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
