/**
 * The earnings statement (`GET /wallet/statement/{id}`) on the real database, over a ledger built by the factories
 * with every kind of entry (knacks on a song, a photo, art and a removed piece; listing and relisting fees; a
 * refund; a monthly payout and a cash-out made by the payout code itself; a sale and a purchase in XLM; a balance
 * given up): every line and its words, the running balance, that the last balance is the wallet's and each payout
 * line is its payout, the same file as CSV and JSON, who may ask, bad periods, and the per-caller limit.
 */
import request from 'supertest';
import { Types } from 'mongoose';
import { anyOf } from '../../server/lib/query';
import { ContentModel } from '../../server/modules/contents';
import { LedgerEntryModel } from '../../server/modules/ledger';
import { PostingModel } from '../../server/modules/ledger/testing';
import { forfeitBalance, PayoutSendModel } from '../../server/modules/wallet';
import { createTestApp, createTestServices } from '../helpers/app';
import { spyOnScans } from '../helpers/read-meter';
import { useTestDatabase } from '../helpers/db';
import {
  adminMember,
  bearer,
  createMember,
  createPiece,
  credit,
  knackBy,
  payListing,
  payRelisting,
  refundPayment,
  sellPiece,
  type TestMember,
  type TestPiece,
} from '../helpers/ledger-factory';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let admin: TestMember;

const at = (month: number, day: number, hour = 10) => new Date(Date.UTC(2025, month - 1, day, hour));
const today = () => new Date().toISOString().slice(0, 10);
const statement = (caller: TestMember | null, id: string, query: Record<string, string>) => {
  const call = request(app).get(`/api/v2/wallet/statement/${id}`).query(query);
  return caller ? call.set(bearer(caller)) : call;
};

interface Line {
  at: string;
  entryId: string | null;
  kind: string;
  pieceId: string | null;
  piece: string | null;
  triggeredBy: string | null;
  grossMicros: number | null;
  shareMicros: number | null;
  balanceMicros: number;
  priceStroops: number | null;
}

/** Reads CSV as a spreadsheet does (RFC 4180: quoted cells may hold commas, quotes doubled, line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') ((cell += '"'), i++);
      else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') (row.push(cell), (cell = ''));
    else if (char === '\r' && text[i + 1] === '\n') {
      rows.push([...row, cell]);
      ((row = []), (cell = ''), i++);
    } else cell += char;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

/** The title a spreadsheet would run as a formula, with a comma, quotes and a line break. */
const TRICKY_TITLE = '=HYPERLINK("x"), said "hi"\nline two';

