/** What the discount codes page knows of codes: the tiers a code covers, the code's form rules, and dates. */
import type { Rule } from 'antd/es/form';
import { builtOnFirstUse } from '../../components/format';
import type { components } from '../../../../generated/openapi';

export type Cover = components['schemas']['DiscountCover'];
export type DiscountCodeSummary = components['schemas']['DiscountCodeSummary'];

/** The listing-fee tiers, with the fee each code use pays. */
export const COVER_LABELS: Record<Cover, string> = {
  standard: 'Standard ($0.65)',
  premium: 'Premium ($12.40)',
  both: 'Both',
};

/** The code as the server takes it: 3 to 32 letters, digits, '-' or '_' (stored upper-cased). */
export const DISCOUNT_CODE_RULES: Rule[] = [
  { required: true, whitespace: true, message: 'Discount code should not be empty' },
  { pattern: /^[A-Za-z0-9_-]{3,32}$/, message: 'Use 3 to 32 letters, digits, - or _.' },
];

/** The last moment of a `yyyy-mm-dd` day in the admin's time zone: a code works through its last day. */
export function endOfDay(day: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date, 23, 59, 59, 999);
}

const dateFormat = builtOnFirstUse(() => new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' }));
const dateTimeFormat = builtOnFirstUse(
  () => new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }),
);

export const formatDay = (at: string) => dateFormat().format(new Date(at));
export const formatMoment = (at: string) => dateTimeFormat().format(new Date(at));
