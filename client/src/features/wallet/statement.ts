/**
 * The periods a statement can be asked for, in UTC as the server counts them: this month and last month (a
 * `month`), this year so far and a custom range of days (`from` and `to`, both included). And the file's name, the
 * one the server gives it.
 */
export type StatementPeriod = 'this-month' | 'last-month' | 'this-year' | 'custom';
export type StatementFormat = 'csv' | 'json';

export const PERIOD_LABELS: Record<StatementPeriod, string> = {
  'this-month': 'This month',
  'last-month': 'Last month',
  'this-year': 'This year',
  custom: 'Custom range',
};

export const FORMAT_TYPES: Record<StatementFormat, string> = { csv: 'text/csv;charset=utf-8', json: 'application/json' };

/** A UTC day as `yyyy-mm-dd`. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

export interface StatementChoice {
  period: StatementPeriod;
  format: StatementFormat;
  /** The custom range's days, `yyyy-mm-dd`. */
  from?: string;
  to?: string;
}

export interface StatementRequest {
  query: { format: StatementFormat; month?: string; from?: string; to?: string };
  filename: string;
}

/** The query of a choice made at `now`, and the file's name (`knack-statement-2026-11.csv`, `…-2026-01-01-to-2026-11-28.json`). */
export function statementRequest({ period, format, from, to }: StatementChoice, now: Date): StatementRequest {
  const month = (monthsBack: number) => utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1))).slice(0, 7);
  const days = (first: string, last: string): StatementRequest => ({
    query: { format, from: first, to: last },
    filename: `knack-statement-${first}-to-${last}.${format}`,
  });
  if (period === 'this-month' || period === 'last-month') {
    const name = month(period === 'this-month' ? 0 : 1);
    return { query: { format, month: name }, filename: `knack-statement-${name}.${format}` };
  }
  if (period === 'this-year') return days(`${now.getUTCFullYear()}-01-01`, utcDay(now));
  return days(from ?? '', to ?? '');
}
