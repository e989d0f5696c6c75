/**
 * A member's history items, derived from the ledger and the cash-out requests: Paid0 = listing fees the
 * member paid, Paid1 = knacks that credited them, Payout = monthly payouts, Earn = cash-out requests, Refund =
 * card payments paid back (someone else had monetized the piece first).
 *
 * Each comes from one of three numbered chains of the member, read by `_id` only: their account's postings
 * (ledger `user:{id}`: the knacks and payouts among them), the fees they paid (ledger `paid:{id}`: listings,
 * relistings, refunds) and their cash-out requests (wallet: in the order asked). A page walks the three from their
 * newest numbers down, merged newest first, reading a bounded number of each; its cursor holds where each chain is
 * left, so that the next page goes on from there, whatever was added since.
 */
import { Types } from 'mongoose';
import { microsToUsd } from '../../lib/money';
import type { Schemas } from '../../lib/openapi-types';
import { decodePageCursor, encodePageCursor } from '../../lib/page-cursor';
import type { AuthContext } from '../../lib/auth-context';
import { amountFor, chainLength, creditedBy, entryById, paidChain, postingsOf, userAccount, type LedgerEntryDoc, type LedgerKind } from '../ledger';
import { userReads } from '../users';
import {
  cashOutKey,
  cashOutListEntries,
  cashOutListLength,
  checkCanRead,
  EXTERNAL_PAYOUTS,
  isSupport,
  payoutFee,
  piecesById,
  type CashOutRequestDoc,
  type PayoutFees,
  type PayoutSendDoc,
  cashOutReads,
  payoutSendReads,
} from '../wallet';

export type HistoryItem = Schemas['HistoryItem'];

type Row = { at: Date; id: string } & ({ source: 'ledger'; entry: LedgerEntryDoc } | { source: 'request'; request: CashOutRequestDoc });

/** One item found on a chain, before its page is chosen: where it is, and what orders it. */
type Found = { n: number; at: Date; id: string; request?: CashOutRequestDoc };

/** What a read of numbers from..to of a chain found: its items, and how late anything below them can be. */
interface Window {
  items: Found[];
  /** The latest `at` of every number below those read (ms), or null when none of them was found. */
  bound: number | null;
}

/** A member's chain as a page reads it, by `_id`. */
interface Chain {
  read(from: number, to: number): Promise<Window>;
}

/** The position after which a page starts: the last item given, as the list orders them. */
type Key = { at: number; id: string };

/** The list's order: newest first, then the greater id first. */
const isBefore = (a: Key, b: Key) => a.at > b.at || (a.at === b.at && a.id > b.id);
const keyOf = (found: Found): Key => ({ at: found.at.getTime(), id: found.id });

/** The chains a page reads, in the order of the cursor's positions. */
const CHAIN_COUNT = 3;
/** A page reads at most this many windows of each chain (a window is the page's size, plus one)... */
const WINDOWS_PER_PAGE = 4;
/** ...unless it has found no item yet: then it reads on, up to this many, rather than answer an empty page. */
const WINDOWS_FOR_ONE_ITEM = 40;

/**
 * A page's cursor: the last item given, and per chain the highest number that may hold an item still to give (every
 * item after the last one given is at or below it).
 */
interface ChainsCursor {
  after: Key | null;
  positions: number[];
}
const encodeChainsCursor = (list: string, { after, positions }: ChainsCursor) => encodePageCursor(list, [after?.at ?? null, ...positions], after?.id ?? '');
const decodeChainsCursor = (list: string, cursor: string | undefined): ChainsCursor | null =>
  decodePageCursor(list, cursor, (key, id) => {
    if (!Array.isArray(key) || key.length !== CHAIN_COUNT + 1 || typeof id !== 'string' || id.length > 120) return null;
    const [at, ...positions] = key as unknown[];
    if (!positions.every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) return null;
    if (at === null) return id === '' ? { after: null, positions: positions as number[] } : null;
    return Number.isSafeInteger(at) && id ? { after: { at: at as number, id }, positions: positions as number[] } : null;
  });

const latestOf = (maxAt: Date | undefined, at: Date) => new Date(maxAt ?? at).getTime();

/** A ledger chain's items: its postings of the kinds shown. */
const ledgerChain = (chain: string, kinds: LedgerKind[]): Chain => ({
  async read(from, to) {
    const postings = await postingsOf(chain, from, to);
    const lowest = postings[0];
    return {
      items: postings.filter((posting) => kinds.includes(posting.kind)).map((posting) => ({ n: posting.n, at: new Date(posting.at), id: posting.entryId })),
      bound: lowest ? latestOf(lowest.maxAt, lowest.at) : null,
    };
  },
});

/** The member's cash-out requests: each number's request, read by `_id` (a number whose request was never written is skipped). */
const requestChain = (userId: string): Chain => ({
  async read(from, to) {
    const entries = await cashOutListEntries(userId, from, to);
    const requests = await Promise.all(entries.map((entry) => cashOutReads.byId<CashOutRequestDoc>(entry.requestId)));
    const lowest = entries[0];
    return {
      items: entries.flatMap((entry, i) => {
        const request = requests[i];
        return request && String(request.userId) === userId ? [{ n: entry.n, at: new Date(request.at), id: request._id, request }] : [];
      }),
      bound: lowest ? latestOf(lowest.maxAt, lowest.at) : null,
    };
  },
});

