import { Schema, model, type Types } from 'mongoose';

/**
 * The money ledger: one immutable document per movement of value, holding all its legs,
 * which sum to zero. `_id` is the movement's idempotency key (`knack:{contentId}:{userId}`, `payout:…`), so a
 * retried or concurrent duplicate hits the unique `_id` and changes nothing. Balances are summed from it.
 *
 * Accounts: `user:{id}` (what Knack owes a member), `platform:knacks` (what plays and views pay out),
 * `platform:fees` (listing fees and payout fees Knack keeps), `external:payments` (money that came in from a
 * payment provider), `external:refunds` (payments sent back through it), `platform:discounts` / `platform:credits`
 * (fees covered by a discount code or a plan's credit), `external:payouts` (money sent out to members),
 * `platform:forfeits` (balances given up by deleted accounts).
 *
 * Kinds and keys:
 * - `knack`    `knack:{contentId}:{userId}`   a play or view (legs: platform:knacks -> owner, payer); `tagId` the tag whose
 *              price in force set its value (none on entries made before the tag market moved prices; null when the
 *              piece's tag no longer existed); `embedHost` the site whose page framed the embeddable player it was made
 *              in (lib/embed-host.ts), absent for a knack made on Knack itself
 * - `listing`  `listing:{contentId}`          the listing fee that monetized a piece, once per piece; actorId = payer,
 *              `method` how it was covered, `amountMicros` the fee, `ref` the provider's payment id or the code
 * - `payout`   `payout:{userId}:{yyyy-mm}`    the monthly payout of a balance (user -> external:payouts + platform:fees)
 * - `cash-out` `cash-out:{requestId}`         a cash-out a member asked for and an admin approved (same legs as payout)
 * - `forfeit`  `forfeit:{userId}`             the balance a member gave up when deleting their account (user -> platform:forfeits)
 * - `refund`   `refund:{orderId}`             a card payment paid back because another payment had monetized the piece first
 *              (external:payments -> external:refunds); actorId = payer, `amountMicros` the payment, `ref` the provider's refund id
 * - `sale`     `xlm:{txHash}:{op}`            a piece sold for XLM, settled by Stellar transaction txHash whose operation op paid
 *              the price: `currency` 'XLM', so its legs are in stroops (1e-7 XLM), not micro-dollars, on the parties' Stellar
 *              accounts `stellar:{address}` (buyer -> seller); no member's dollar balance moves. actorId = buyer, `ref` the bid
 * - `relisting` `relisting:{soldBidId}`      the fee that opened a sold piece to bids again, once per sale; actorId = payer (the
 *              new owner), `amountMicros` the fee, legs as a card listing fee; a fee under the card minimum is waived:
 *              `amountMicros` 0, no legs, `method` null
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
    kind: { type: String, enum: ['knack', 'listing', 'payout', 'cash-out', 'forfeit', 'refund', 'sale', 'relisting'], required: true },
    at: { type: Date, required: true },
    /** Who caused it (the member who knacked). */
    actorId: { type: Schema.Types.ObjectId, required: true },
    contentId: { type: Schema.Types.ObjectId, default: null },
    legs: { type: [legSchema], default: [] },
    /** listing: how the fee was covered; refund: how the payment paid back was made; relisting: 'card', or null when waived. */
    method: { type: String, enum: ['card', 'premium-credit', 'standard-credit', 'discount', null], default: null },
    /** listing: the fee; refund: what was paid back; payout / cash-out: what left the member's balance. */
    amountMicros: { type: Number, default: null },
    /** The provider's payment or payout id, or the discount code. */
    ref: { type: String, default: null },
    /** The unit of the legs when it is not micro-dollars: 'XLM' (stroops) for a sale. */
    currency: { type: String, enum: ['XLM'], default: undefined },
    /** knack: the tag whose price set the value (the legs keep the value itself). */
    tagId: { type: Schema.Types.ObjectId, default: undefined },
    /** knack: the site that framed the embeddable player it was made in; absent for Knack itself. */
    embedHost: { type: String, default: undefined },
    /** The legs' accounts, top level so that a member's entries are one indexed read. */
    accounts: { type: [String], default: [] },
    /** The number of the journal slot (ledger.journal.ts) that holds this entry: its place in the ledger's order. */
    seq: { type: Number, default: undefined },
  },
  { versionKey: false },
);
ledgerEntrySchema.index({ accounts: 1, at: -1 });
ledgerEntrySchema.index({ kind: 1, actorId: 1, at: -1 });
ledgerEntrySchema.index({ contentId: 1 });
// The daily Merkle roots read one day of entries by `at`.
ledgerEntrySchema.index({ at: 1 });

export interface LedgerLeg {
  account: string;
  amountMicros: number;
}

export type LedgerKind = 'knack' | 'listing' | 'payout' | 'cash-out' | 'forfeit' | 'refund' | 'sale' | 'relisting';
export type ListingMethod = 'card' | 'premium-credit' | 'standard-credit' | 'discount';

export interface LedgerEntryDoc {
  _id: string;
  kind: LedgerKind;
  at: Date;
  actorId: Types.ObjectId;
  contentId: Types.ObjectId | null;
  legs: LedgerLeg[];
  accounts: string[];
  method?: ListingMethod | null;
  amountMicros?: number | null;
  ref?: string | null;
  /** Set only when the legs are not micro-dollars: 'XLM', stroops. */
  currency?: 'XLM';
  /** knack: the tag whose price in force set the value. */
  tagId?: Types.ObjectId | null;
  /** knack: the site that framed the embeddable player it was made in; absent for Knack itself. */
  embedHost?: string;
  /** The journal slot that holds this entry (ledger.journal.ts); absent on entries written before the journal, until its rebuild. */
  seq?: number;
}

export const LedgerEntryModel = model<LedgerEntryDoc>('LedgerEntry', ledgerEntrySchema, 'ledger_entries');
