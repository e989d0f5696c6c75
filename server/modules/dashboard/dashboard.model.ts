import { Schema, model } from 'mongoose';
import { readerOf } from '../../lib/query';

/**
 * The admin dashboard's figures, one document per UTC day (`day:2026-11-27`) and per month (`month:2026-11`), counted
 * by the admin-stats job from inserted facts (ledger entries, accounts and pieces created) and written whole each
 * time, so that the dashboard reads two documents by `_id` and no request ever adds to a total.
 */
const adminStatsSchema = new Schema(
  {
    _id: { type: String, required: true },
    members: { type: Number, required: true },
    pieces: { type: Number, required: true },
    knacks: { type: Number, required: true },
    listings: { type: Number, required: true },
    listingFeesMicros: { type: Number, required: true },
    knackValueMicros: { type: Number, required: true },
    payouts: { type: Number, required: true },
    payoutsMicros: { type: Number, required: true },
    /** When the job counted these figures. */
    countedAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export interface AdminFigures {
  members: number;
  pieces: number;
  knacks: number;
  listings: number;
  listingFeesMicros: number;
  knackValueMicros: number;
  payouts: number;
  payoutsMicros: number;
}

export interface AdminStatsDoc extends AdminFigures {
  _id: string;
  countedAt: Date;
}

export const AdminStatsModel = model<AdminStatsDoc>('AdminStats', adminStatsSchema, 'admin_stats');

export const adminStatsReads = readerOf<AdminStatsDoc>(AdminStatsModel);