const nothing: Chain = { read: async () => ({ items: [], bound: null }) };

/**
 * One page of `limit` items after `after`, merged newest first from the chains, each walked down from its position,
 * a window of numbers at a time, read by `_id`. Appends made at once can land a little out of time order on a chain,
 * so an item is given only once no number still unread on any chain can be newer (each number holds the latest time
 * of those below it). A page reads a bounded number of windows: past that it ends short, with a cursor.
 */
async function mergePage(
  chains: Chain[],
  { after, positions }: ChainsCursor,
  limit: number,
): Promise<{ page: Found[]; sources: number[]; next: ChainsCursor | null }> {
  const window = limit + 1;
  const state = chains.map((chain, i) => ({
    chain,
    buffer: [] as Found[],
    readDown: positions[i]!,
    bound: positions[i]! > 0 ? Infinity : -Infinity,
    windows: 0,
  }));
  const load = async (one: (typeof state)[number]) => {
    const from = Math.max(1, one.readDown - window + 1);
    const { items, bound } = await one.chain.read(from, one.readDown);
    one.buffer.push(...items.filter((item) => !after || isBefore(after, keyOf(item))));
    one.buffer.sort((a, b) => (isBefore(keyOf(a), keyOf(b)) ? -1 : 1));
    one.readDown = from - 1;
    one.bound = one.readDown === 0 ? -Infinity : (bound ?? one.bound);
    one.windows += 1;
  };
  const page: Found[] = [];
  const sources: number[] = [];
  for (;;) {
    let best = -1;
    state.forEach((one, i) => {
      if (one.buffer.length && (best < 0 || isBefore(keyOf(one.buffer[0]!), keyOf(state[best]!.buffer[0]!)))) best = i;
    });
    const newest = best >= 0 ? keyOf(state[best]!.buffer[0]!) : null;
    // The chains whose unread numbers could hold an item newer than the newest read (an equal time could sort first).
    const blocking = state.filter((one) => one.readDown > 0 && (!newest || one.bound >= newest.at));
    const allowed = page.length ? WINDOWS_PER_PAGE : WINDOWS_FOR_ONE_ITEM;
    const loadable = blocking.filter((one) => one.windows < allowed);
    if (newest && (!blocking.length || (!loadable.length && !page.length))) {
      // Given: nothing unread can be newer (or, past every window allowed, the newest read all the same).
      page.push(state[best]!.buffer.shift()!);
      sources.push(best);
      if (page.length === limit) break;
      continue;
    }
    if (!loadable.length) break;
    await Promise.all(loadable.map(load));
  }
  const last = page[page.length - 1];
  const more = state.some((one) => one.buffer.length > 0 || one.readDown > 0);
  return {
    page,
    sources,
    next: more ? { after: last ? keyOf(last) : after, positions: state.map((one) => Math.max(one.readDown, ...one.buffer.map((item) => item.n))) } : null,
  };
}

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

  /** Turns one page of rows into items, with the pieces, viewers and payouts they name. */
  async function itemsOf(userId: string, rows: Row[]): Promise<HistoryItem[]> {
    const entries = rows.flatMap((row) => (row.source === 'ledger' ? [row.entry] : []));
    const requests = rows.flatMap((row) => (row.source === 'request' ? [row.request] : []));
    const viewerIds = entries.filter((entry) => entry.kind === 'knack').map((entry) => entry.actorId);
    // Each by `_id`, in parallel: a filter on a list of ids reads the whole collection on FerretDB.
    const viewerKeys = [...new Set(viewerIds.map(String))];
    const [pieces, viewers, sends] = await Promise.all([
      piecesById(entries.map((entry) => entry.contentId)),
      Promise.all(viewerKeys.map((id) => userReads.byId<{ _id: Types.ObjectId; username: string }>(new Types.ObjectId(id), { username: 1 }))),
      Promise.all(requests.map((r) => payoutSendReads.byId<PayoutSendDoc>(cashOutKey(r._id)))),
    ]);
    const usernames = new Map(viewers.flatMap((viewer) => (viewer ? [[String(viewer._id), viewer.username] as const] : [])));
    const sendOf = new Map(sends.flatMap((send) => (send ? [[send._id, send] as const] : [])));
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
      const chains: Chain[] = paidOnly
        ? [ledgerChain(paidChain(userId), ['listing']), nothing, nothing]
        : [ledgerChain(paidChain(userId), ['listing', 'refund', 'relisting']), ledgerChain(userAccount(userId), ['knack', 'payout']), requestChain(userId)];
      const position = decodeChainsCursor(list, query.cursor) ?? {
        after: null,
        positions: await Promise.all([
          chainLength(paidChain(userId)),
          paidOnly ? 0 : chainLength(userAccount(userId)),
          paidOnly ? 0 : cashOutListLength(userId),
        ]),
      };
      const { page, sources, next } = await mergePage(chains, position, limit);
      const entries = await Promise.all(page.map((found, i) => (sources[i] === 2 ? Promise.resolve(null) : entryById(found.id))));
      const rows: Row[] = page.flatMap((found, i): Row[] => {
        if (found.request) return [{ source: 'request', request: found.request, at: found.at, id: found.id }];
        const entry = entries[i];
        return entry ? [{ source: 'ledger', entry, at: entry.at, id: entry._id }] : [];
      });
      return { items: await itemsOf(userId, rows), nextCursor: next ? encodeChainsCursor(list, next) : null };
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
