/**
 * Fault points: places right after a write on the money and identity paths where a crash test makes the process
 * die at once (SIGKILL: no `finally`, no graceful stop, nothing flushed), to prove that what the next process runs
 * (the client's retry, the jobs and their sweepers) leaves every invariant whole. A test starts the app with
 * KNACK_FAULT_POINT naming one point (`name`, or `name:n` to die at its n-th hit); the configuration refuses it
 * when NODE_ENV=production (server/config.ts), and with none armed `faultPoint` is one comparison.
 *
 * Every point is named once here, and placed once in the code (a unit test checks both), so the crash tests and the
 * code share the names.
 */

export const FAULT_POINTS = {
  /** A knack counted in the member's knack window, its ledger entry not written yet. */
  knackAfterWindow: 'knack.after-window',
  /** A knack's ledger entry written, the piece's kept totals not bumped yet. */
  knackAfterLedger: 'knack.after-ledger',
  /** A listing fee paid with a plan credit: the credit taken, the listing's ledger entry not written yet. */
  listingAfterCredit: 'listing.after-credit',
  /** A listing fee paid with a credit: the ledger entry written, the piece not marked monetized yet. */
  listingAfterLedger: 'listing.after-ledger',
  /** A card payment's webhook: the order marked paid, the listing's ledger entry not written yet. */
  webhookAfterOrderPaid: 'webhook.after-order-paid',
  /** A card payment's webhook: the listing's ledger entry written, the piece not marked monetized, the event not recorded. */
  webhookAfterLedger: 'webhook.after-ledger',
  /** A paid plan month: the subscription's period moved, its credits not granted yet. */
  planAfterPeriod: 'plan.after-period',
  /** Any credit movement (a plan's grant, a listing's use): the movement recorded, the member's kept totals not moved yet. */
  creditAfterMovement: 'credit.after-movement',
  /** A payout or cash-out: its send record written, its ledger entry not posted yet. */
  payoutAfterRecord: 'payout.after-record',
  /** A payout or cash-out: its ledger entry posted, the cash-out request it pays not closed yet. */
  payoutAfterLedger: 'payout.after-ledger',
  /** A payout or cash-out: the provider took it, its send record not marked sent yet. */
  payoutAfterProvider: 'payout.after-provider',
  /** A cash-out request: the request written, the member's latest-request record not moved yet. */
  cashOutAfterRequest: 'cash-out.after-request',
  /** An account deletion: the deletion recorded, none of its steps run yet. */
  deletionAfterRecord: 'deletion.after-record',
  /** An account deletion: one of its steps done (`deletion.after-step:n` dies after the n-th), the next not started. */
  deletionAfterStep: 'deletion.after-step',
  /** An email change's link opened: the email switched, the old address's cancel links not extended, no link ended yet. */
  emailAfterSwitch: 'email.after-switch',
  /** An email change's link opened: the email switched and the cancel links extended, the waiting links (this one too) not ended yet. */
  emailAfterCancelLinks: 'email.after-cancel-links',
  /** Any ledger post: its journal slot written, the entry itself not inserted yet (the journal's readers complete it). */
  ledgerAfterSlot: 'ledger.after-slot',
  /** Any ledger post: the entry inserted, none of its running totals (balances, the piece's, the knacked list) posted yet. */
  ledgerAfterEntry: 'ledger.after-entry',
  /** A running total's posting claimed, not appended yet (the ledger-balances job appends it). */
  ledgerAfterClaim: 'ledger.after-claim',
  /** A follow or unfollow: the follow document inserted or deleted, neither member's list given its event yet. */
  followAfterFact: 'follow.after-fact',
  /** A comment or share: its number in the piece's thread taken, the piece's count and the two members' lists not moved yet. */
  commentAfterNumber: 'comment.after-number',
  /** A comment's removal claimed, its text not emptied and the piece's count not taken down yet. */
  commentAfterRemovalClaim: 'comment.after-removal-claim',
  /** A change of a member's side of a thread (a message, a read mark, a delete): its version inserted, the member's count change not appended yet. */
  messageAfterVersion: 'message.after-version',
  /** A reply or a new thread: its message appended, neither member's side (nor, for a new thread, either side at all) written yet. */
  messageAfterAppend: 'message.after-append',
} as const;

export type FaultPointName = (typeof FAULT_POINTS)[keyof typeof FAULT_POINTS];

const NAMES = new Set<string>(Object.values(FAULT_POINTS));

export interface ArmedFaultPoint {
  name: FaultPointName;
  /** The hit that kills the process: 1 for the first. */
  hit: number;
}

/**
 * Reads a KNACK_FAULT_POINT value (`name` or `name:n`); an error message for anything else, so that a misspelt point
 * fails the test's start rather than never firing.
 */
export function parseFaultPoint(raw: string): ArmedFaultPoint | string {
  const match = /^([a-z-]+\.[a-z-]+)(?::(\d{1,4}))?$/.exec(raw.trim());
  const name = match?.[1];
  if (!match || !name || !NAMES.has(name))
    return `KNACK_FAULT_POINT must name a fault point (${[...NAMES].join(', ')}), optionally :n for its n-th hit; got "${raw}".`;
  const hit = match[2] === undefined ? 1 : Number(match[2]);
  if (hit < 1) return `KNACK_FAULT_POINT's hit must be 1 or more; got "${raw}".`;
  return { name: name as FaultPointName, hit };
}

let armed: ArmedFaultPoint | null = null;
let hits = 0;

/** Arms one point for this process (the process entries, from the configuration); undefined disarms. */
export function armFaultPoint(point: ArmedFaultPoint | undefined): void {
  armed = point ?? null;
  hits = 0;
}

/** Dies here by SIGKILL when this is the armed point's chosen hit; otherwise does nothing. */
export function faultPoint(name: FaultPointName): void {
  if (armed === null || armed.name !== name) return;
  hits += 1;
  if (hits === armed.hit) process.kill(process.pid, 'SIGKILL');
}
