import { Schema, model } from 'mongoose';

/**
 * Daily rollups of the ledger's knacks: one document per member, piece and tag per UTC day, each keyed by `_id`, so
 * that a chart of a week or a month reads 7 or 30 documents however long the ledger grows. The `earnings-rollups` job
 * counts them from the day's ledger entries (the inserted facts) and writes each whole: nothing ever adds to one, so
 * a count is exact however many knacks arrive at once, and counting a day again gives the same documents.
 *
 * - `member:{userId}:{day}`: what the member's knacks credited them that day (as owner, and as the supporter who paid
 *   a piece's listing fee), in all and by the tag that priced each knack;
 * - `piece:{contentId}:{day}`: the piece's knacks (listed or not) and their whole value;
 * - `tag:{tagId}:{day}`: the tag's knacks, their value, and how many of its pieces were knacked;
 * - `hosts:{userId}:{day}`: the member's day by the site that framed the embeddable player (lib/embed-host.ts; null for
 *   Knack itself): their pieces' embed plays (from `embed_plays`, the share module's facts), and the knacks that
 *   credited them with what they credited (from the ledger's knack entries, which keep the site);
 * - `index:{day}`: the ids written for the day, so that a recount removes a document no longer made, and each tag's
 *   knacks of the day (what the daily prices read);
 * - `state`: the last day closed (counted after its end, and again only by the weekly repair), each tag's knacks up
 *   to it, and when every day was last counted again.
 */
const byTagSchema = new Schema({ tagId: { type: String, required: true }, knacks: Number, earnedMicros: Number }, { _id: false });
const byHostSchema = new Schema({ host: { type: String, default: null }, plays: Number, knacks: Number, earnedMicros: Number }, { _id: false });

const earningsDaySchema = new Schema(
  {
    _id: { type: String, required: true },
    day: { type: String },
    knacks: { type: Number },
    /** member: what the knacks credited the member; piece and tag: the knacks' whole value. */
    valueMicros: { type: Number },
    /** member: the same by tag (`none` for a knack whose piece's tag no longer exists). */
    byTag: { type: [byTagSchema], default: undefined },
    /** tag: the pieces knacked that day. */
    pieces: { type: Number },
    /** hosts: the member's plays, knacks and earnings by site. */
    hosts: { type: [byHostSchema], default: undefined },
    /** index: the rollups of the day, and each tag's knacks of the day. */
    ids: { type: [String], default: undefined },
    tagKnacks: { type: Schema.Types.Mixed },
    /** state: the last closed day, and each tag's knacks through it. */
    closedThrough: { type: String },
    tagTotals: { type: Schema.Types.Mixed },
    rebuiltAt: { type: Date },
    countedAt: { type: Date },
  },
  { versionKey: false },
);

export interface TagShare {
  tagId: string;
  knacks: number;
  earnedMicros: number;
}

export interface DayRollup {
  _id: string;
  day: string;
  knacks: number;
  valueMicros: number;
  byTag?: TagShare[];
  pieces?: number;
  countedAt: Date;
}

/** One site's part of a member's day: `host` null is Knack itself. */
export interface HostShare {
  host: string | null;
  plays: number;
  knacks: number;
  earnedMicros: number;
}

/** A member's day by site (`hosts:{userId}:{day}`). */
export interface HostDayRollup {
  _id: string;
  day: string;
  hosts: HostShare[];
  countedAt: Date;
}

export interface DayIndex {
  _id: string;
  /** Null: an index is not a rollup (the rollups are the documents with a day). */
  day: null;
  ids: string[];
  /** Each tag's knacks of the day. */
  tagKnacks: Record<string, number>;
}

export interface RollupState {
  _id: 'state';
  closedThrough: string;
  tagTotals: Record<string, number>;
  /** When every day was last counted again from the first entry (the weekly repair). */
  rebuiltAt?: Date;
}

export const EarningsDayModel = model('EarningsDay', earningsDaySchema, 'earnings_days');

export const memberDayId = (userId: string, day: string) => `member:${userId}:${day}`;
export const pieceDayId = (contentId: string, day: string) => `piece:${contentId}:${day}`;
export const tagDayId = (tagId: string, day: string) => `tag:${tagId}:${day}`;
export const hostsDayId = (userId: string, day: string) => `hosts:${userId}:${day}`;
export const dayIndexId = (day: string) => `index:${day}`;
export const STATE_ID = 'state';
/** The tag key of a knack whose piece's tag no longer exists. */
export const NO_TAG = 'none';
