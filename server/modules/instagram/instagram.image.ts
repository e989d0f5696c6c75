/**
 * The picture Instagram is given for a piece: a JPEG (the only image format its API takes), 1080 pixels wide at
 * most, and within the shapes a feed post may have (from 4:5 tall to 1.91:1 wide). A picture outside them is not
 * cropped, which could cut the artist's work, but set on a dark band, as a framed print would be.
 */
import sharp from 'sharp';

/** The tallest and the widest a feed post may be, as width / height. */
export const INSTAGRAM_RATIOS = { tallest: 4 / 5, widest: 1.91 } as const;
const MAX_SIDE = { width: 1080, height: 1350 };
const BAND = { r: 20, g: 18, b: 31, alpha: 1 };

export async function instagramJpeg(original: Buffer): Promise<Buffer> {
  const fitted = await sharp(original)
    .rotate()
    .resize({ ...MAX_SIDE, fit: 'inside' })
    .toBuffer({ resolveWithObject: true });
  const { width, height } = fitted.info;
  const ratio = width / height;
  const padX = ratio < INSTAGRAM_RATIOS.tallest ? Math.ceil(height * INSTAGRAM_RATIOS.tallest) - width : 0;
  const padY = ratio > INSTAGRAM_RATIOS.widest ? Math.ceil(width / INSTAGRAM_RATIOS.widest) - height : 0;
  return sharp(fitted.data)
    .extend({
      left: Math.floor(padX / 2),
      right: padX - Math.floor(padX / 2),
      top: Math.floor(padY / 2),
      bottom: padY - Math.floor(padY / 2),
      background: BAND,
    })
    .flatten({ background: BAND })
    .jpeg({ quality: 90, mozjpeg: true })
    .toBuffer();
}
