/**
 * The canonical encoding of a ledger entry: the exact text a day's Merkle tree holds as the entry's leaf (its UTF-8
 * bytes), so that anyone holding the entry can recompute its leaf, and any change to a stored field changes it.
 *
 * - every field stored on the entry, except `accounts` (the legs' accounts again, kept for indexed reads) and `seq`
 *   (where the ledger's journal holds it: bookkeeping of the ledger, not part of the movement, and set on older
 *   entries after they were written);
 * - JSON with no spaces, the keys of every object in code-point order, arrays (the legs) in their stored order;
 * - an ObjectId as its 24 lower-case hex digits, a date as ISO 8601 in UTC with milliseconds
 *   (`2026-11-26T09:30:00.000Z`), numbers as JSON writes them (amounts are whole micro-dollars or stroops),
 *   null as null; a field the document does not have is left out.
 *
 * Any other stored value (a binary, a decimal) is refused rather than written in some made-up form.
 */
import type { LedgerEntryDoc } from './ledger.model';

/** Stored, but not part of the movement: the legs' accounts again, and the entry's place in the journal. */
const DERIVED_FIELDS = new Set(['accounts', 'seq']);

const isObjectId = (value: object): value is { toHexString(): string } =>
  (value as { _bsontype?: unknown })._bsontype === 'ObjectId' && typeof (value as { toHexString?: unknown }).toHexString === 'function';

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function encode(value: unknown, path: string): string {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${path}: ${value} has no canonical form`);
    return JSON.stringify(value);
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((item, i) => encode(item, `${path}[${i}]`)).join(',')}]`;
  if (typeof value === 'object') {
    if (isObjectId(value)) return JSON.stringify(value.toHexString());
    if (Object.getPrototypeOf(value) !== Object.prototype) throw new TypeError(`${path}: a stored value of this type has no canonical form`);
    const fields = Object.entries(value as Record<string, unknown>).filter(([, field]) => field !== undefined);
    return `{${fields
      .sort(([a], [b]) => byCodePoint(a, b))
      .map(([key, field]) => `${JSON.stringify(key)}:${encode(field, `${path}.${key}`)}`)
      .join(',')}}`;
  }
  throw new TypeError(`${path}: a stored value of type ${typeof value} has no canonical form`);
}

/** An entry as stored (read lean, every field) in its canonical encoding. */
export function canonicalEntry(entry: LedgerEntryDoc | Record<string, unknown>): string {
  const fields = Object.fromEntries(Object.entries(entry).filter(([key]) => !DERIVED_FIELDS.has(key)));
  return encode(fields, String((entry as { _id?: unknown })._id));
}

/** The order of a day's leaves: by `_id`, compared as UTF-8 bytes (the ids are ASCII, so this is also plain text order). */
export const byEntryId = (a: { _id: string }, b: { _id: string }) => Buffer.compare(Buffer.from(a._id, 'utf8'), Buffer.from(b._id, 'utf8'));
