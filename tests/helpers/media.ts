/** Media fixtures made at test time: real PNG/JPEG images (sharp), WAV audio and MP3 (ffmpeg). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ffmpegBinary } from '../../server/modules/media/testing';
import { encodeWav } from '../../server/modules/media';

export async function png(width = 320, height = 200, color = { r: 200, g: 60, b: 40 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
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

/** The WAV `input` encoded by ffmpeg with `args` into a file named `name` (a file, not a pipe: some muxers go back to its start). */
function encode(input: Buffer, args: string[], name: string): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'knack-encode-'));
  try {
    const out = path.join(dir, name);
    const encoded = spawnSync(ffmpegBinary(), ['-v', 'error', '-f', 'wav', '-i', 'pipe:0', ...args, out], { input });
    if (encoded.status !== 0) throw new Error(`ffmpeg could not make ${name}: ${encoded.stderr.toString()}`);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An MP3 of `seconds` of the same tone (LAME), with the Xing/Info header LAME writes last (it gives a frame count). */
export function mp3(seconds = 1): Buffer {
  return encode(wav(seconds), ['-c:a', 'libmp3lame', '-b:a', '32k'], 'song.mp3');
}

/**
 * A file whose first bytes are an MP3 frame header, so it is sniffed as MP3, followed by `seconds` of the tone
 * in ffmpeg's NUT container: ffmpeg left to guess the format finds the NUT stream and decodes it.
 */
export function mp3LookingNut(seconds = 1): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x00]), encode(wav(seconds), ['-c:a', 'pcm_s16le', '-f', 'nut'], 'song.nut')]);
}

/**
 * The MP3 with its Xing/Info header claiming `frames` frames: a reader that trusts the header takes it for a
 * song of that many frames (of 576 samples at 8 kHz), while the audio in it stays as long as it was.
 */
export function claimingFrames(file: Buffer, frames: number): Buffer {
  const lying = Buffer.from(file);
  const tag = Math.max(lying.indexOf('Xing'), lying.indexOf('Info'));
  if (tag < 0) throw new Error('no Xing/Info header in this MP3');
  if (!(lying.readUInt32BE(tag + 4) & 1)) throw new Error('this Xing/Info header has no frame count');
  lying.writeUInt32BE(frames, tag + 8);
  return lying;
}
