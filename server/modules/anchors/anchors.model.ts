import { Schema, model } from 'mongoose';
import { readerOf } from '../../lib/query';

/**
 * One closed UTC day of the ledger: the Merkle root of its entries, and where the root is anchored on Stellar.
 * `_id` is the day (`2026-11-26`): inserting it is the one exclusive step, so a day's root is made once, however
 * many job runs compute it at once. Its anchor fields are changed only under the day's lease (`anchor:{day}`).
 */
const ledgerRootSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** The RFC 6962 root of the day's entries, hex; SHA-256 of nothing for a day without entries. */
    root: { type: String, required: true },
    /** How many entries the tree holds. */
    count: { type: Number, required: true },
    madeAt: { type: Date, required: true },
    /**
     * The ledger's list of the day was read up to this journal number (ledger.days.ts): the tree is the day's entries
     * listed up to it, so an entry stamped on the day but posted after its root (a stall past the journal's grace
     * period) never changes the tree of a root made. Absent on roots made before the lists: every entry of the day.
     */
    throughSeq: { type: Number, default: undefined },
    /** anchored; pending (sent, not yet seen in a ledger); not-anchored (no anchor account, a failed try, or a day without entries). */
    status: { type: String, enum: ['anchored', 'pending', 'not-anchored'], required: true },
    network: { type: String, default: null },
    networkPassphrase: { type: String, default: null },
    account: { type: String, default: null },
    transactionHash: { type: String, default: null },
    /** The pending transaction (XDR), sent again as it is while it can still reach a ledger. */
    envelope: { type: String, default: null },
    /** When the pending transaction's time bounds end: after it, it can never be in a ledger. */
    expiresAt: { type: Date, default: null },
    ledger: { type: Number, default: null },
    anchoredAt: { type: Date, default: null },
    /** Why the last try did not anchor it (Horizon's result codes, an account that does not exist). */
    lastError: { type: String, default: null },
  },
  { versionKey: false },
);

export type AnchorStatus = 'anchored' | 'pending' | 'not-anchored';

export interface LedgerRootDoc {
  _id: string;
  root: string;
  count: number;
  madeAt: Date;
  throughSeq?: number;
  status: AnchorStatus;
  network: string | null;
  networkPassphrase: string | null;
  account: string | null;
  transactionHash: string | null;
  envelope: string | null;
  expiresAt: Date | null;
  ledger: number | null;
  anchoredAt: Date | null;
  lastError: string | null;
}

export const LedgerRootModel = model<LedgerRootDoc>('LedgerRoot', ledgerRootSchema, 'ledger_roots');
export const ledgerRootReads = readerOf<LedgerRootDoc>(LedgerRootModel);
