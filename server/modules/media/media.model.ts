import { readerOf } from '../../lib/query';
import { Schema, model, type InferSchemaType, type Types } from 'mongoose';

/**
 * One uploaded file and what was made from it. `key` (the main stored file) is the `path` the upload
 * calls answer and the save calls take.
 */
const uploadSchema = new Schema(
  {
    key: { type: String, required: true, unique: true },
    ownerId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    kind: { type: String, enum: ['image', 'audio'], required: true },
    /** What the upload is for: a piece's file, a profile photo or a profile header. */
    purpose: { type: String, enum: ['content', 'avatar', 'header'], required: true },
    status: { type: String, enum: ['ready', 'processing', 'failed'], required: true },
    originalName: { type: String, default: '' },
    size: { type: Number, required: true },
    mimeType: { type: String, required: true },
    width: { type: Number },
    height: { type: Number },
    duration: { type: Number },
    thumbKeys: {
      type: new Schema({ thumb: String, mthumb: String, hthumb: String, wthumb: String }, { _id: false }),
      default: undefined,
    },
    waveformKey: { type: String },
    /** The piece or profile that uses it (an upload is used once). */
    usedBy: { type: String, default: null },
  },
  { timestamps: true },
);
uploadSchema.index({ ownerId: 1, createdAt: -1 });
export type UploadDoc = InferSchemaType<typeof uploadSchema> & { _id: Types.ObjectId; createdAt: Date };
export const UploadModel = model('Upload', uploadSchema, 'uploads');

/**
 * Who uses an upload: inserted under `_id: upload:{uploadId}` by the first piece, profile or housekeeping run
 * that takes it. An insert on a unique `_id` is the one step that only one of two concurrent callers wins, on
 * MongoDB and on FerretDB alike (whose guarded updates are not exclusive); the upload's `usedBy` is then copied
 * from the winner.
 */
const uploadClaimSchema = new Schema(
  {
    _id: { type: String, required: true },
    usedBy: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
export const UploadClaimModel = model('UploadClaim', uploadClaimSchema, 'upload_claims');
export const uploadClaimId = (uploadId: Types.ObjectId | string) => `upload:${String(uploadId)}`;

/**
 * Every stored object, by its key: who may read it. `public` files are served to anyone; `owner` and
 * `restricted` ones only through a signed URL given to a viewer who may see them.
 */
const storedFileSchema = new Schema({
  _id: { type: String, required: true },
  uploadId: { type: Schema.Types.ObjectId, ref: 'Upload', required: true },
  contentType: { type: String, required: true },
  visibility: { type: String, enum: ['public', 'owner', 'restricted'], required: true },
});
storedFileSchema.index({ uploadId: 1 });
export type StoredFileDoc = InferSchemaType<typeof storedFileSchema>;
export const StoredFileModel = model('StoredFile', storedFileSchema, 'stored_files');

/** Uploads as other modules may read them (they never write them). */
export const uploadReads = readerOf<UploadDoc>(UploadModel);

/**
 * Stored objects left behind: an upload failed half-way (one file stored, another refused by the storage) and the
 * storage then refused to remove what it had taken too. Each is listed here by its key, and the housekeeping job
 * removes it from the storage, then the listing. Nothing else refers to these keys: the upload answered an error.
 */
const leftFileSchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
export const LeftFileModel = model('LeftFile', leftFileSchema, 'storage_left_files');
