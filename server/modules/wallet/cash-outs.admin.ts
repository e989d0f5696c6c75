/**
 * The admins' list of cash-out requests: the waiting ones first, the oldest first (the longest wait is the first
 * to act on), then the decided ones, the latest request first. Each row carries what an admin needs to decide: the
 * member, the amount, the member's balance now and their payout account, and the path of their history.
 *
 * Cost: the page of requests is one filtered, sorted read of `cash_out_requests` (and, with a search, one of the
 * members), which FerretDB answers by reading the whole collection; then each row's member is read by `_id`, and the
 * page's balances and payout accounts in one read each. So a page does a bounded number of reads, whatever its rows.
 */
import { Types } from 'mongoose';
import type { AuthContext } from '../../lib/auth-context';
import { microsToUsd } from '../../lib/money';
import { decodePageCursor, encodePageCursor } from '../../lib/page-cursor';
import type { Schemas } from '../../lib/openapi-types';
import { requireAdmin } from '../../lib/permissions';
import { anyOf, ours } from '../../lib/query';
import { startsWith } from '../../lib/search';
import { afterNewest, NEWEST_FIRST } from '../../lib/newest-first';
import { balancesOf, userAccount } from '../ledger';
import { payoutAccountsOf, userReads, type UserDoc } from '../users';
import { CashOutRequestModel, type CashOutRequestDoc, type CashOutStatus } from './wallet.model';

export const CASH_OUT_LIST_MESSAGES = {
  adminsOnly: 'Only admins can see cash-out requests.',
} as const;

type CashOutRow = Schemas['CashOutRow'];
export type CashOutListState = CashOutRow['status'];

/** A request waiting longer than this is flagged for the admins. */
export const CASH_OUT_OVERDUE_MS = 7 * 24 * 60 * 60 * 1000;
/** At most this many members match a search; a longer list asks for a longer search text. */
const MEMBER_MATCHES = 100;

const STATUSES_OF: Record<CashOutListState, CashOutStatus[]> = {
  waiting: ['pending'],
  paid: ['approved', 'paidByPayout'],
  declined: ['declined'],
  cancelled: ['cancelled'],
};

const stateOf = (status: CashOutStatus): CashOutListState =>
  status === 'pending' ? 'waiting' : status === 'approved' || status === 'paidByPayout' ? 'paid' : status;

/** The two parts of the list, in the list's order: 0 waiting (oldest first), 1 decided (latest first). */
type Part = 0 | 1;
interface Position {
  part: Part;
  at: number;
  id: string;
}

/** The admins' cash-out list with its status and search: a cursor pages only the list with the same ones. */
const cashOutListOf = ({ status, q }: CashOutListQuery) => `cash-outs:${JSON.stringify([status ?? '', q?.trim().toLowerCase() ?? ''])}`;

const encodePosition = (list: string, { part, at, id }: Position) => encodePageCursor(list, [part, at], id);
const decodePosition = (list: string, cursor: string | undefined): Position | null =>
  decodePageCursor(list, cursor, (key, id) => {
    if (!Array.isArray(key) || key.length !== 2 || typeof id !== 'string' || id.length !== 24) return null;
    const [part, at] = key as unknown[];
    return (part === 0 || part === 1) && Number.isSafeInteger(at) ? { part, at: at as number, id } : null;
  });

/** "After `position`" on (at asc, _id asc): the waiting part's order. */
function afterOldest(position: Position | null): Record<string, unknown> {
  if (!position) return {};
  const at = new Date(position.at);
  return { at: { $gte: at }, $or: [{ at: { $gt: at } }, { _id: { $gt: position.id } }] };
}

export interface CashOutListQuery {
  status?: CashOutListState;
  q?: string;
  cursor?: string;
  limit?: number;
}

/** Members whose username or email starts with `text` (lower-cased, as both are kept). */
async function membersMatching(text: string): Promise<Types.ObjectId[]> {
  const start = startsWith(text.trim());
  const members = await userReads.many<Pick<UserDoc, '_id'>>(ours({ $or: [{ username: start }, { email: start }] }), {
    projection: { _id: 1 },
    limit: MEMBER_MATCHES,
  });
  return members.map((member) => member._id);
}

