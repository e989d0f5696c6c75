import mongoose from 'mongoose';

/**
 * `{ $in: values }` marked as ours: the global sanitizeFilter turns operators that are not marked
 * trusted into plain values (so that none can come in through a request).
 */
export const anyOf = <T>(values: T[]) => mongoose.trusted({ $in: values });

const isOperatorObject = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).some((key) => key.startsWith('$'));

/**
 * Marks every operator of a filter our code built as ours (see anyOf), through `$and` / `$or`. Only for
 * filters whose values come from validated strings, numbers and ids, never from request objects.
 */
export function ours<T extends Record<string, unknown>>(filter: T): T {
  for (const [key, value] of Object.entries(filter)) {
    if ((key === '$and' || key === '$or') && Array.isArray(value)) value.forEach((part) => ours(part as Record<string, unknown>));
    else if (isOperatorObject(value)) mongoose.trusted(value);
  }
  return filter;
}
