import type { components } from '../../../../generated/openapi';

type Schemas = components['schemas'];

/** What an upload call answers: the stored `path` (for the save calls) and the stored file's facts. */
export type UploadAnswer = Schemas['UploadResponse'];

/** The three content forms: upload content (classic), upload music (Top 50), upload-{name} (artist page). */
export type UploadFormKind = 'content' | 'top50' | 'artist';

/** The two files of a content form: the cover photo (or the image itself) and the song. */
export type FileSlot = 'photo' | 'audio';

/** A transfer's status: idle → uploading → done | failed. */
export type UploadStatus = 'idle' | 'uploading' | 'done' | 'failed';

/** A file the server stored, as the forms show it. */
export interface StoredFile {
  path: string;
  name: string;
  size: number;
  mimeType: string;
  /** Where the stored file is served. */
  url: string;
  /** A small picture of it (the medium thumbnail of an image). */
  previewUrl: string;
  width?: number;
  height?: number;
  /** Seconds (audio). */
  duration?: number;
  /** The server is still reading the song (duration and waveform come later). */
  processing: boolean;
}

/** The file being sent, before the answer. */
export interface PendingFile {
  name: string;
  size: number;
  type: string;
}

/** One file field: what is stored, what is being sent and how far. */
export interface SlotState {
  status: UploadStatus;
  /** Bytes sent, 0 to 1. */
  progress: number;
  pending: PendingFile | null;
  file: StoredFile | null;
  error: string | null;
}

/** A published piece's file a member may replace: a song's audio, or the picture (a song's cover, the image of art and photos). */
export type PieceFileKind = 'audio' | 'image';

/** The transfer of a new file for a published piece: which piece and file, and how far (one at a time). */
export interface ReplaceState extends SlotState {
  contentId: string | null;
  kind: PieceFileKind | null;
}

/** The text fields of a content form (the files live in the store). */
export interface UploadValues {
  title: string;
  description: string;
  /** Music, Art or Photos. */
  mainTag?: string;
  /** A sub-tag label of the main tag. */
  subTag?: string;
  /** Top 50 only. */
  email?: string;
}

/** An error the server named a field for. */
export interface FieldError {
  path: string;
  message: string;
}
