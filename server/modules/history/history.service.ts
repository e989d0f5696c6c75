/**
 * A member's history items, derived from the ledger and the cash-out requests: Paid0 = listing fees the
 * member paid, Paid1 = knacks that credited them, Payout = monthly payouts, Earn = cash-out requests, Refund =
 * card payments paid back (someone else had monetized the piece first). Three indexed reads (each at most a page
 * long), merged newest first.
 */
import { Types } from 'mongoose';
import { microsToUsd } from '../../lib/money';
import type { Schemas } from '../../lib/openapi-types';
import { anyOf, ours } from '../../lib/query';
import type { AuthContext } from '../../lib/auth-context';
import { amountFor, creditedBy, pageOfEntries, userAccount, type LedgerEntryDoc } from '../ledger';
import { userReads } from '../users';
import {
  cashOutKey,
  checkCanRead,
  EXTERNAL_PAYOUTS,
  isSupport,
  ownersOf,
  payoutFee,
  type CashOutRequestDoc,
  type PayoutFees,
  type PayoutSendDoc,
  cashOutReads,
  payoutSendReads,
} from '../wallet';
import { afterNewest, compareNewestFirst, decodeNewestCursor, encodeNewestCursor, NEWEST_FIRST } from '../../lib/newest-first';

export type HistoryItem = Schemas['HistoryItem'];

type Row = { at: Date; id: string } & ({ source: 'ledger'; entry: LedgerEntryDoc } | { source: 'request'; request: CashOutRequestDoc });

const DEFAULT_LIMIT = 20;
const dollars = (micros: number) => `$${(micros / 1_000_000).toFixed(2)}`;
const changes = (paidMicros: number, earnedMicros: number, supporterId: { toString(): string } | null | undefined) => ({
  paid: microsToUsd(paidMicros),
  earned: microsToUsd(earnedMicros),
  supporterId: supporterId ? String(supporterId) : null,
  paidMicros,
  earnedMicros,
});

