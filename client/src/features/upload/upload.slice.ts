import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { modalClosed, modalOpened } from '../../lib/ui';
import type { Content } from '../../lib/content';
import type {
  FieldError,
  FileSlot,
  PendingFile,
  PieceFileKind,
  ReplaceState,
  SlotState,
  StoredFile,
  UploadFormKind,
  UploadStatus,
  UploadValues,
} from './upload.types';

/** A one-file transfer of the profile dialogs (the photo crop, the header original and its crop). */
export interface TransferState {
  status: UploadStatus;
  progress: number;
  message: string | null;
}

/**
 * The upload modals. The content forms: status idle → uploading → done | failed for every transfer (a file as
 * soon as it is chosen, then the save), what is being sent, each file's progress and answer, the Top 50 step.
 * `session` changes each time a form opens, so the form starts empty. The profile photo and header dialogs
 * keep their own transfer.
 */
export interface UploadState {
  kind: UploadFormKind;
  session: number;
  status: UploadStatus;
  /** What is in flight: a file, the save, or nothing. Inputs are disabled meanwhile. */
  sending: FileSlot | 'save' | null;
  /** Top 50: 1 the form, 2 the email confirmation. */
  step: 1 | 2;
  photo: SlotState;
  audio: SlotState;
  /** The last failure's message. */
  message: string | null;
  /** Fields the server named in its last answer to the save. */
  errors: FieldError[];
  saved: Content | null;
  /** A visitor's Top 50 upload pass (for this opening of the form), sent with their files and their save. */
  visitorPass: string | null;
  avatar: TransferState;
  header: TransferState & {
    /** The uploaded original (its path becomes headerImage). */
    original: StoredFile | null;
    /** Which file is in flight: the original or its crop. */
    sending: 'original' | 'crop' | null;
  };
  /** A new file for a published piece (the replace-file modal). */
  replace: ReplaceState;
}

const emptySlot = (): SlotState => ({ status: 'idle', progress: 0, pending: null, file: null, error: null });
const idleTransfer = (): TransferState => ({ status: 'idle', progress: 0, message: null });
const idleReplace = (): ReplaceState => ({ ...emptySlot(), contentId: null, kind: null });

export const initialUploadState: UploadState = {
  kind: 'content',
  session: 0,
  status: 'idle',
  sending: null,
  step: 1,
  photo: emptySlot(),
  audio: emptySlot(),
  message: null,
  errors: [],
  saved: null,
  visitorPass: null,
  avatar: idleTransfer(),
  header: { ...idleTransfer(), original: null, sending: null },
  replace: idleReplace(),
};

export const UPLOAD_FORM_MODALS = { upload: 'content', 'upload-top50': 'top50', 'upload-artist': 'artist' } as const satisfies Record<string, UploadFormKind>;
export type UploadModalName = keyof typeof UPLOAD_FORM_MODALS;

export const isUploadFormModal = (name: string | null | undefined): name is UploadModalName =>
  Boolean(name && Object.prototype.hasOwnProperty.call(UPLOAD_FORM_MODALS, name));

