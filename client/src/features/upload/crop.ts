/**
 * Crop geometry for the profile photo (square) and header image (1119:305) cropper, in the image's own
 * pixels. A crop keeps its aspect ratio exactly through every move and resize and never leaves the image.
 */

export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

/** The header crop's aspect ratio, 1119:305. */
export const HEADER_ASPECT = { width: 1119, height: 305 } as const;
export const HEADER_RATIO = HEADER_ASPECT.width / HEADER_ASPECT.height;
export const SQUARE_RATIO = 1;

export type Corner = 'nw' | 'ne' | 'sw' | 'se';

/** The smallest crop, as a share of the largest one that fits (so a crop never shrinks to nothing). */
const MIN_SHARE = 0.1;

/** The largest crop of `ratio` (width / height) that fits in the image, centred. */
export function fitCrop(image: Size, ratio: number): CropRect {
  let width = image.width;
  let height = width / ratio;
  if (height > image.height) {
    height = image.height;
    width = height * ratio;
  }
  return { x: (image.width - width) / 2, y: (image.height - height) / 2, width, height };
}

function minWidth(image: Size, ratio: number): number {
  return Math.max(1, fitCrop(image, ratio).width * MIN_SHARE);
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), Math.max(low, high));

/** The crop moved by (dx, dy), stopped at the image's edges. */
export function moveCrop(rect: CropRect, dx: number, dy: number, image: Size): CropRect {
  return {
    ...rect,
    x: clamp(rect.x + dx, 0, image.width - rect.width),
    y: clamp(rect.y + dy, 0, image.height - rect.height),
  };
}

/**
 * The crop resized by dragging `corner` by (dx, dy) from `start`: the opposite corner stays put, the ratio is
 * kept, and the crop stays inside the image and above the minimum size.
 */
export function resizeCrop(start: CropRect, corner: Corner, dx: number, dy: number, ratio: number, image: Size): CropRect {
  const west = corner === 'nw' || corner === 'sw';
  const north = corner === 'nw' || corner === 'ne';
  // The fixed corner.
  const anchorX = west ? start.x + start.width : start.x;
  const anchorY = north ? start.y + start.height : start.y;
  // The size the pointer asks for, read from whichever direction it moved further.
  const byX = start.width + (west ? -dx : dx);
  const byY = (start.height + (north ? -dy : dy)) * ratio;
  const wanted = Math.abs(byX - start.width) >= Math.abs(byY - start.width) ? byX : byY;
  // Room from the anchor to the image's edges, in the direction of the dragged corner.
  const roomX = west ? anchorX : image.width - anchorX;
  const roomY = (north ? anchorY : image.height - anchorY) * ratio;
  const width = clamp(wanted, minWidth(image, ratio), Math.min(roomX, roomY));
  const height = width / ratio;
  return { x: west ? anchorX - width : anchorX, y: north ? anchorY - height : anchorY, width, height };
}

/** The crop grown (factor > 1) or shrunk about its centre, kept inside the image. */
export function scaleCrop(rect: CropRect, factor: number, ratio: number, image: Size): CropRect {
  const largest = fitCrop(image, ratio).width;
  const width = clamp(rect.width * factor, minWidth(image, ratio), largest);
  const height = width / ratio;
  const cx = rect.x + rect.width / 2;
  const cy = rect.y + rect.height / 2;
  return {
    x: clamp(cx - width / 2, 0, image.width - width),
    y: clamp(cy - height / 2, 0, image.height - height),
    width,
    height,
  };
}

/**
 * The size of the picture made from a crop: the header is always exactly 1119×305 (or 2238×610 when the crop
 * has the pixels for it), so its ratio is exact; a square photo is at most `max` pixels wide.
 */
export function outputSize(rect: CropRect, ratio: number, max = 1024): Size {
  if (ratio === HEADER_RATIO) {
    const scale = rect.width >= HEADER_ASPECT.width * 2 ? 2 : 1;
    return { width: HEADER_ASPECT.width * scale, height: HEADER_ASPECT.height * scale };
  }
  const width = Math.max(1, Math.min(max, Math.round(rect.width)));
  return { width, height: Math.max(1, Math.round(width / ratio)) };
}

/** The crop drawn to a canvas of `size` and encoded (PNG stays PNG, anything else becomes JPEG). */
export function cropToBlob(image: CanvasImageSource, rect: CropRect, size: Size, sourceType: string): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('This browser cannot crop images.'));
  const type = sourceType === 'image/png' ? 'image/png' : 'image/jpeg';
  if (type === 'image/jpeg') {
    // JPEG has no transparency: a transparent pixel becomes white, not black.
    context.fillStyle = '#fff';
    context.fillRect(0, 0, size.width, size.height);
  }
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, rect.x, rect.y, rect.width, rect.height, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The crop could not be encoded.'))), type, 0.92);
  });
}

/** A file name for a crop: 'header.jpg', 'photo.png'. */
export function cropFileName(base: string, blob: Blob): string {
  return `${base}.${blob.type === 'image/png' ? 'png' : 'jpg'}`;
}
