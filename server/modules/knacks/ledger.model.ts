import { Schema, model, type Types } from 'mongoose';

/**
 * The money ledger (ARCHITECTURE §4): one immutable document per movement of value, holding all its legs,
 * which sum to zero. `_id` is the movement's idempotency key (`knack:{contentId}:{userId}`, `payout:…`), so a
 * retried or concurrent duplicate hits the unique `_id` and changes nothing. Balances are summed from it.
 *
 * Accounts: `user:{id}` (what Knack owes a member), `platform:knacks` (what plays and views pay out).
 */
const legSchema = new Schema(
  {
    account: { type: String, required: true },
    amountMicros: { type: Number, required: true },
  },
  { _id: false },
);

const ledgerEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    kind: { type: String, enum: ['knack'], required: true },
    at: { type: Date, required: true },
    /** Who caused it (the member who knacked). */
    actorId: { type: Schema.Types.ObjectId, required: true },
    contentId: { type: Schema.Types.ObjectId, default: null },
    legs: { type: [legSchema], default: [] },
    /** The legs' accounts, top level so that a member's entries are one indexed read. */
    accounts: { type: [String], default: [] },
  },
  { versionKey: false },
);
ledgerEntrySchema.index({ accounts: 1, at: -1 });
ledgerEntrySchema.index({ kind: 1, actorId: 1, at: -1 });
ledgerEntrySchema.index({ contentId: 1 });

export interface LedgerLeg {
  account: string;
  amountMicros: number;
}

export interface LedgerEntryDoc {
  _id: string;
  kind: 'knack';
  at: Date;
  actorId: Types.ObjectId;
  contentId: Types.ObjectId | null;
  legs: LedgerLeg[];
  accounts: string[];
}

export const LedgerEntryModel = model<LedgerEntryDoc>('LedgerEntry', ledgerEntrySchema, 'ledger_entries');