describe('a statement over every kind of entry', () => {
  let ana: TestMember; // the earner whose statement is read
  let bea: TestMember; // listens and views
  let cara: TestMember; // supports Ana's photo
  let dan: TestMember; // buys from Ana and sells to her
  let tune: TestPiece;
  let sunset: TestPiece;
  let quoted: TestPiece;
  let gone: TestPiece;
  let dawn: TestPiece;
  let lines: Line[];
  const ids: Record<string, string> = {};
  const actors: Record<string, string> = {};

  beforeAll(async () => {
    app = createTestApp();
    admin = await adminMember();
    [ana, bea, cara, dan] = await Promise.all([createMember({ paypal: 'ana@paypal.example' }), createMember(), createMember(), createMember()]);
    const services = createTestServices();

    // January: a listing fee Ana paid, a play, two views at the same instant (one of a piece a supporter paid),
    // a view of a piece since removed, and a large view that the monthly payout of February 1 pays out.
    tune = await payListing(await createPiece(ana, { title: 'Tune', type: 'music' }), ana, 650_000, at(1, 5));
    await knackBy(bea, tune, at(1, 6));
    sunset = await payListing(await createPiece(ana, { title: 'Sunset', type: 'photos' }), cara, 650_000, at(1, 7));
    quoted = await payListing(await createPiece(ana, { title: TRICKY_TITLE, type: 'art' }), ana, 650_000, at(1, 7, 11));
    await knackBy(bea, sunset, at(1, 8));
    await knackBy(bea, quoted, at(1, 8));
    gone = await payListing(await createPiece(ana, { title: 'Gone', type: 'music' }), ana, 650_000, at(1, 9, 9));
    await knackBy(bea, gone, at(1, 9));
    await ContentModel.deleteOne({ _id: gone.id });
    const big = await credit(ana, 30_000_000, at(1, 10));
    ids.big = big._id;
    actors.big = String(big.actorId);
    expect(await services.payouts.runMonthly(at(2, 1, 0))).toMatchObject({ paid: 1, totalMicros: 30_190_000 });

    // February: earnings cashed out (asked and approved by the payout code), a refund, a sale, a purchase and its
    // relisting fee.
    const earned = await credit(ana, 12_000_000, at(2, 10));
    ids.earned = earned._id;
    actors.earned = String(earned.actorId);
    const asked = await services.wallet.requestCashOut({ userId: ana.id, email: ana.email, role: 'user' }, ana.id, at(2, 11));
    await services.wallet.approveCashOut({ userId: admin.id, email: admin.email, role: 'admin' }, asked._id, at(2, 11, 12));
    ids.cashOut = `cash-out:${asked._id}`;
    ids.refund = (await refundPayment(tune, ana, 650_000, at(2, 12)))._id;
    ids.sale = (await sellPiece(tune, ana, dan, 250_000_000, at(2, 13))).entry._id;
    dawn = await payListing(await createPiece(dan, { title: 'Dawn', type: 'photos' }), dan, 650_000, at(2, 13, 12));
    const bought = await sellPiece(dawn, dan, ana, 120_000_000, at(2, 14));
    ids.purchase = bought.entry._id;
    ids.relisting = (await payRelisting(dawn, ana, bought.bidId, 600_000, at(2, 15)))._id;

    // March: what was left given up (an account deletion stopped half-way), then a new view.
    expect(await forfeitBalance(ana.id, at(3, 1))).toBe(5_000);
    const late = await credit(ana, 1_234_567, at(3, 2));
    ids.late = late._id;
    actors.late = String(late.actorId);
    ids.bigPiece = String(big.contentId);
    ids.earnedPiece = String(earned.contentId);
    ids.latePiece = String(late.contentId);

    const res = await statement(ana, ana.id, { format: 'json', from: '2025-01-01', to: today() }).expect(200);
    lines = (res.body as { lines: Line[] }).lines;
  });

  it('when Ana asks for hers from January to today, then every entry of her money is a line in the ledger order, in her words, with her balance after it', () => {
    const line = (values: Partial<Line> & Pick<Line, 'at' | 'kind' | 'balanceMicros'>): Line => ({
      entryId: null,
      pieceId: null,
      piece: null,
      triggeredBy: null,
      grossMicros: null,
      shareMicros: null,
      priceStroops: null,
      ...values,
    });
    const earner = (key: 'big' | 'late' | 'earned') => ({
      pieceId: ids[`${key}Piece`]!,
      piece: expect.stringMatching(/^Earner /) as unknown as string,
      triggeredBy: actors[key]!,
    });
    expect(lines).toEqual([
      line({ at: '2025-01-01T00:00:00.000Z', kind: 'opening balance', balanceMicros: 0 }),
      line({
        at: at(1, 5).toISOString(),
        entryId: `listing:${tune.id}`,
        kind: 'listing fee',
        pieceId: tune.id,
        piece: 'Tune',
        triggeredBy: ana.id,
        grossMicros: 650_000,
        shareMicros: 0,
        balanceMicros: 0,
      }),
      line({
        at: at(1, 6).toISOString(),
        entryId: `knack:${tune.id}:${bea.id}`,
        kind: 'play',
        pieceId: tune.id,
        piece: 'Tune',
        triggeredBy: bea.id,
        grossMicros: 50_000,
        shareMicros: 50_000,
        balanceMicros: 50_000,
      }),
      line({
        at: at(1, 7, 11).toISOString(),
        entryId: `listing:${quoted.id}`,
        kind: 'listing fee',
        pieceId: quoted.id,
        piece: TRICKY_TITLE,
        triggeredBy: ana.id,
        grossMicros: 650_000,
        shareMicros: 0,
        balanceMicros: 50_000,
      }),
      // Two knacks of the same instant: by entry id, so the photo (made first, the smaller id) comes first.
      line({
        at: at(1, 8).toISOString(),
        entryId: `knack:${sunset.id}:${bea.id}`,
        kind: 'view',
        pieceId: sunset.id,
        piece: 'Sunset',
        triggeredBy: bea.id,
        grossMicros: 50_000,
        shareMicros: 45_000,
        balanceMicros: 95_000,
      }),
      line({
        at: at(1, 8).toISOString(),
        entryId: `knack:${quoted.id}:${bea.id}`,
        kind: 'view',
        pieceId: quoted.id,
        piece: TRICKY_TITLE,
        triggeredBy: bea.id,
        grossMicros: 50_000,
        shareMicros: 50_000,
        balanceMicros: 145_000,
      }),
      line({
        at: at(1, 9, 9).toISOString(),
        entryId: `listing:${gone.id}`,
        kind: 'listing fee',
        pieceId: gone.id,
        triggeredBy: ana.id,
        grossMicros: 650_000,
        shareMicros: 0,
        balanceMicros: 145_000,
      }),
      line({
        at: at(1, 9).toISOString(),
        entryId: `knack:${gone.id}:${bea.id}`,
        kind: 'play or view',
        pieceId: gone.id,
        piece: null,
        triggeredBy: bea.id,
        grossMicros: 50_000,
        shareMicros: 50_000,
        balanceMicros: 195_000,
      }),
      line({
        at: at(1, 10).toISOString(),
        entryId: ids.big!,
        kind: 'view',
        ...earner('big'),
        grossMicros: 30_000_000,
        shareMicros: 30_000_000,
        balanceMicros: 30_195_000,
      }),
      line({
        at: at(2, 1, 0).toISOString(),
        entryId: `payout:${ana.id}:2025-01`,
        kind: 'payout',
        triggeredBy: ana.id,
        grossMicros: 30_190_000,
        shareMicros: -30_190_000,
        balanceMicros: 5_000,
      }),
      line({
        at: at(2, 10).toISOString(),
        entryId: ids.earned!,
        kind: 'view',
        ...earner('earned'),
        grossMicros: 12_000_000,
        shareMicros: 12_000_000,
        balanceMicros: 12_005_000,
      }),
      line({
        at: at(2, 11, 12).toISOString(),
        entryId: ids.cashOut!,
        kind: 'cash-out',
        triggeredBy: ana.id,
        grossMicros: 12_000_000,
        shareMicros: -12_000_000,
        balanceMicros: 5_000,
      }),
      line({
        at: at(2, 12).toISOString(),
        entryId: ids.refund!,
        kind: 'refund',
        pieceId: tune.id,
        piece: 'Tune',
        triggeredBy: ana.id,
        grossMicros: 650_000,
        shareMicros: 0,
        balanceMicros: 5_000,
      }),
      line({
        at: at(2, 13).toISOString(),
        entryId: ids.sale!,
        kind: 'sale',
        pieceId: tune.id,
        piece: 'Tune',
        triggeredBy: dan.id,
        shareMicros: 0,
        balanceMicros: 5_000,
        priceStroops: 250_000_000,
      }),
      line({
        at: at(2, 14).toISOString(),
        entryId: ids.purchase!,
        kind: 'purchase',
        pieceId: dawn.id,
        piece: 'Dawn',
        triggeredBy: ana.id,
        shareMicros: 0,
        balanceMicros: 5_000,
        priceStroops: 120_000_000,
      }),
      line({
        at: at(2, 15).toISOString(),
        entryId: ids.relisting!,
        kind: 'relisting fee',
        pieceId: dawn.id,
        piece: 'Dawn',
        triggeredBy: ana.id,
        grossMicros: 600_000,
        shareMicros: 0,
        balanceMicros: 5_000,
      }),
      line({
        at: at(3, 1).toISOString(),
        entryId: `forfeit:${ana.id}`,
        kind: 'balance given up',
        triggeredBy: ana.id,
        grossMicros: 5_000,
        shareMicros: -5_000,
        balanceMicros: 0,
      }),
      line({
        at: at(3, 2).toISOString(),
        entryId: ids.late!,
        kind: 'view',
        ...earner('late'),
        grossMicros: 1_234_567,
        shareMicros: 1_234_567,
        balanceMicros: 1_234_567,
      }),
    ]);
  });

  it('when the lines are checked against the ledger, then they hold an entry of every kind the ledger has', async () => {
    const entryIds = lines.flatMap((l) => (l.entryId ? [l.entryId] : []));
    const kinds = await LedgerEntryModel.distinct('kind', { _id: anyOf(entryIds) });
    expect([...kinds].sort()).toEqual([...(LedgerEntryModel.schema.path('kind') as unknown as { enumValues: string[] }).enumValues].sort());
  });

  it('when it is reconciled, then each balance is the one before plus the share, the last is the wallet balance, and each payout line is its payout', async () => {
    for (let i = 1; i < lines.length; i++) expect(lines[i]!.balanceMicros).toBe(lines[i - 1]!.balanceMicros + lines[i]!.shareMicros!);
    const wallet = await request(app).get(`/api/v2/wallet/summary/${ana.id}`).set(bearer(ana)).expect(200);
    expect(lines.at(-1)!.balanceMicros).toBe(wallet.body.balanceMicros);
    const paidOut = lines.filter((l) => l.kind === 'payout' || l.kind === 'cash-out');
    expect(paidOut).toHaveLength(2);
    for (const l of paidOut) {
      const send = await PayoutSendModel.findById(l.entryId).lean();
      expect(send).toMatchObject({ userId: new Types.ObjectId(ana.id), amountMicros: l.grossMicros, status: 'sent' });
      expect(l.shareMicros).toBe(-send!.amountMicros);
    }
    expect(wallet.body.paidOutMicros).toBe(-paidOut.reduce((sum, l) => sum + l.shareMicros!, 0));
  });

  it('when she asks for the JSON document, then it names her, the period up to now, and closes with the last balance', async () => {
    const before = Date.now();
    const res = await statement(ana, ana.id, { format: 'json', from: '2025-01-01', to: today() }).expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename=knack-statement-2025-01-01-to-${today()}.json`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.body)).toEqual(['format', 'memberId', 'periodStart', 'periodEnd', 'lines', 'closingBalanceMicros']);
    expect(res.body).toMatchObject({ format: 'knack-statement/1', memberId: ana.id, periodStart: '2025-01-01T00:00:00.000Z', closingBalanceMicros: 1_234_567 });
    // A period that has not ended stops now.
    expect(Date.parse(res.body.periodEnd)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(res.body.periodEnd)).toBeLessThanOrEqual(Date.now());
  });

  it('when she asks for January as CSV, then the rows are those lines in dollars with 6 decimals, and a title that looks like a formula is quoted and defused', async () => {
    const res = await statement(ana, ana.id, { month: '2025-01' }).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename=knack-statement-2025-01.csv');
    expect(res.headers['content-length']).toBeUndefined(); // streamed, never measured first
    const big = `${ids.big},view,${ids.bigPiece},${(await ContentModel.findById(ids.bigPiece).lean())!.title},${actors.big}`;
    expect(res.text).toBe(
      [
        'date,entry,kind,piece_id,piece,triggered_by,gross_usd,share_usd,balance_usd,price_xlm',
        '2025-01-01T00:00:00.000Z,,opening balance,,,,,,0.000000,',
        `2025-01-05T10:00:00.000Z,listing:${tune.id},listing fee,${tune.id},Tune,${ana.id},0.650000,0.000000,0.000000,`,
        `2025-01-06T10:00:00.000Z,knack:${tune.id}:${bea.id},play,${tune.id},Tune,${bea.id},0.050000,0.050000,0.050000,`,
        `2025-01-07T11:00:00.000Z,listing:${quoted.id},listing fee,${quoted.id},"'=HYPERLINK(""x""), said ""hi""\nline two",${ana.id},0.650000,0.000000,0.050000,`,
        `2025-01-08T10:00:00.000Z,knack:${sunset.id}:${bea.id},view,${sunset.id},Sunset,${bea.id},0.050000,0.045000,0.095000,`,
        `2025-01-08T10:00:00.000Z,knack:${quoted.id}:${bea.id},view,${quoted.id},"'=HYPERLINK(""x""), said ""hi""\nline two",${bea.id},0.050000,0.050000,0.145000,`,
        `2025-01-09T09:00:00.000Z,listing:${gone.id},listing fee,${gone.id},,${ana.id},0.650000,0.000000,0.145000,`,
        `2025-01-09T10:00:00.000Z,knack:${gone.id}:${bea.id},play or view,${gone.id},,${bea.id},0.050000,0.050000,0.195000,`,
        `2025-01-10T10:00:00.000Z,${big},30.000000,30.000000,30.195000,`,
        '',
      ].join('\r\n'),
    );
    // Read back as a spreadsheet reads it, the title is whole, its formula defused.
    expect(parseCsv(res.text)[4]![4]).toBe(`'${TRICKY_TITLE}`);
  });

  it('when she asks for February as CSV, then it opens with January’s closing balance and shows the sale’s price in XLM', async () => {
    const rows = parseCsv((await statement(ana, ana.id, { month: '2025-02' }).expect(200)).text);
    expect(rows[1]).toEqual(['2025-02-01T00:00:00.000Z', '', 'opening balance', '', '', '', '', '', '30.195000', '']);
    expect(rows.slice(2).map((row) => [row[2], row[6], row[7], row[8], row[9]])).toEqual([
      ['payout', '30.190000', '-30.190000', '0.005000', ''],
      ['view', '12.000000', '12.000000', '12.005000', ''],
      ['cash-out', '12.000000', '-12.000000', '0.005000', ''],
      ['refund', '0.650000', '0.000000', '0.005000', ''],
      ['sale', '', '0.000000', '0.005000', '25.0000000'],
      ['purchase', '', '0.000000', '0.005000', '12.0000000'],
      ['relisting fee', '0.600000', '0.000000', '0.005000', ''],
    ]);
  });

  it('when the others ask for theirs, then each sees only their own money: the supporter her share and fee, the buyer his sale and purchase, the viewer nothing', async () => {
    const kindsOf = async (member: TestMember) =>
      ((await statement(member, member.id, { format: 'json', from: '2025-01-01', to: today() }).expect(200)).body as { lines: Line[] }).lines.map((l) => [
        l.kind,
        l.shareMicros,
        l.balanceMicros,
      ]);
    expect(await kindsOf(cara)).toEqual([
      ['opening balance', null, 0],
      ['listing fee', 0, 0],
      ['view', 5_000, 5_000],
    ]);
    expect(await kindsOf(dan)).toEqual([
      ['opening balance', null, 0],
      ['purchase', 0, 0],
      ['listing fee', 0, 0],
      ['sale', 0, 0],
    ]);
    expect(await kindsOf(bea)).toEqual([['opening balance', null, 0]]);
  });

  it('when an admin asks for Ana’s, then it is hers; another member’s id answers 404 to a member, and no token 401', async () => {
    const asAdmin = await statement(admin, ana.id, { format: 'json', month: '2025-02' }).expect(200);
    expect(asAdmin.body.memberId).toBe(ana.id);
    expect(asAdmin.body.lines).toEqual((await statement(ana, ana.id, { format: 'json', month: '2025-02' }).expect(200)).body.lines);
    expect((await statement(bea, ana.id, { month: '2025-02' }).expect(404)).body).toMatchObject({ message: 'This member was not found.', code: 'not_found' });
    expect((await statement(admin, new Types.ObjectId().toHexString(), { month: '2025-02' }).expect(404)).body.message).toBe('This member was not found.');
    await statement(null, ana.id, { month: '2025-02' }).expect(401);
  });
});

