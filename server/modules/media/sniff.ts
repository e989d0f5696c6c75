/** Accepts a file by its first bytes (magic numbers), never by its name or the declared type. */
import FileType from 'file-type';

export const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg' };
export const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
};

export interface Sniffed {
  ext: string;
  mime: string;
}

/** The file's real type when it is one of `allowed` (by extension key), else undefined. */
export async function sniffFile(path: string, allowed: Record<string, string>): Promise<Sniffed | undefined> {
  const found = await FileType.fromFile(path);
  if (!found) return undefined;
  const mime = allowed[found.ext];
  return mime ? { ext: found.ext, mime } : undefined;
}
