import type { UploadState } from './upload.slice';

type WithUpload = { upload: UploadState };

export const selectUpload = (state: WithUpload) => state.upload;
export const selectUploadStatus = (state: WithUpload) => state.upload.status;
/** Something is being sent: the form's inputs are disabled. */
export const selectUploadBusy = (state: WithUpload) => state.upload.sending !== null;
export const selectAvatarTransfer = (state: WithUpload) => state.upload.avatar;
export const selectHeaderTransfer = (state: WithUpload) => state.upload.header;
/** The new file of a published piece in flight, or its outcome (the replace-file modal). */
export const selectReplaceTransfer = (state: WithUpload) => state.upload.replace;