describe('bad periods and the limit', () => {
  let eve: TestMember;

  beforeAll(async () => {
    app ??= createTestApp();
    eve = await createMember();
  });

  it.each([
    [{}, 'Choose a period: a month, or a start and an end date.', 'from'],
    [{ from: '2025-01-01' }, 'Choose a period: a month, or a start and an end date.', 'to'],
    [{ to: '2025-01-31' }, 'Choose a period: a month, or a start and an end date.', 'from'],
    [{ month: '2025-01', from: '2025-01-01', to: '2025-01-31' }, 'Choose either a month or a start and an end date, not both.', 'month'],
    [{ from: '2025-02-01', to: '2025-01-31' }, 'The start date must be on or before the end date.', 'to'],
    [{ month: '2999-01' }, 'The period must start today or earlier.', 'month'],
    [{ from: '2999-01-01', to: '2999-01-02' }, 'The period must start today or earlier.', 'from'],
    [{ from: '2025-02-30', to: '2025-03-01' }, 'This day does not exist.', 'from'],
    [{ from: '2025-02-01', to: '2025-02-29' }, 'This day does not exist.', 'to'],
  ])('when the period is %j, then 400 with its reason', async (query, message, path) => {
    const res = await statement(eve, eve.id, query).expect(400);
    expect(res.body).toMatchObject({ message, code: 'bad_request', errors: [{ path, message }] });
  });

  it.each([
    [{ month: '2025-13' }, 'month'],
    [{ month: '2025-1' }, 'month'],
    [{ from: '01/02/2025', to: '2025-03-01' }, 'from'],
    [{ month: '2025-01', format: 'xml' }, 'format'],
  ])('when the query %j is not what the contract allows, then 400 naming the field', async (query, path) => {
    const res = await statement(eve, eve.id, query).expect(400);
    expect(res.body.code).toBe('bad_request');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('when the id is not an id, then 400', async () => {
    await statement(eve, 'not-an-id', { month: '2025-01' }).expect(400);
  });

  it('when 25 statements are asked for at once, then 20 are sent and 5 refused with 429 and Retry-After, counted before any is read', async () => {
    const caller = await createMember();
    const answers = await Promise.all(Array.from({ length: 25 }, () => statement(caller, caller.id, { month: '2025-01' })));
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(20).fill(200), ...Array(5).fill(429)]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.message).toBe('Too many statement downloads. Please wait and try again.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // A bad period is refused before it counts, so it does not use up the caller's downloads.
    const other = await createMember();
    for (let i = 0; i < 25; i++) await statement(other, other.id, { from: '2025-02-01', to: '2025-01-01' }).expect(400);
    await statement(other, other.id, { month: '2025-01' }).expect(200);
  });
});

describe("a statement read from the member's running balance, not from the ledger", () => {
  let eva: TestMember;
  let lines: Line[];
  let postingReads: number;
  let ledgerPasses: number;
  let scans: string[];
  const may = { start: at(5, 1, 0), end: at(6, 1, 0) };
  const posted: Record<string, string> = {};

  beforeAll(async () => {
    app ??= createTestApp();
    eva = await createMember();
    const piece = { ...(await createPiece(eva, { title: 'Echo', type: 'music', knackRateMicros: 1_000_000 })), payerId: eva.id };
    const play = (label: string, when: Date) => knackBy(new Types.ObjectId().toHexString(), piece, when).then((entry) => void (posted[label] = entry._id));
    // Forty plays in April, in their order; then plays appended out of their time's order, as posts that race or
    // a repair after a crash append them: an April play after a May one, a May play after a June one.
    for (let i = 0; i < 40; i++) await play(`april ${i}`, at(4, 1 + (i % 28), 1 + Math.floor(i / 28)));
    await play('may 10', at(5, 10));
    await play('april 30, late', at(4, 30, 23));
    await play('may 20', at(5, 20));
    await play('june 2', at(6, 2));
    await play('may 31, late', at(5, 31, 23));
    await play('june 5', at(6, 5));

    const postings = jest.spyOn(PostingModel.collection, 'findOne');
    const aggregates = jest.spyOn(LedgerEntryModel, 'aggregate');
    const reads = spyOnScans('ledger_entries', 'ledger_postings', 'contents');
    const res = await statement(eva, eva.id, { format: 'json', month: '2025-05' }).expect(200);
    postingReads = postings.mock.calls.length;
    scans = reads.scans().map((scan) => `${scan.collection} ${scan.filter}`);
    ledgerPasses = scans.length + aggregates.mock.calls.length;
    [postings, aggregates].forEach((spy) => spy.mockRestore());
    reads.restore();
    lines = (res.body as { lines: Line[] }).lines;
  });

  it('when Eva asks for May, then it opens with every April play (the late one too) and lists the May plays in time order, each balance adding up', () => {
    expect(lines.map((line) => [line.kind, line.entryId, line.balanceMicros])).toEqual([
      ['opening balance', null, 41_000_000],
      ['play', posted['may 10'], 42_000_000],
      ['play', posted['may 20'], 43_000_000],
      ['play', posted['may 31, late'], 44_000_000],
    ]);
    expect(lines.slice(1).every((line) => line.at >= may.start.toISOString() && line.at < may.end.toISOString())).toBe(true);
  });

  it('when it is read, then no pass over the ledger or the pieces is made, and the postings read are a few halvings and the month, not her history', () => {
    expect(scans).toEqual([]);
    expect(ledgerPasses).toBe(0);
    // 46 postings: the halving to May's start (about 6), the posting before it, her chain's end, and the 6 from there on.
    expect(postingReads).toBeGreaterThan(0);
    expect(postingReads).toBeLessThan(25);
  });

  it('when she downloads her data, then its ledger part is every play of hers in time order, read the same way', async () => {
    const passes = [jest.spyOn(LedgerEntryModel, 'find'), jest.spyOn(LedgerEntryModel, 'aggregate')];
    const res = await request(app).get(`/api/v2/user-setting/download-data/${eva.id}`).set(bearer(eva)).expect(200);
    const calls = passes.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    passes.forEach((spy) => spy.mockRestore());
    const entries = (res.body as { ledgerEntries: { id: string; at: string; balanceChangeMicros: number }[] }).ledgerEntries;
    expect(entries).toHaveLength(46);
    expect(entries.map((entry) => entry.at)).toEqual(entries.map((entry) => entry.at).sort());
    expect(entries.map((entry) => entry.id)).toEqual(expect.arrayContaining(Object.values(posted)));
    expect(entries.every((entry) => entry.balanceChangeMicros === 1_000_000)).toBe(true);
    expect(calls).toBe(0);
  });
});
