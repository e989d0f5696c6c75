/**
 * Audio facts computed once at upload: the duration (music-metadata) and the waveform peaks (ffmpeg
 * decodes to mono 8 kHz PCM, streamed; we keep the loudest sample of each of PEAK_COUNT slices), stored
 * as a small JSON so the player draws the waveform without downloading the song.
 */
import { spawn, spawnSync } from 'node:child_process';
import { parseFile } from 'music-metadata';

export const PEAK_COUNT = 1000;
const SAMPLE_RATE = 8000;

let ffmpegPath: string | undefined;
/** ffmpeg from PATH, else the one shipped by @ffmpeg-installer/ffmpeg. */
export function ffmpegBinary(): string {
  if (ffmpegPath) return ffmpegPath;
  const onPath = spawnSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).stdout.trim();
  ffmpegPath = onPath || (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  return ffmpegPath;
}

export async function audioDuration(path: string): Promise<number | undefined> {
  try {
    const meta = await parseFile(path, { duration: true, skipCovers: true });
    return meta.format.duration ? Math.round(meta.format.duration * 1000) / 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples per window: 10 ms at 8 kHz. Windows are merged into PEAK_COUNT peaks at the end. */
const WINDOW = 80;

/** The waveform: PEAK_COUNT peaks in 0..1 (two decimals), and the duration the decoder saw. */
export function computePeaks(path: string): Promise<{ peaks: number[]; seconds: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegBinary(), ['-v', 'error', '-i', path, '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', '-'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const windows: number[] = [];
    let current = 0;
    let inWindow = 0;
    let samples = 0;
    let carry: Buffer | undefined;
    let errors = '';
    child.stderr.on('data', (d: Buffer) => {
      errors = (errors + d.toString()).slice(-2000);
    });
    child.stdout.on('data', (chunk: Buffer) => {
      const data = carry ? Buffer.concat([carry, chunk]) : chunk;
      const usable = data.length - (data.length % 2);
      for (let i = 0; i < usable; i += 2) {
        const sample = Math.abs(data.readInt16LE(i));
        if (sample > current) current = sample;
        if (++inWindow === WINDOW) {
          windows.push(current);
          current = 0;
          inWindow = 0;
        }
      }
      samples += usable / 2;
      carry = usable < data.length ? data.subarray(usable) : undefined;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg failed (${code}): ${errors.trim().slice(-500)}`));
      if (inWindow > 0) windows.push(current);
      if (!windows.length) return reject(new Error('no audio samples decoded'));
      const perPeak = Math.max(1, Math.ceil(windows.length / PEAK_COUNT));
      const peaks: number[] = [];
      for (let i = 0; i < windows.length; i += perPeak) peaks.push(Math.max(...windows.slice(i, i + perPeak)));
      const loudest = Math.max(1, ...peaks);
      resolve({ peaks: peaks.map((p) => Math.round((p / loudest) * 100) / 100), seconds: samples / SAMPLE_RATE });
    });
  });
}
