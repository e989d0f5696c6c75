/**
 * features/upload: the upload modals (upload content, upload music for the Top 50, the artist
 * page's upload-{name}), the profile photo dialog and the header image dialog. State and sagas are here;
 * the modals are lazy chunks, loaded through the loaders below the first time one opens.
 */
export {
  uploadReducer,
  initialUploadState,
  fileChosen,
  fileRemoved,
  uploadCancelled,
  uploadFormStarted,
  uploadSubmitted,
  uploadSaved,
  uploadSaveFailed,
  top50StepChanged,
  avatarSaveRequested,
  headerFileChosen,
  headerSaveRequested,
  headerReset,
  isUploadFormModal,
  UPLOAD_FORM_MODALS,
} from './upload.slice';
export type { UploadState, TransferState, UploadModalName } from './upload.slice';
export { uploadSaga } from './upload.saga';
export { selectUpload, selectUploadStatus, selectUploadBusy, selectAvatarTransfer, selectHeaderTransfer } from './upload.selectors';
// The rules (weights, messages, file checks) are imported from './upload.rules' by the modals that use them.
export { pageReload } from './pageReload';
export type { UploadFormKind, UploadStatus, FileSlot, StoredFile, SlotState, UploadValues } from './upload.types';
// The form's parts that other features' lazy pages reuse (a piece's details) are offered by entry.ts: exported from
// here, they would load with the store, on the landing page.

/** The three content upload modals (one chunk). */
export const loadUploadModal = () => import('./components/UploadModal');
/** The profile photo dialog with its square cropper. */
export const loadProfilePhotoModal = () => import('./components/ProfilePhotoModal');
/** The header image dialog: upload, then crop at 1119:305. */
export const loadHeaderImageModal = () => import('./components/HeaderImageModal');
/** Replace file: a published piece's new song, cover or picture, and its earlier files with Restore. */
export const loadReplaceFileModal = () => import('./components/ReplaceFileModal');
