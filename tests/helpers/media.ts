/** Media fixtures made at test time: real PNG/JPEG images (sharp) and WAV audio. */
import sharp from 'sharp';
import { encodeWav } from '../../server/modules/media/wav';

export async function png(width = 320, height = 200, color = { r: 200, g: 60, b: 40 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();
}

/** A JPEG carrying EXIF (camera owner, GPS position) and an orientation that rotates it 90°. */
export async function jpegWithExif(width = 400, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 220 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Copyright: 'Secret Owner' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1' } })
    .toBuffer();
}

/** A mono 16-bit PCM WAV of `seconds` of a 440 Hz tone that fades in (so the waveform rises). */
export function wav(seconds = 1, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  return encodeWav((i) => Math.sin((2 * Math.PI * 440 * i) / sampleRate) * (i / samples) * 0.9, samples, sampleRate);
}
