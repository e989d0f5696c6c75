import mongoose, { type Collection, type UpdateQuery } from 'mongoose';
import { isDuplicateKey } from './duplicate-key';
import { createSingleFlight } from './single-flight';

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

/*
 * Calls for hot paths (the session check of every request, the knack path) that go to the MongoDB driver itself,
 * past mongoose's query layer: its casting, middleware and document building cost about as much CPU in the API
 * process as the driver's own work on a lookup by `_id` (measured: 0.33 against 0.23 ms a call). For filters and
 * documents our own code builds from checked values; ids must already be of the stored type (an ObjectId, not
 * its hex string), as nothing casts them here.
 */

/** A model, as these calls use it: its collection. */
type Stored = { collection: Collection };

/** One document by `_id`, with only the fields asked. */
export const readById = <T>(model: Stored, id: unknown, projection?: Record<string, 1>) =>
  model.collection.findOne({ _id: id as never }, { projection }) as Promise<T | null>;

/**
 * Like readById, but a caller that asks for a document while the same read is already on its way to the database
 * takes that read's answer instead of sending its own. For the session check, where one member's requests often
 * arrive together (a page's calls, a retried tap): they cost one read, not one each. The answer is then as old
 * as the read in flight (a few milliseconds), which is why this is only for reads whose callers can take that:
 * never for one that must see a write completed just before it (a count, a claim). The answer is shared: a caller
 * must not change it.
 */
export function readByIdShared<T>(model: Stored, id: { toString(): string }, projection?: Record<string, 1>): Promise<T | null> {
  const key = `${model.collection.collectionName}|${id.toString()}|${projection ? Object.keys(projection).join(',') : ''}`;
  return readsInFlight.run(key, () => readById(model, id, projection)).result as Promise<T | null>;
}
const readsInFlight = createSingleFlight<unknown>();

/**
 * Documents by `_id`, in the order of `ids`, leaving out those missing: read `window` at a time in parallel, so a long
 * list costs round trips by the hundred and holds no more than a window of reads open at once.
 */
export async function readEachById<T>(model: Stored, ids: readonly unknown[], window = 100): Promise<T[]> {
  const found: T[] = [];
  for (let i = 0; i < ids.length; i += window) {
    const read = await Promise.all(ids.slice(i, i + window).map((id) => readById<T>(model, id)));
    for (const doc of read) if (doc) found.push(doc);
  }
  return found;
}

/** Inserts a complete document (every field and default written by the caller); a taken `_id` throws the duplicate-key error. */
export const insertWhole = async <T extends { _id: unknown }>(model: Stored, doc: T) => void (await model.collection.insertOne(doc as never));

/**
 * Sets fields of a kept hint (a document by `_id` that readers read first and then read on past), making it when
 * missing. Best-effort: two first writes at once make one insert and a duplicate-key error for the other, which is
 * dropped, as is any write that loses to a concurrent one: a hint behind costs the next reader a read or two more.
 */
export async function keepHint(model: Stored, id: unknown, fields: Record<string, unknown>): Promise<void> {
  try {
    await model.collection.updateOne({ _id: id as never }, { $set: fields }, { upsert: true });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}

/** Applies an update to the document with this `_id`. */
export const updateById = async (model: Stored, id: unknown, update: UpdateQuery<unknown>) =>
  void (await model.collection.updateOne({ _id: id as never }, update));

/** How `Reader.many` orders and cuts what it finds. */
export interface ReadOptions {
  projection?: Record<string, 0 | 1>;
  sort?: Record<string, 1 | -1>;
  limit?: number;
}

/**
 * What a module lets other modules do with a collection it owns: read it, never write it. Every answer is a plain
 * object (lean). Filters pass through mongoose's sanitizing as usual, so operators the caller built must be marked
 * (anyOf, ours).
 */
export interface Reader<Doc> {
  byId<T = Doc>(id: unknown, projection?: Record<string, 0 | 1>): Promise<T | null>;
  /** Like byId, sharing a read of the same document already in flight (see readByIdShared); never to be changed. */
  byIdShared<T = Doc>(id: { toString(): string }, projection?: Record<string, 1>): Promise<T | null>;
  one<T = Doc>(filter: Record<string, unknown>, projection?: Record<string, 0 | 1>): Promise<T | null>;
  many<T = Doc>(filter: Record<string, unknown>, options?: ReadOptions): Promise<T[]>;
  exists(filter: Record<string, unknown>): Promise<boolean>;
}

/** The read-only face of a model, for its module to give to others (as `contentReads`, `userReads`...). */
interface LeanQuery {
  lean(): { exec(): Promise<unknown> };
}

/** What readerOf calls on a model. */
interface Queryable extends Stored {
  findById(id: unknown, projection?: Record<string, 0 | 1>): LeanQuery;
  findOne(filter: Record<string, unknown>, projection?: Record<string, 0 | 1>): LeanQuery;
  find(filter: Record<string, unknown>, projection?: Record<string, 0 | 1>): { sort(sort: Record<string, 1 | -1>): { limit(limit: number): LeanQuery } };
  exists(filter: Record<string, unknown>): { exec(): Promise<unknown> };
}

export function readerOf<Doc>(model: Queryable): Reader<Doc> {
  return {
    byId: async <T>(id: unknown, projection?: Record<string, 0 | 1>) => (await model.findById(id, projection).lean().exec()) as T | null,
    byIdShared: <T>(id: { toString(): string }, projection?: Record<string, 1>) => readByIdShared<T>(model, id, projection),
    one: async <T>(filter: Record<string, unknown>, projection?: Record<string, 0 | 1>) => (await model.findOne(filter, projection).lean().exec()) as T | null,
    many: async <T>(filter: Record<string, unknown>, options: ReadOptions = {}) =>
      (await model
        .find(filter, options.projection)
        .sort(options.sort ?? {})
        .limit(options.limit ?? 0)
        .lean()
        .exec()) as T[],
    exists: async (filter: Record<string, unknown>) => Boolean(await model.exists(filter).exec()),
  };
}
