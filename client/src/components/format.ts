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

/**
 * Dollars as the screens show them: `decimals` places (2, or 4 for rates under a cent), cut rather than rounded, as the
 * server cuts what leaves a balance (a cash-out of $12.345 pays $12.34), so a figure never promises a cent that cannot
 * be paid. The API's USD numbers are read back to whole micro-dollars first, so that float noise (0.135 stored as
 * 0.13499…) does not decide the last place. A sign is shown only when something is left after the cut.
 */
export function formatUsd(usd: number, decimals: 2 | 4 = 2): string {
  const micros = Math.round(Math.abs(usd) * 1_000_000);
  const unit = 10 ** decimals;
  const shown = Math.floor(micros / (1_000_000 / unit));
  const sign = usd < 0 && shown > 0 ? '-' : '';
  return `${sign}$${Math.floor(shown / unit)}.${String(shown % unit).padStart(decimals, '0')}`;
}
