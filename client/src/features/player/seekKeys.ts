import { formatDuration } from '../../components/format';

/** How far one arrow key moves a song's position; Page Up and Page Down move six times as far. */
export const SEEK_STEP_SECONDS = 5;
const SEEK_PAGE_SECONDS = 30;

const clamp = (seconds: number, duration: number) => Math.min(duration, Math.max(0, seconds));

/**
 * Where a key sends a song's position, as on any slider (the WAI-ARIA slider pattern): the arrows by 5 s, Page Up
 * and Page Down by 30 s, Home to the start and End to the end; null for any other key. A native range input would
 * move by its step, a tenth of a second, which no one can hear.
 */
export function positionAfterKey(key: string, position: number, duration: number): number | null {
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(position + SEEK_STEP_SECONDS, duration);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(position - SEEK_STEP_SECONDS, duration);
    case 'PageUp':
      return clamp(position + SEEK_PAGE_SECONDS, duration);
    case 'PageDown':
      return clamp(position - SEEK_PAGE_SECONDS, duration);
    case 'Home':
      return 0;
    case 'End':
      return duration;
    default:
      return null;
  }
}

/** A song's position as a screen reader says it: "0:03 of 3:20". */
export function positionText(position: number, duration: number): string {
  return `${formatDuration(position)} of ${formatDuration(duration)}`;
}
