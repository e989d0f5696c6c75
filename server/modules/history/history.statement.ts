/**
 * A member's earnings statement: every ledger entry of their money in a period, as a CSV or JSON file, each line with
 * the member's balance after it, so that the file reconciles with the wallet: the first line is the balance just
 * before the period, each line adds its share, and the last line's balance is the balance at the period's end (the
 * wallet's, for a period that ends now).
 *
 * The file is written as the entries are read: the member's own entries of the period, from their running chains in
 * the ledger's order (ledger.member-entries.ts), a batch at a time, each batch's pieces read once (a few titles kept
 * between batches), and the text handed to the response only as fast as the member downloads it. So a statement reads
 * the member's postings from the period's start, never the rest of the ledger, and holds a batch or two in memory
 * (and the keys of the entries written, so that each is written once), never the statement.
 */
import type { AuthContext } from '../../lib/auth-context';
import { csvRow, csvText } from '../../lib/csv';
import { badRequest } from '../../lib/errors';
import { formatMicros, formatStroops } from '../../lib/money';
import type { Schemas } from '../../lib/openapi-types';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { saleEntryIdsOf } from '../bids';
import { amountFor, creditedBy, openMemberEntries, userAccount, type LedgerEntryDoc, type LedgerKind } from '../ledger';
import { checkCanRead, piecesById } from '../wallet';

type StatementLine = Schemas['StatementLine'];
export type StatementFormat = 'csv' | 'json';

export const STATEMENT_MESSAGES = {
  periodMissing: 'Choose a period: a month, or a start and an end date.',
  periodMixed: 'Choose either a month or a start and an end date, not both.',
  periodReversed: 'The start date must be on or before the end date.',
  periodFuture: 'The period must start today or earlier.',
  notADay: 'This day does not exist.',
  tooMany: 'Too many statement downloads. Please wait and try again.',
} as const;

/** Statements per caller: each reads every entry of the member's period, so a script cannot loop on it. */
export const STATEMENT_LIMIT: Limit = { max: 20, windowMs: 60 * 60_000 };

/** Pieces whose title and type are kept between batches; past it, the next batch starts afresh. */
const PIECES_KEPT = 10_000;

interface PieceFacts {
  title: string;
  type: string;
}

type StatementEntry = Pick<LedgerEntryDoc, '_id' | 'kind' | 'at' | 'actorId' | 'contentId' | 'legs' | 'amountMicros'>;

/**
 * Each ledger kind in the member's words. A record over every kind: a new kind does not compile until it is worded.
 * A knack is a play of a song and a view of art or a photo; the piece's type is gone once the piece is removed.
 */
const KIND_IN_WORDS: Record<LedgerKind, (entry: StatementEntry, userId: string, piece: PieceFacts | null) => StatementLine['kind']> = {
  knack: (_entry, _userId, piece) => (!piece ? 'play or view' : piece.type === 'music' ? 'play' : 'view'),
  listing: () => 'listing fee',
  relisting: () => 'relisting fee',
  refund: () => 'refund',
  payout: () => 'payout',
  'cash-out': () => 'cash-out',
  forfeit: () => 'balance given up',
  sale: (entry, userId) => (String(entry.actorId) === userId ? 'purchase' : 'sale'),
};

interface Period {
  /** The first instant, included. */
  start: Date;
  /** The end, excluded: the period's own end, or now for a period that has not ended. */
  end: Date;
  /** How the file is named: `2026-11`, or `2026-01-01-to-2026-11-28`. */
  name: string;
}

/**
 * The first instant of a day written `yyyy-mm-dd`, refusing a day the calendar does not have (JavaScript reads
 * `2025-02-30` as March 2nd, and the contract's date format checks only the digits).
 */
function dayStart(day: string, path: 'from' | 'to'): Date {
  const start = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== day) {
    throw badRequest(STATEMENT_MESSAGES.notADay, [{ path, message: STATEMENT_MESSAGES.notADay }]);
  }
  return start;
}

/** The period a query asks for (UTC): a month, or days from `from` to `to` both included; 400 with the reason when it is not one. */
function periodOf(query: { month?: string; from?: string; to?: string }, now: Date): Period {
  const { month, from, to } = query;
  if (month && (from || to)) throw badRequest(STATEMENT_MESSAGES.periodMixed, [{ path: 'month', message: STATEMENT_MESSAGES.periodMixed }]);
  let start: Date;
  let end: Date;
  let name: string;
  if (month) {
    start = new Date(`${month}-01T00:00:00.000Z`);
    end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    name = month;
  } else if (from && to) {
    start = dayStart(from, 'from');
    end = new Date(dayStart(to, 'to').getTime() + 86_400_000);
    if (end <= start) throw badRequest(STATEMENT_MESSAGES.periodReversed, [{ path: 'to', message: STATEMENT_MESSAGES.periodReversed }]);
    name = `${from}-to-${to}`;
  } else {
    const path = from ? 'to' : 'from';
    throw badRequest(STATEMENT_MESSAGES.periodMissing, [{ path, message: STATEMENT_MESSAGES.periodMissing }]);
  }
  if (start > now) throw badRequest(STATEMENT_MESSAGES.periodFuture, [{ path: month ? 'month' : 'from', message: STATEMENT_MESSAGES.periodFuture }]);
  return { start, end: end > now ? now : end, name };
}

/** A statement line as the file's CSV row: dollars with their 6 decimals, XLM with 7, empty cells for nulls. */
function csvOf(line: StatementLine): string {
  const micros = (value: number | null) => (value === null ? '' : formatMicros(value));
  return csvRow([
    line.at,
    line.entryId ?? '',
    line.kind,
    line.pieceId ?? '',
    line.piece === null ? '' : csvText(line.piece),
    line.triggeredBy ?? '',
    micros(line.grossMicros),
    micros(line.shareMicros),
    formatMicros(line.balanceMicros),
    line.priceStroops === null ? '' : formatStroops(BigInt(line.priceStroops)),
  ]);
}

