/**
 * Every image is re-encoded with sharp: rotation from EXIF applied, then all metadata (EXIF, GPS, ICC
 * extras) dropped; decoding stops past a pixel limit (decompression bombs). The original is kept in its
 * format, and four WebP sizes are made.
 */
import sharp from 'sharp';

/** 50 megapixels: larger than any real photo, far below what would exhaust memory. */
export const MAX_INPUT_PIXELS = 50_000_000;

export const THUMB_SIZES = {
  thumb: { width: 240, height: 240, fit: 'cover' },
  mthumb: { width: 640, height: 640, fit: 'inside' },
  hthumb: { width: 1280, height: 1280, fit: 'inside' },
  wthumb: { width: 1119, height: 305, fit: 'cover' },
} as const;
export type ThumbName = keyof typeof THUMB_SIZES;

export interface ProcessedImage {
  original: Buffer;
  width: number;
  height: number;
  thumbs: Record<ThumbName, Buffer>;
}

/**
 * The original and the four sizes are clones of one pipeline on the upload, run at once: each size comes from
 * the upload itself (not from the re-encoded original), and a JPEG is decoded at a reduced scale for the smaller ones.
 */
export async function processImage(path: string, format: 'png' | 'jpg'): Promise<ProcessedImage> {
  const base = sharp(path, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
  const names = Object.keys(THUMB_SIZES) as ThumbName[];
  const encoded = format === 'png' ? base.clone().png({ compressionLevel: 9 }) : base.clone().jpeg({ quality: 88, mozjpeg: true });
  const [{ data: original, info }, ...thumbs] = await Promise.all([
    encoded.toBuffer({ resolveWithObject: true }),
    ...names.map((name) => {
      const size = THUMB_SIZES[name];
      return base
        .clone()
        .resize({ width: size.width, height: size.height, fit: size.fit, withoutEnlargement: size.fit === 'inside' })
        .webp({ quality: 80 })
        .toBuffer();
    }),
  ]);
  const byName = Object.fromEntries(names.map((name, i) => [name, thumbs[i]!])) as Record<ThumbName, Buffer>;
  return { original, width: info.width, height: info.height, thumbs: byName };
}
