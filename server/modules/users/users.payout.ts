/**
 * The payout account: the PayPal email a member's payouts and cash-outs are sent to, kept on their extension. The
 * wallet decides when it may change (with the password) and pays only to an address that is not held; auth holds
 * an address set while someone else may have had the account (an email change undone by its cancel link).
 */
import { Types } from 'mongoose';
import { anyOf, readById } from '../../lib/query';
import { extensionIdOf, extensionOf } from './users.keys';
import { UserExtModel } from './users.model';

export interface PayoutAccount {
  paypal: string;
  /** Nothing is paid to it until the member confirms it with their password. */
  held: boolean;
}

/** Where the member's payouts go, and whether that address is held; null when they have none. */
export async function payoutAccountOf(userId: string): Promise<PayoutAccount | null> {
  const ext = await extensionOf(userId);
  return ext?.paypal ? { paypal: ext.paypal, held: Boolean(ext.paypalHeld) } : null;
}

/** The payout accounts of a few members (a page of a list) in one read, by member id; members without one are missing. */
export async function payoutAccountsOf(userIds: string[]): Promise<Map<string, PayoutAccount>> {
  if (!userIds.length) return new Map();
  const exts = await UserExtModel.find({ userId: anyOf(userIds.map((id) => new Types.ObjectId(id))) }, { userId: 1, paypal: 1, paypalHeld: 1 }).lean();
  return new Map(exts.filter((ext) => ext.paypal).map((ext) => [String(ext.userId), { paypal: ext.paypal as string, held: Boolean(ext.paypalHeld) }]));
}

/** Where the member's payouts go (their PayPal email), held or not; null when they have none. */
export async function payoutEmailOf(userId: string): Promise<string | null> {
  return (await payoutAccountOf(userId))?.paypal ?? null;
}

/**
 * Sets where the member's payouts go, a new address not held, and records when. With `undo`, puts back the
 * account as it was before a change, only while the address is still the one that change set (a newer change
 * stays), held again if it was.
 */
export async function setPayoutEmail(userId: string, email: string | null, undo?: { replacing: string; held: boolean }): Promise<void> {
  const memberId = new Types.ObjectId(userId);
  const changed = { paypal: email, paypalChangedAt: new Date() };
  const extId = await extensionIdOf(memberId);
  if (!undo) return void (await UserExtModel.updateOne({ _id: extId }, { $set: { ...changed, paypalHeld: false } }));
  // Read, compared, then written by `_id` alone: a filter on `_id` and `paypal` would read every extension on the
  // embedded database, whose guarded update is no more exclusive than this anyway.
  const now = await readById<{ paypal?: string | null }>(UserExtModel, extId, { paypal: 1 });
  if (now?.paypal === undo.replacing) await UserExtModel.updateOne({ _id: extId }, { $set: { ...changed, paypalHeld: undo.held } });
}

/**
 * Holds the member's payout address if it was set at `since` or later; answers the held address and when it was
 * set, or null when nothing was held. An address set before the change times were recorded is taken as older.
 */
export async function holdPayoutEmailSetSince(userId: Types.ObjectId, since: Date): Promise<{ paypal: string; changedAt: Date } | null> {
  const ext = await extensionOf(userId);
  if (!ext?.paypal || !ext.paypalChangedAt || ext.paypalChangedAt < since) return null;
  await UserExtModel.updateOne({ _id: ext._id }, { $set: { paypalHeld: true } });
  return { paypal: ext.paypal, changedAt: ext.paypalChangedAt };
}

/** Lets payouts go to the member's address again (they confirmed it with their password). */
export async function releasePayoutHold(userId: string): Promise<void> {
  const ext = await extensionOf(userId);
  if (ext) await UserExtModel.updateOne({ _id: ext._id }, { $set: { paypalHeld: false } });
}
