import { Schema, Types, model } from 'mongoose';
import { readerOf } from '../../lib/query';

/**
 * One product event as it came: inserted once under an id of its own (an ObjectId made when Knack received it, so
 * its first four bytes are the second it arrived and a day's events are a range of ids). Nothing is ever added to or
 * updated here; the counts are built from these facts by the product-events job.
 */
const productEventSchema = new Schema(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    name: { type: String, required: true },
    /** When it happened, by the member's device. */
    at: { type: Date, required: true },
    /** The member, from a verified token only; null for a visitor. The only personal data kept. */
    memberId: { type: Schema.Types.ObjectId, default: null },
    /** Ids only. */
    props: { contentId: { type: String } },
  },
  // `props` stays an object when empty, so that every fact has the same shape.
  { versionKey: false, minimize: false },
);

export interface ProductEventDoc {
  _id: Types.ObjectId;
  name: string;
  at: Date;
  memberId: Types.ObjectId | null;
  props: { contentId?: string };
}

export const ProductEventModel = model<ProductEventDoc>('ProductEvent', productEventSchema, 'product_events');

/**
 * How many of one event Knack received on one UTC day: `_id` `{yyyy-mm-dd}:{name}`, counted whole from the facts and
 * written over the last count (never added to), so a repeated or concurrent count writes the same figure.
 */
const productEventCountSchema = new Schema(
  {
    _id: { type: String, required: true },
    day: { type: String, required: true },
    name: { type: String, required: true },
    count: { type: Number, required: true },
    /** When the job counted it. */
    countedAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export interface ProductEventCountDoc {
  _id: string;
  day: string;
  name: string;
  count: number;
  countedAt: Date;
}

export const ProductEventCountModel = model<ProductEventCountDoc>('ProductEventCount', productEventCountSchema, 'product_event_counts');

export const productEventReads = readerOf<ProductEventDoc>(ProductEventModel);
export const productEventCountReads = readerOf<ProductEventCountDoc>(ProductEventCountModel);