const uploadSlice = createSlice({
  name: 'upload',
  initialState: initialUploadState,
  reducers: {
    /** A file was picked; the saga checks it and sends it (the File stays out of the state). */
    fileChosen(_state, _action: PayloadAction<{ slot: FileSlot; file: File }>) {},
    fileUploadStarted(state, action: PayloadAction<{ slot: FileSlot; pending: PendingFile }>) {
      const { slot, pending } = action.payload;
      state[slot] = { status: 'uploading', progress: 0, pending, file: null, error: null };
      state.status = 'uploading';
      state.sending = slot;
      state.message = null;
    },
    fileUploadProgress(state, action: PayloadAction<{ slot: FileSlot; fraction: number }>) {
      const { slot, fraction } = action.payload;
      if (state[slot].status === 'uploading') state[slot].progress = Math.max(state[slot].progress, Math.min(1, fraction));
    },
    fileUploadSucceeded(state, action: PayloadAction<{ slot: FileSlot; file: StoredFile }>) {
      const { slot, file } = action.payload;
      state[slot] = { status: 'done', progress: 1, pending: null, file, error: null };
      state.status = 'done';
      state.sending = null;
    },
    /** Refused by the client's check or by the server: the field shows why, the file is gone. */
    fileUploadFailed(state, action: PayloadAction<{ slot: FileSlot; message: string; pending?: PendingFile }>) {
      const { slot, message, pending } = action.payload;
      state[slot] = {
        status: 'failed',
        progress: state[slot].status === 'uploading' ? state[slot].progress : 0,
        pending: pending ?? state[slot].pending,
        file: null,
        error: message,
      };
      state.status = 'failed';
      state.sending = null;
      state.message = message;
    },
    fileRemoved(state, action: PayloadAction<FileSlot>) {
      state[action.payload] = emptySlot();
    },
    /** The person stopped the transfer in flight. */
    uploadCancelled(state) {
      if (state.sending === 'photo' || state.sending === 'audio') state[state.sending] = emptySlot();
      state.sending = null;
      state.status = 'idle';
    },
    /**
     * A content form that is not a modal (NFT mode's page) opens: the files start empty, as a modal's do. Its
     * details follow the classic form's rules.
     */
    uploadFormStarted(state) {
      return { ...initialUploadState, avatar: state.avatar, header: state.header, kind: 'content', session: state.session + 1 };
    },
    /** A visitor's Top 50 form got its upload pass (asked before its first file). */
    visitorPassIssued(state, action: PayloadAction<string>) {
      state.visitorPass = action.payload;
    },
    top50StepChanged(state, action: PayloadAction<1 | 2>) {
      state.step = action.payload;
    },
    uploadSubmitted(state, _action: PayloadAction<UploadValues>) {
      state.status = 'uploading';
      state.sending = 'save';
      state.message = null;
      state.errors = [];
    },
    uploadSaved(state, action: PayloadAction<Content>) {
      state.status = 'done';
      state.sending = null;
      state.saved = action.payload;
    },
    /** The save failed: status failed (the saga shows the toast); the Top 50 form goes back to step 1. */
    uploadSaveFailed(state, action: PayloadAction<{ message: string; errors: FieldError[] }>) {
      state.status = 'failed';
      state.sending = null;
      state.message = action.payload.message;
      state.errors = action.payload.errors;
      if (state.kind === 'top50') state.step = 1;
    },

    // Profile photo: the square crop is uploaded, then set as the photo.
    avatarSaveRequested(state, _action: PayloadAction<{ file: File }>) {
      state.avatar = { status: 'uploading', progress: 0, message: null };
    },
    avatarProgress(state, action: PayloadAction<number>) {
      state.avatar.progress = Math.max(state.avatar.progress, Math.min(1, action.payload));
    },
    avatarSaved(state) {
      state.avatar = { status: 'done', progress: 1, message: null };
    },
    avatarFailed(state, action: PayloadAction<string>) {
      state.avatar = { ...state.avatar, status: 'failed', message: action.payload };
    },

    // Header image: the original is uploaded first, then the crop (1119:305), then both are applied.
    headerFileChosen(_state, _action: PayloadAction<{ file: File }>) {},
    headerOriginalStarted(state) {
      state.header = { status: 'uploading', progress: 0, message: null, original: null, sending: 'original' };
    },
    headerOriginalUploaded(state, action: PayloadAction<StoredFile>) {
      state.header = { status: 'done', progress: 1, message: null, original: action.payload, sending: null };
    },
    headerSaveRequested(state, _action: PayloadAction<{ file: File }>) {
      state.header.status = 'uploading';
      state.header.progress = 0;
      state.header.message = null;
      state.header.sending = 'crop';
    },
    headerProgress(state, action: PayloadAction<number>) {
      state.header.progress = Math.max(state.header.progress, Math.min(1, action.payload));
    },
    headerSaved(state) {
      state.header.status = 'done';
      state.header.progress = 1;
      state.header.sending = null;
    },
    headerFailed(state, action: PayloadAction<string>) {
      state.header.status = 'failed';
      state.header.message = action.payload;
      state.header.sending = null;
    },
    headerReset(state) {
      state.header = { ...idleTransfer(), original: null, sending: null };
    },

    // A published piece's new file: checked, sent with its progress, then the piece shows it everywhere.
    replaceFileChosen(_state, _action: PayloadAction<{ contentId: string; kind: PieceFileKind; file: File }>) {},
    replaceStarted(state, action: PayloadAction<{ contentId: string; kind: PieceFileKind; pending: PendingFile }>) {
      const { contentId, kind, pending } = action.payload;
      state.replace = { status: 'uploading', progress: 0, pending, file: null, error: null, contentId, kind };
    },
    replaceProgress(state, action: PayloadAction<number>) {
      if (state.replace.status === 'uploading') state.replace.progress = Math.max(state.replace.progress, Math.min(1, action.payload));
    },
    replaceSucceeded(state) {
      state.replace = { ...state.replace, status: 'done', progress: 1, pending: null, error: null };
    },
    /** Refused by the client's check or by the server: the piece is as it was, the field says why. */
    replaceFailed(state, action: PayloadAction<{ contentId: string; kind: PieceFileKind; message: string; pending?: PendingFile }>) {
      const { contentId, kind, message, pending } = action.payload;
      const progress = state.replace.status === 'uploading' ? state.replace.progress : 0;
      state.replace = { status: 'failed', progress, pending: pending ?? state.replace.pending, file: null, error: message, contentId, kind };
    },
    /** The person stopped the new file in flight: nothing of it is kept. */
    replaceCancelled(state) {
      state.replace = idleReplace();
    },
  },
  extraReducers: (builder) => {
    // Every opening starts fresh: the form resets on open.
    builder.addCase(modalOpened, (state, action) => {
      const { name } = action.payload;
      if (isUploadFormModal(name)) {
        return { ...initialUploadState, avatar: state.avatar, header: state.header, kind: UPLOAD_FORM_MODALS[name], session: state.session + 1 };
      }
      if (name === 'profile-photo') state.avatar = idleTransfer();
      if (name === 'header-image') state.header = { ...idleTransfer(), original: null, sending: null };
      if (name === 'replace-file') state.replace = idleReplace();
      return undefined;
    });
    // Closing stops a file transfer in flight (the saga aborts it); a save already sent finishes.
    builder.addCase(modalClosed, (state) => {
      if (state.sending === 'photo' || state.sending === 'audio') {
        state[state.sending] = emptySlot();
        state.sending = null;
        state.status = 'idle';
      }
      if (state.avatar.status === 'uploading') state.avatar = idleTransfer();
      if (state.header.status === 'uploading')
        state.header = { ...idleTransfer(), original: state.header.sending === 'crop' ? state.header.original : null, sending: null };
      if (state.replace.status === 'uploading') state.replace = idleReplace();
    });
  },
});

export const {
  fileChosen,
  fileUploadStarted,
  fileUploadProgress,
  fileUploadSucceeded,
  fileUploadFailed,
  fileRemoved,
  uploadCancelled,
  visitorPassIssued,
  uploadFormStarted,
  top50StepChanged,
  uploadSubmitted,
  uploadSaved,
  uploadSaveFailed,
  avatarSaveRequested,
  avatarProgress,
  avatarSaved,
  avatarFailed,
  headerFileChosen,
  headerOriginalStarted,
  headerOriginalUploaded,
  headerSaveRequested,
  headerProgress,
  headerSaved,
  headerFailed,
  headerReset,
  replaceFileChosen,
  replaceStarted,
  replaceProgress,
  replaceSucceeded,
  replaceFailed,
  replaceCancelled,
} = uploadSlice.actions;
export const uploadReducer = uploadSlice.reducer;
