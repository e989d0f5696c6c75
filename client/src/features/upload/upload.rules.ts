/**
 * The upload rules with their exact messages (x-validation in openapi.yaml, generated):
 * which fields each content form has, the weights of its completion bar, the music-only rule of userType 50
 * and the file checks the client makes before sending (the server checks every file again, by its bytes).
 */
import { LIMITS, MESSAGES, PATTERNS } from '../../../../generated/validation';
import type { FileSlot, UploadFormKind, UploadValues } from './upload.types';

export const UPLOAD_MESSAGES = {
  titleRequired: MESSAGES.titleRequired,
  descriptionRequired: MESSAGES.descriptionRequired,
  tagsRequired: MESSAGES.tagsRequired,
  photoRequired: MESSAGES.photoRequired,
  audioRequired: MESSAGES.audioRequired,
  emailMustBeValid: MESSAGES.emailMustBeValid,
  selectPhoto: MESSAGES.selectPhoto,
  uploadImageFirst: MESSAGES.uploadImageFirst,
  waitForImage: MESSAGES.waitForImage,
  audioTooLarge: MESSAGES.audioTooLarge,
  imageTooLarge: MESSAGES.imageTooLarge,
  imageType: MESSAGES.imageType,
  audioType: MESSAGES.audioType,
  musicOnly: MESSAGES.musicOnly,
  success: MESSAGES.contentSaved,
} as const;

export const { audioMaxBytes: AUDIO_MAX_BYTES, imageMaxBytes: IMAGE_MAX_BYTES } = LIMITS;

/** The main tags, in the order the form offers them. */
export const MAIN_TAGS = ['Music', 'Art', 'Photos'] as const;
export type MainTagName = (typeof MAIN_TAGS)[number];

/** Members of this userType may upload Music only. */
export const MUSIC_ONLY_USER_TYPE = 50;

/** The parts of a form the completion bar counts. */
export type CompletionPart = 'title' | 'description' | 'photo' | 'audio' | 'tag' | 'email';

export interface FormSpec {
  /** The completion bar's weights (they add up to 100). */
  weights: Partial<Record<CompletionPart, number>>;
  /** Only Music can be chosen (the Top 50 chart and artist pages are for songs). */
  musicOnly: boolean;
  /** Top 50: the email to confirm, and a second step that confirms it. */
  email: boolean;
  steps: 1 | 2;
}

export const FORM_SPECS: Record<UploadFormKind, FormSpec> = {
  content: { weights: { title: 30, description: 20, photo: 30, tag: 20 }, musicOnly: false, email: false, steps: 1 },
  top50: { weights: { title: 20, email: 20, description: 20, photo: 20, tag: 20 }, musicOnly: true, email: true, steps: 2 },
  artist: { weights: { title: 20, tag: 20, description: 20, audio: 20, photo: 20 }, musicOnly: true, email: false, steps: 1 },
};

/** What the completion bar looks at. */
export interface CompletionFacts {
  values: Partial<UploadValues>;
  hasPhoto: boolean;
  hasAudio: boolean;
}

export const isBlank = (value: string | undefined | null) => !value || !value.trim();

export function isValidEmail(value: string | undefined | null): boolean {
  return !isBlank(value) && PATTERNS.email.test(value!.trim());
}

/** Which parts of a form are filled in. A tag counts once both the main tag and its sub-tag are chosen. */
export function completedParts({ values, hasPhoto, hasAudio }: CompletionFacts): Record<CompletionPart, boolean> {
  return {
    title: !isBlank(values.title),
    description: !isBlank(values.description),
    photo: hasPhoto,
    audio: hasAudio,
    tag: !isBlank(values.mainTag) && !isBlank(values.subTag),
    email: isValidEmail(values.email),
  };
}

/** The completion bar's percentage: the weights of the parts filled in. */
export function completion(kind: UploadFormKind, facts: CompletionFacts): number {
  const done = completedParts(facts);
  const weights = FORM_SPECS[kind].weights;
  return (Object.keys(weights) as CompletionPart[]).reduce((sum, part) => sum + (done[part] ? (weights[part] ?? 0) : 0), 0);
}

const MUSIC_ONLY: readonly MainTagName[] = ['Music'];

/** The main tags a member may choose on a form: Music only on the Top 50 and artist forms, and for userType 50. */
export function allowedMainTags(kind: UploadFormKind, userType: number | undefined): readonly MainTagName[] {
  return FORM_SPECS[kind].musicOnly || userType === MUSIC_ONLY_USER_TYPE ? MUSIC_ONLY : MAIN_TAGS;
}

// Files

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/jpg', 'image/pjpeg'];
const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg'];
const AUDIO_EXTENSIONS = ['mp3', 'wav', 'ogg', 'oga', 'flac', 'm4a', 'aac', 'mp4'];

/** What the file pickers accept (a hint to the browser; the checks below and the server decide). */
export const ACCEPT = {
  image: 'image/png,image/jpeg,.png,.jpg,.jpeg',
  audio: 'audio/*,.mp3,.wav,.ogg,.flac,.m4a,.aac',
} as const;

export type FileKind = 'image' | 'audio';

export const slotKind = (slot: FileSlot): FileKind => (slot === 'photo' ? 'image' : 'audio');

const extensionOf = (name: string) => name.toLowerCase().split('.').pop() ?? '';

/**
 * The client's check before sending: size, then the type the browser reports (or the name when it
 * reports none). The server reads the bytes and may still refuse (a page named .png): its answer is shown.
 */
export function fileProblem(kind: FileKind, file: { name: string; size: number; type: string }): string | null {
  const type = file.type.toLowerCase();
  if (kind === 'image') {
    const known = type ? IMAGE_TYPES.includes(type) : IMAGE_EXTENSIONS.includes(extensionOf(file.name));
    if (!known) return UPLOAD_MESSAGES.imageType;
    if (file.size > IMAGE_MAX_BYTES) return UPLOAD_MESSAGES.imageTooLarge;
    return null;
  }
  const known = type
    ? type.startsWith('audio/') || (type === 'video/mp4' && extensionOf(file.name) === 'm4a')
    : AUDIO_EXTENSIONS.includes(extensionOf(file.name));
  if (!known) return UPLOAD_MESSAGES.audioType;
  if (file.size > AUDIO_MAX_BYTES) return UPLOAD_MESSAGES.audioTooLarge;
  return null;
}

// Display

/** '812 KB', '3.4 MB', '101 MB'. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${Math.round(kb)} KB`;
  const mb = kb / 1024;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

/** '3:07', '1:02:05'. */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '';
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * The knack price a sub-tag shows on a form: the tag's own, except Music 2, shown as 0.96 per play
 * in the Top 50 and artist modals.
 */
export function shownKnackPrice(kind: UploadFormKind, tag: { label: string; knackPrice: number }): number {
  return kind !== 'content' && tag.label === 'Music 2' ? 0.96 : tag.knackPrice;
}