const CSV_HEADER = csvRow(['date', 'entry', 'kind', 'piece_id', 'piece', 'triggered_by', 'gross_usd', 'share_usd', 'balance_usd', 'price_xlm']);

/** How each format writes the file: what comes before the lines, each line, and what closes it. */
const WRITERS: Record<
  StatementFormat,
  { open(userId: string, period: Period): string; line(line: StatementLine, first: boolean): string; close(balanceMicros: number): string }
> = {
  csv: {
    open: () => CSV_HEADER,
    line: (line) => csvOf(line),
    close: () => '',
  },
  json: {
    // One JSON document, its keys in the order of StatementDocument, written in pieces as the lines come.
    open: (userId, period) =>
      `{"format":"knack-statement/1","memberId":${JSON.stringify(userId)},"periodStart":"${period.start.toISOString()}","periodEnd":"${period.end.toISOString()}","lines":[\n`,
    line: (line, first) => `${first ? '' : ',\n'}${JSON.stringify(line)}`,
    close: (balanceMicros) => `\n],"closingBalanceMicros":${balanceMicros}}\n`,
  },
};

/** The titles and types of the pieces a batch names, read once for the batch; a few thousand are kept for the next. */
function pieceFacts() {
  const known = new Map<string, PieceFacts | null>();
  return {
    async load(entries: StatementEntry[]): Promise<void> {
      const missing = [...new Set(entries.flatMap((entry) => (entry.contentId ? [String(entry.contentId)] : [])))].filter((id) => !known.has(id));
      if (!missing.length) return;
      if (known.size + missing.length > PIECES_KEPT) known.clear();
      const found = await piecesById(missing);
      for (const id of missing) {
        const piece = found.get(id);
        known.set(id, piece ? { title: piece.title, type: piece.type } : null);
      }
    },
    of: (contentId: StatementEntry['contentId']) => (contentId ? (known.get(String(contentId)) ?? null) : null),
  };
}

/** The member's line of one entry, and their balance after it. */
function lineOf(entry: StatementEntry, userId: string, piece: PieceFacts | null, balanceBeforeMicros: number): StatementLine {
  const shareMicros = amountFor([entry], userAccount(userId));
  // The fee paid, the payment refunded, what a payout took: the amount the entry records, else what its legs credited.
  const gross = entry.amountMicros ?? creditedBy(entry);
  const isSale = entry.kind === 'sale';
  return {
    at: entry.at.toISOString(),
    entryId: entry._id,
    kind: KIND_IN_WORDS[entry.kind](entry, userId, piece),
    pieceId: entry.contentId ? String(entry.contentId) : null,
    piece: piece?.title ?? null,
    triggeredBy: String(entry.actorId),
    grossMicros: isSale ? null : gross,
    shareMicros,
    balanceMicros: balanceBeforeMicros + shareMicros,
    priceStroops: isSale ? gross : null,
  };
}

/** The opening line: the balance just before the period. */
const openingLine = (period: Period, balanceMicros: number): StatementLine => ({
  at: period.start.toISOString(),
  entryId: null,
  kind: 'opening balance',
  pieceId: null,
  piece: null,
  triggeredBy: null,
  grossMicros: null,
  shareMicros: null,
  balanceMicros,
  priceStroops: null,
});

/**
 * The statement's text in pieces, one batch of entries each, pulled by the response as it is sent: the opening line,
 * then the period's entries, each with the balance after it.
 */
async function* statementText(
  format: StatementFormat,
  userId: string,
  period: Period,
  openingMicros: number,
  batches: AsyncIterable<StatementEntry[]>,
): AsyncGenerator<string> {
  const writer = WRITERS[format];
  const pieces = pieceFacts();
  let balance = openingMicros;
  yield writer.open(userId, period) + writer.line(openingLine(period, balance), true);
  for await (const batch of batches) {
    await pieces.load(batch);
    let text = '';
    for (const entry of batch) {
      const line = lineOf(entry, userId, pieces.of(entry.contentId), balance);
      balance = line.balanceMicros;
      text += writer.line(line, false);
    }
    yield text;
  }
  yield writer.close(balance);
}

export interface Statement {
  filename: string;
  /** The file's text, written as it is read. */
  body: AsyncIterable<string>;
  /** Closes the read of the entries, however the response ended (sent, failed, or the member gone): safe to repeat. */
  close(): Promise<void>;
}

/**
 * Opens the statement of `userId` for the period `query` names, in `format`: the period checked (400), the caller
 * (the member or an admin, else 404), then the limit counted before anything is read (429). Then the opening balance
 * and where the period starts on the member's chains are read, so that a read that fails still answers an error
 * rather than a file cut short; the entries are read as the response is sent.
 */
export async function openStatement(
  caller: AuthContext,
  userId: string,
  query: { format?: StatementFormat; month?: string; from?: string; to?: string },
  now = new Date(),
): Promise<Statement> {
  const period = periodOf(query, now);
  await checkCanRead(caller, userId);
  await consumeLimit(`statement:${caller.userId}`, STATEMENT_LIMIT, STATEMENT_MESSAGES.tooMany, now);
  const format = query.format ?? 'csv';
  const { openingMicros, batches } = await openMemberEntries(userId, period.start, period.end, await saleEntryIdsOf(userId));
  return {
    filename: `knack-statement-${period.name}.${format}`,
    body: statementText(format, userId, period, openingMicros, batches),
    close: async () => {
      await batches.return(undefined);
    },
  };
}
