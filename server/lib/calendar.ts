/** Calendar periods in UTC, as the jobs and their idempotency keys name them (`2026-W48`, `2026-11`). */

export const DAY_MS = 86_400_000;

/** The first instant of the UTC day of `at`. */
export const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/** The UTC day of `at`, as `2026-11-27`: how daily documents and keys name a day. */
/** The start of `at`'s month, UTC. */
export const startOfUtcMonth = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

export const utcDayOf = (at: Date) => at.toISOString().slice(0, 10);

/** `at` moved by whole days (negative: back). */
export const addDays = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);

/** The ISO 8601 week of `at` (UTC), as `2026-W48`. */
export function isoWeekOf(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  // The week's Thursday decides its year (a week belongs to the year that holds most of its days).
  day.setUTCDate(day.getUTCDate() + 4 - (day.getUTCDay() || 7));
  const week = Math.ceil(((day.getTime() - Date.UTC(day.getUTCFullYear(), 0, 1)) / DAY_MS + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** The last whole ISO week before `now` (Monday 00:00 to the next Monday 00:00, UTC), and its name. */
export function weekBefore(now: Date): { week: string; from: Date; to: Date } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const daysSinceMonday = (now.getUTCDay() + 6) % 7;
  const to = new Date(today - daysSinceMonday * DAY_MS);
  const from = new Date(to.getTime() - 7 * DAY_MS);
  return { week: isoWeekOf(from), from, to };
}

/** The calendar month before the one of `now` (UTC): its first instant, the next month's first, and `yyyy-mm`. */
export function monthBefore(now: Date): { month: string; from: Date; to: Date } {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { month: from.toISOString().slice(0, 7), from, to };
}

/** `2026-11` as the mails write it: `November 2026`. */
export const monthName = (month: string) => new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
