/** Media: uploads (sniffed, processed, stored), and serving stored files. */
export { createMediaService, STORAGE_DOWN_MESSAGE, uploadKeys, type MediaService, type ReceivedFile, type Visibility } from './media.service';
export { acceptOneFile, DEFAULT_UPLOAD_TEMP_DIR, storeTempFile, type UploadKind } from './upload.middleware';
export { uploadRouter } from './media.routes';
export { filesRouter } from './files.routes';
export { LeftFileModel, UploadModel, StoredFileModel, uploadReads, type UploadDoc } from './media.model';
export { mediaHousekeeping } from './media.jobs';
export { removeUploadsOf } from './media.erasure';
export { DECODE_LIMITS, type DecodeLimits } from './audio';
export { encodeWav } from './wav';