export function createHistoryService({ fees }: { fees: PayoutFees }) {
  /** The Earn item of a cash-out request; `send` is its payout once approved. */
  function requestItem(request: CashOutRequestDoc, send: PayoutSendDoc | null | undefined): HistoryItem {
    const sentMicros = send?.sentMicros ?? request.amountMicros - payoutFee(request.amountMicros, fees);
    const amount = dollars(request.amountMicros);
    const activity = {
      pending: `You asked to cash out ${amount}`,
      approved: `Your cash-out of ${amount} was approved`,
      paidByPayout: `Your cash-out of ${amount} was paid by the monthly payout for ${(request.payoutId ?? '').slice(-7)}`,
      declined: `Your cash-out of ${amount} was declined: ${request.reason ?? ''}`,
      cancelled: `Your cash-out of ${amount} was cancelled`,
    }[request.status];
    return {
      historyId: request._id,
      userId: String(request.userId),
      contentId: null,
      contentTitle: null,
      activityType: 'Earn',
      activity,
      changes: changes(request.amountMicros, sentMicros, null),
      status: request.status,
      at: request.at.toISOString(),
    };
  }

  /** Turns one page of rows into items, with the pieces, viewers and payouts they name (three reads at most). */
  async function itemsOf(userId: string, rows: Row[]): Promise<HistoryItem[]> {
    const entries = rows.flatMap((row) => (row.source === 'ledger' ? [row.entry] : []));
    const requests = rows.flatMap((row) => (row.source === 'request' ? [row.request] : []));
    const viewerIds = entries.filter((entry) => entry.kind === 'knack').map((entry) => entry.actorId);
    const [pieces, viewers, sends] = await Promise.all([
      ownersOf(entries.map((entry) => entry.contentId)),
      viewerIds.length ? userReads.many({ _id: anyOf(viewerIds) }, { projection: { username: 1 } }) : [],
      requests.length ? payoutSendReads.many({ _id: anyOf(requests.map((r) => cashOutKey(r._id))) }) : [],
    ]);
    const usernames = new Map(viewers.map((viewer) => [String(viewer._id), viewer.username]));
    const sendOf = new Map(sends.map((send) => [send._id, send]));
    const account = userAccount(userId);

    return rows.map((row): HistoryItem => {
      if (row.source === 'request') return requestItem(row.request, sendOf.get(cashOutKey(row.request._id)));
      const { entry } = row;
      const piece = entry.contentId ? pieces.get(String(entry.contentId)) : undefined;
      const title = piece?.title ?? null;
      const base = {
        historyId: entry._id,
        userId,
        contentId: entry.contentId ? String(entry.contentId) : null,
        contentTitle: title,
        status: null,
        at: entry.at.toISOString(),
      };
      if (entry.kind === 'listing') {
        const support = isSupport(piece, userId);
        return {
          ...base,
          activityType: 'Paid0',
          activity: `You ${support ? 'supported' : 'monetized'} ${title ?? 'a removed piece'}`,
          changes: changes(entry.amountMicros ?? creditedBy(entry), 0, support ? userId : null),
        };
      }
      if (entry.kind === 'relisting') {
        const fee = entry.amountMicros ?? 0;
        return {
          ...base,
          activityType: 'Paid0',
          activity: `You opened ${title ?? 'a removed piece'} to bids again${fee ? '' : ' (the relisting fee was waived)'}`,
          changes: changes(fee, 0, null),
        };
      }
      if (entry.kind === 'refund') {
        return {
          ...base,
          activityType: 'Refund',
          activity: `Your listing fee for ${title ?? 'a removed piece'} was refunded: someone else monetized it first`,
          changes: changes(0, entry.amountMicros ?? 0, null),
        };
      }
      if (entry.kind === 'knack') {
        const verb = piece?.type === 'music' ? 'played' : 'viewed';
        return {
          ...base,
          activityType: 'Paid1',
          activity: `${usernames.get(String(entry.actorId)) ?? 'A member'} ${verb} ${title ?? 'a removed piece'}`,
          changes: changes(creditedBy(entry), amountFor([entry], account), piece?.payerId ?? null),
        };
      }
      return {
        ...base,
        activityType: 'Payout',
        activity: `Monthly payout for ${entry._id.slice(-7)}`,
        changes: changes(-amountFor([entry], account), amountFor([entry], EXTERNAL_PAYOUTS), null),
      };
    });
  }

  return {
    requestItem,

    /** One page of the member's history (`paidOnly`: Paid0 items only), newest first. */
    async list(caller: AuthContext, userId: string, query: { cursor?: string; limit?: number }, paidOnly = false) {
      await checkCanRead(caller, userId);
      const limit = Math.min(50, Math.max(1, query.limit ?? DEFAULT_LIMIT));
      const list = `${paidOnly ? 'paid-history' : 'history'}:${userId}`;
      const position = decodeNewestCursor(list, query.cursor);
      const member = new Types.ObjectId(userId);
      const after = afterNewest(position);
      const [listings, credits, requests] = await Promise.all([
        pageOfEntries({ kinds: paidOnly ? ['listing'] : ['listing', 'refund', 'relisting'], actorId: userId }, after, NEWEST_FIRST, limit + 1),
        paidOnly ? [] : pageOfEntries({ kinds: ['knack', 'payout'], account: userAccount(userId) }, after, NEWEST_FIRST, limit + 1),
        paidOnly ? [] : cashOutReads.many(ours({ userId: member, ...after }), { sort: NEWEST_FIRST, limit: limit + 1 }),
      ]);
      const rows: Row[] = [
        ...[...listings, ...credits].map((entry) => ({ source: 'ledger' as const, entry, at: entry.at, id: entry._id })),
        ...requests.map((request) => ({ source: 'request' as const, request, at: request.at, id: request._id })),
      ].sort(compareNewestFirst);
      const pageRows = rows.slice(0, limit);
      const last = pageRows[pageRows.length - 1];
      return {
        items: await itemsOf(userId, pageRows),
        nextCursor: rows.length > limit && last ? encodeNewestCursor(list, { at: last.at.getTime(), id: last.id }) : null,
      };
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
