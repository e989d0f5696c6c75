/** Number formats shared by every feature. */

/**
 * `build()` run on the first call only, its result kept. For Intl formatters at module level: building one loads
 * locale data, which costs a slow phone tens of milliseconds while the page's scripts are evaluated, before the
 * first paint, even on pages that never format a date.
 */
export function builtOnFirstUse<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/** 950, 1.2k, 12k, 3.4M: counts of plays, views, followers. */
export function compactCount(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(count / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** A track length in seconds as m:ss (or h:mm:ss). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const s = String(total % 60).padStart(2, '0');
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes}:${s}`;
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${s}`;
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];
const relative = builtOnFirstUse(() => new Intl.RelativeTimeFormat('en', { numeric: 'auto' }));

/** How long ago `iso` was, as people say it: 'just now', '3 minutes ago', 'yesterday', 'last week'. */
export function formatTimeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, (now - new Date(iso).getTime()) / 1000);
  for (const [unit, size] of RELATIVE_STEPS) if (seconds >= size) return relative().format(-Math.floor(seconds / size), unit);
  return 'just now';
}
