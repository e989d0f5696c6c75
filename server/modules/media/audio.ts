/**
 * What we learn from a song once, at upload, by decoding it with ffmpeg (mono 8 kHz PCM, streamed): its true
 * duration, from the samples decoded, and its waveform, the loudest sample of each of PEAK_COUNT slices, stored
 * as a small JSON so the player draws it without downloading the song. The duration a file's header claims is
 * never used: anyone can write it, and half of the duration is how long a play must last to earn a knack.
 *
 * An uploaded file is hostile until decoded, so ffmpeg runs on a short leash: its demuxer is the one of the
 * type sniffed from the file's bytes (no probing its way into another format, a playlist or other files), it
 * is killed after `timeoutMs`, and stopped once it has given `maxSeconds` of audio (a small file can decode
 * to hours of it).
 */
import { spawn, spawnSync } from 'node:child_process';

export const PEAK_COUNT = 1000;
const SAMPLE_RATE = 8000;
/** Mono 16-bit samples. */
const BYTES_PER_SECOND = SAMPLE_RATE * 2;

export interface DecodeLimits {
  /** The longest song accepted, in seconds of audio. */
  maxSeconds: number;
  /** How long ffmpeg may take on one file. */
  timeoutMs: number;
}

/** Room for the longest album or DJ set; the time is many times what decoding a 100 MB file takes. */
export const DECODE_LIMITS: DecodeLimits = { maxSeconds: 4 * 3600, timeoutMs: 120_000 };

/** ffmpeg's demuxer for each type sniff.ts accepts as audio (by the extension it names). */
const DEMUXERS: Record<string, string> = { mp3: 'mp3', wav: 'wav', ogg: 'ogg', oga: 'ogg', opus: 'ogg', flac: 'flac', m4a: 'mov', aac: 'aac' };

/** Why a file was not decoded: not audio of its type, more audio than we accept, or too slow to decode. */
export type DecodeFailure = 'unreadable' | 'too-long' | 'too-slow';

export class AudioDecodeError extends Error {
  constructor(
    readonly reason: DecodeFailure,
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'AudioDecodeError';
  }
}

let ffmpegPath: string | undefined;
/** ffmpeg from PATH, else the one shipped by @ffmpeg-installer/ffmpeg. */
export function ffmpegBinary(): string {
  if (ffmpegPath) return ffmpegPath;
  const onPath = spawnSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).stdout.trim();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when ffmpeg is not on the PATH
  ffmpegPath = onPath || (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  return ffmpegPath;
}

/** Samples per window: 10 ms at 8 kHz. Windows are merged into PEAK_COUNT peaks at the end. */
const WINDOW = 80;

/**
 * Decodes the audio file at `path`, of the sniffed type `ext`: its waveform (PEAK_COUNT peaks in 0..1, two
 * decimals) and the seconds of audio in it. Fails with an AudioDecodeError saying why.
 */
export function decodeAudio(path: string, ext: string, limits: DecodeLimits = DECODE_LIMITS): Promise<{ peaks: number[]; seconds: number }> {
  const demuxer = DEMUXERS[ext];
  if (!demuxer) return Promise.reject(new AudioDecodeError('unreadable', `no demuxer for .${ext}`));
  return new Promise((resolve, reject) => {
    const args = ['-nostdin', '-v', 'error', '-protocol_whitelist', 'file', '-f', demuxer, '-i', `file:${path}`];
    const child = spawn(ffmpegBinary(), [...args, '-vn', '-sn', '-dn', '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', 'pipe:1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let done = false;
    const fail = (reason: DecodeFailure, detail: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new AudioDecodeError(reason, detail));
    };
    const timer = setTimeout(() => fail('too-slow', `ffmpeg ran for more than ${limits.timeoutMs} ms`), limits.timeoutMs);
    const maxBytes = limits.maxSeconds * BYTES_PER_SECOND;

    const windows: number[] = [];
    let current = 0;
    let inWindow = 0;
    let bytes = 0;
    let carry: Buffer | undefined;
    let errors = '';
    child.stderr.on('data', (d: Buffer) => {
      errors = (errors + d.toString()).slice(-2000);
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (done) return;
      bytes += chunk.length;
      if (bytes > maxBytes) return fail('too-long', `more than ${limits.maxSeconds} s of audio`);
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
      carry = usable < data.length ? data.subarray(usable) : undefined;
    });
    child.on('error', (err) => fail('unreadable', err.message));
    child.on('close', (code) => {
      if (done) return;
      if (code !== 0) return fail('unreadable', `ffmpeg failed (${code}): ${errors.trim().slice(-500)}`);
      if (inWindow > 0) windows.push(current);
      if (!windows.length) return fail('unreadable', 'no audio samples decoded');
      done = true;
      clearTimeout(timer);
      const perPeak = Math.max(1, Math.ceil(windows.length / PEAK_COUNT));
      const peaks: number[] = [];
      for (let i = 0; i < windows.length; i += perPeak) peaks.push(Math.max(...windows.slice(i, i + perPeak)));
      const loudest = Math.max(1, ...peaks);
      resolve({ peaks: peaks.map((p) => Math.round((p / loudest) * 100) / 100), seconds: Math.floor(bytes / 2) / SAMPLE_RATE });
    });
  });
}
