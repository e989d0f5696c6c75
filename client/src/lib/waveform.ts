/** The stored waveform of a song (a JSON array of peaks in 0..1) and how it is drawn. */

/** Reads the peaks file; anything that is not a list of numbers is an error. */
export async function fetchPeaks(url: string, signal?: AbortSignal): Promise<number[]> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`The waveform could not be loaded (${response.status}).`);
  const body: unknown = await response.json();
  if (!Array.isArray(body) || !body.every((peak) => typeof peak === 'number' && Number.isFinite(peak))) {
    throw new Error('The waveform file is not a list of peaks.');
  }
  return body.map((peak: number) => Math.min(1, Math.max(0, peak)));
}

/** `count` bars from `peaks`: each bar the loudest peak of its slice. */
export function barsOf(peaks: readonly number[], count: number): number[] {
  if (!peaks.length || count <= 0) return [];
  const bars: number[] = [];
  for (let bar = 0; bar < count; bar += 1) {
    const from = Math.floor((bar * peaks.length) / count);
    const to = Math.max(from + 1, Math.floor(((bar + 1) * peaks.length) / count));
    bars.push(Math.max(...peaks.slice(from, to)));
  }
  return bars;
}

export interface WaveformStyle {
  played: string;
  rest: string;
  /** Bar and gap width in CSS px. */
  bar: number;
  gap: number;
}

/**
 * Draws mirrored bars across a canvas of `width` × `height` CSS px (the context already scaled for the
 * device pixel ratio); bars left of `progress` (0..1) in the played colour.
 */
export function drawWaveform(
  context: CanvasRenderingContext2D,
  peaks: readonly number[],
  progress: number,
  width: number,
  height: number,
  style: WaveformStyle,
): void {
  context.clearRect(0, 0, width, height);
  const step = style.bar + style.gap;
  const bars = barsOf(peaks, Math.floor(width / step));
  const middle = height / 2;
  const playedUntil = progress * width;
  bars.forEach((peak, index) => {
    const x = index * step;
    const half = Math.max(1, (peak * height) / 2);
    context.fillStyle = x + style.bar / 2 <= playedUntil ? style.played : style.rest;
    context.fillRect(x, middle - half, style.bar, half * 2);
  });
}
