/**
 * The admin dashboard: the counted figures of today and this month (two reads by `_id`), then the open flags and the
 * waiting cash-out requests, read from the modules that own them. Those two are filters, not keys: each reads at most
 * COUNT_LIMIT documents, which on FerretDB scans `flags` and `cash_out_requests` (see docs/admin.md). The mail outbox's
 * counts read `mail_outbox` whole, which holds only the mails not delivered (small, except during a long outage).
 * Last, the week's product events per day and event, read by `_id` from the counts the product-events job keeps.
 */
import type { AuthContext } from '../../lib/auth-context';
import type { Schemas } from '../../lib/openapi-types';
import { requireAdmin } from '../../lib/permissions';
import { productEventWeek } from '../events';
import { openFlagCounts } from '../flags';
import { mailOutboxCounts } from '../mail-outbox';
import { cashOutReads, type CashOutRequestDoc } from '../wallet';
import { adminStatsReads, type AdminFigures, type AdminStatsDoc } from './dashboard.model';
import { dayKey, EMPTY_FIGURES, monthKey, startOfUtcDay } from './dashboard.stats';

export const DASHBOARD_MESSAGES = { onlyAdmins: 'Only admins can see the dashboard.' } as const;

/** How many open flags or waiting requests the dashboard counts at most (past it, `more` says so). */
export const COUNT_LIMIT = 1000;
/** The waiting requests listed, the oldest first. */
const OLDEST_SHOWN = 10;
/** A request waiting longer than this is overdue. */
export const OVERDUE_MS = 7 * 86_400_000;

const figuresOf = (doc: AdminStatsDoc | null): AdminFigures =>
  Object.fromEntries(Object.keys(EMPTY_FIGURES).map((key) => [key, doc?.[key as keyof AdminFigures] ?? 0])) as unknown as AdminFigures;

export async function adminDashboard(caller: AuthContext, now = new Date()): Promise<Schemas['AdminDashboard']> {
  requireAdmin(caller, DASHBOARD_MESSAGES.onlyAdmins);
  const [today, month, flags, waiting, mails, productEvents] = await Promise.all([
    adminStatsReads.byId<AdminStatsDoc>(dayKey(startOfUtcDay(now))),
    adminStatsReads.byId<AdminStatsDoc>(monthKey(now)),
    openFlagCounts({ limit: COUNT_LIMIT }),
    cashOutReads.many<Pick<CashOutRequestDoc, '_id' | 'userId' | 'amountMicros' | 'at'>>(
      { status: 'pending' },
      { projection: { userId: 1, amountMicros: 1, at: 1 }, limit: COUNT_LIMIT + 1 },
    ),
    mailOutboxCounts(),
    productEventWeek(now),
  ]);
  const counted = (rows: unknown[]) => rows.slice(0, COUNT_LIMIT);
  const pending = (counted(waiting) as typeof waiting).sort((a, b) => a.at.getTime() - b.at.getTime() || a._id.localeCompare(b._id));
  return {
    asOf: (month ?? today)?.countedAt.toISOString() ?? null,
    today: figuresOf(today),
    month: figuresOf(month),
    openFlags: { flags: flags.flags, pieces: flags.byPiece.size, more: flags.more },
    waitingCashOuts: {
      count: pending.length,
      more: waiting.length > COUNT_LIMIT,
      oldest: pending.slice(0, OLDEST_SHOWN).map((request) => ({
        id: request._id,
        userId: String(request.userId),
        amountMicros: request.amountMicros,
        at: request.at.toISOString(),
        overdue: now.getTime() - request.at.getTime() > OVERDUE_MS,
      })),
    },
    waitingMails: { count: mails.waiting, failed: mails.failed, oldestAt: mails.oldestWaitingSince?.toISOString() ?? null },
    productEvents,
  };
}