async function rowsOf(requests: CashOutRequestDoc[], now: Date): Promise<CashOutRow[]> {
  const userIds = [...new Set(requests.map((request) => String(request.userId)))];
  const [members, balances, accounts] = await Promise.all([
    Promise.all(userIds.map((id) => userReads.byId<Pick<UserDoc, 'username' | 'email'>>(new Types.ObjectId(id), { username: 1, email: 1 }))),
    balancesOf(userIds.map(userAccount)),
    payoutAccountsOf(userIds),
  ]);
  const memberOf = new Map(userIds.map((id, i) => [id, members[i]]));
  return requests.map((request) => {
    const userId = String(request.userId);
    const member = memberOf.get(userId);
    const balanceMicros = balances.get(userAccount(userId)) ?? 0;
    const status = stateOf(request.status);
    return {
      historyId: request._id,
      status,
      paidBy: request.status === 'approved' ? 'cashOut' : request.status === 'paidByPayout' ? 'monthlyPayout' : null,
      member: member ? { id: userId, username: member.username, email: member.email } : null,
      amount: microsToUsd(request.amountMicros),
      amountMicros: request.amountMicros,
      requestedAt: request.at.toISOString(),
      decidedAt: request.decidedAt ? request.decidedAt.toISOString() : null,
      overdue: status === 'waiting' && now.getTime() - request.at.getTime() > CASH_OUT_OVERDUE_MS,
      reason: request.reason ?? null,
      balance: microsToUsd(balanceMicros),
      balanceMicros,
      payoutAccount: accounts.get(userId) ?? null,
      historyPath: `/user-history/get-all/${userId}`,
    };
  });
}

/** One page of the list (see the top of this file), for admins only. */
export async function listCashOuts(caller: AuthContext | undefined, query: CashOutListQuery, now = new Date()): Promise<Schemas['CashOutPage']> {
  requireAdmin(caller, CASH_OUT_LIST_MESSAGES.adminsOnly);
  const limit = Math.min(50, Math.max(1, query.limit ?? 20));
  const list = cashOutListOf(query);
  const position = decodePosition(list, query.cursor);
  const members = query.q ? await membersMatching(query.q) : null;
  if (members && !members.length) return { cashOuts: [], nextCursor: null };
  const member = members ? { userId: anyOf(members) } : {};

  const waitingPart = !query.status || query.status === 'waiting';
  const decidedStatuses = query.status
    ? STATUSES_OF[query.status].filter((status) => status !== 'pending')
    : ['approved', 'paidByPayout', 'declined', 'cancelled'];

  const found: { part: Part; request: CashOutRequestDoc }[] = [];
  if (waitingPart && (!position || position.part === 0)) {
    const waiting = await CashOutRequestModel.find(ours({ status: 'pending', ...member, ...afterOldest(position) }))
      .sort({ at: 1, _id: 1 })
      .limit(limit + 1)
      .lean<CashOutRequestDoc[]>();
    found.push(...waiting.map((request) => ({ part: 0 as const, request })));
  }
  if (found.length <= limit && decidedStatuses.length) {
    const after = position?.part === 1 ? afterNewest({ at: position.at, id: position.id }) : {};
    const decided = await CashOutRequestModel.find(ours({ status: anyOf(decidedStatuses), ...member, ...after }))
      .sort(NEWEST_FIRST)
      .limit(limit + 1 - found.length)
      .lean<CashOutRequestDoc[]>();
    found.push(...decided.map((request) => ({ part: 1 as const, request })));
  }

  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return {
    cashOuts: await rowsOf(
      page.map(({ request }) => request),
      now,
    ),
    nextCursor: found.length > limit && last ? encodePosition(list, { part: last.part, at: last.request.at.getTime(), id: last.request._id }) : null,
  };
}
