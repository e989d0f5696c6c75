/**
 * What the embed URL asks for: `?userName={ownerUsername}&contentId={id}&options={mask}`,
 * the mask Header 1, Footer 2, Slideshow 4, Quintos 8 (default 7).
 */
export const EMBED_BITS = { header: 1, footer: 2, slideshow: 4, quintos: 8 } as const;
export const DEFAULT_MASK = 7;

export interface EmbedRequest {
  userName: string;
  contentId: string;
  mask: number;
}

const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** The request the page was opened with, or null when it names no piece. */
export function readEmbedRequest(search: string): EmbedRequest | null {
  const params = new URLSearchParams(search);
  const userName = params.get('userName')?.trim() ?? '';
  const contentId = params.get('contentId')?.trim() ?? '';
  const raw = params.get('options');
  const mask = raw !== null && /^\d{1,2}$/.test(raw) ? Number(raw) & 15 : DEFAULT_MASK;
  if (!userName || !OBJECT_ID.test(contentId)) return null;
  return { userName, contentId, mask };
}

export const has = (mask: number, bit: number) => (mask & bit) !== 0;

/** Quintos: how many of the artist's songs the queue holds. */
export const QUEUE_LENGTH = 5;

/**
 * The queue of Quintos: the `QUEUE_LENGTH` songs that follow `currentId` in the artist's songs, newest first, wrapping
 * round to the newest (those after it, then those before it); the newest ones when it is not among them.
 */
export function nextFive<T extends { id: string }>(songs: readonly T[], currentId: string): T[] {
  const at = songs.findIndex((song) => song.id === currentId);
  const after = at < 0 ? songs : [...songs.slice(at + 1), ...songs.slice(0, at)];
  return after.filter((song) => song.id !== currentId).slice(0, QUEUE_LENGTH);
}

/** m:ss */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
