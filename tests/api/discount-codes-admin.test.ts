/**
 * Discount codes as admins run them, on the real database: a code covers the standard tier, the premium tier or
 * both (a code for the other tier is refused with its own message and spends no use), it stops at its expiry,
 * and `code/all` lists every code with its uses (counted, left, and who used it lately and when). Members get
 * 403 on creating and on listing.
 */
import request from 'supertest';
import { ContentModel } from '../../server/modules/contents';
import { DiscountUseModel } from '../../server/modules/payments';
import { createTestApp } from '../helpers/app';
import { freezeDate, type FrozenDate } from '../helpers/clock';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, type TestMember, type TestPiece } from '../helpers/ledger-factory';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let admin: TestMember;
let ana: TestMember;
let bea: TestMember;
let clock: FrozenDate | undefined;

const NOT_VALID = 'This discount code is not valid.';

const createCode = (body: Record<string, unknown>, as: TestMember = admin) => request(app).post('/api/v2/code/create').set(bearer(as)).send(body);
const listCodes = (as: TestMember = admin) => request(app).get('/api/v2/code/all').set(bearer(as));
const redeem = (member: TestMember, piece: TestPiece, code: string) =>
  request(app).post('/api/v2/code/save').set(bearer(member)).send({ userId: member.id, contentId: piece.id, code });
/** A piece of Ana's: standard lists at $0.65, premium (a knack worth $0.99 or more) at $12.40. */
const standardPiece = (title: string) => createPiece(ana, { title, knackRateMicros: 50_000 });
const premiumPiece = (title: string) => createPiece(ana, { title, knackRateMicros: 990_000 });
const isPaidOut = async (piece: TestPiece) => (await ContentModel.findById(piece.id).lean())!.isPaidOut;
const listed = async (code: string) => ((await listCodes().expect(200)).body.codes as { code: string }[]).find((row) => row.code === code);

beforeAll(() => {
  app = createTestApp();
});

beforeEach(async () => {
  await clearDatabase();
  [admin, ana, bea] = await Promise.all([adminMember(), createMember({ username: 'ana_lopes' }), createMember({ username: 'bea_moon' })]);
});

afterEach(() => {
  clock?.restore();
  clock = undefined;
});

describe('POST /code/create', () => {
  it('when an admin creates a code with what it covers and an expiry, then both are kept; without covers it covers both', async () => {
    const expiresAt = '2031-01-31T23:59:59.999Z';
    expect((await createCode({ code: 'spring-std', maxUses: 3, covers: 'standard', expiresAt }).expect(201)).body).toEqual({
      code: 'SPRING-STD',
      covers: 'standard',
      maxUses: 3,
      usesLeft: 3,
      expiresAt,
    });
    expect((await createCode({ code: 'ANYTIER', maxUses: 1 }).expect(201)).body).toEqual({
      code: 'ANYTIER',
      covers: 'both',
      maxUses: 1,
      usesLeft: 1,
      expiresAt: null,
    });
    const refused = await createCode({ code: 'ODDTIER', maxUses: 1, covers: 'gold' }).expect(400);
    expect(refused.body.errors[0].path).toBe('covers');
  });

  it('when a member creates a code, then 403 and nothing is stored', async () => {
    expect((await createCode({ code: 'MINE', maxUses: 1 }, ana).expect(403)).body.message).toBe('Only admins can create discount codes.');
    expect((await listCodes().expect(200)).body.codes).toEqual([]);
  });
});

describe('POST /code/save with what a code covers', () => {
  it('when a standard-only code is used for a premium piece, then it is refused with its own message and no use is spent; a standard piece takes it', async () => {
    await createCode({ code: 'STDONLY', maxUses: 1, covers: 'standard' }).expect(201);
    const premium = await premiumPiece('Gold Hour');
    const refused = await redeem(bea, premium, 'stdonly').expect(400);
    expect(refused.body.message).toBe('This discount code does not cover premium pieces.');
    expect(await isPaidOut(premium)).toBe(false);
    expect(await DiscountUseModel.countDocuments({ code: 'STDONLY' })).toBe(0);

    const standard = await standardPiece('Blue Hour');
    expect((await redeem(bea, standard, 'STDONLY').expect(200)).body.message).toBe('Paid successfully');
    expect(await isPaidOut(standard)).toBe(true);
  });

  it('when a premium-only code is used for a standard piece, then it is refused; a code for both covers either', async () => {
    await createCode({ code: 'PREMONLY', maxUses: 5, covers: 'premium' }).expect(201);
    await createCode({ code: 'BOTHTIERS', maxUses: 5, covers: 'both' }).expect(201);
    const standard = await standardPiece('Small Print');
    expect((await redeem(bea, standard, 'PREMONLY').expect(400)).body.message).toBe('This discount code does not cover standard pieces.');
    await redeem(bea, await premiumPiece('Large Print'), 'PREMONLY').expect(200);
    await redeem(bea, standard, 'BOTHTIERS').expect(200);
    await redeem(bea, await premiumPiece('Huge Print'), 'BOTHTIERS').expect(200);
  });

  it('when a code has expired, then it is refused as not valid, and the list marks it expired', async () => {
    clock = freezeDate();
    await createCode({ code: 'LASTCALL', maxUses: 5, expiresAt: new Date(Date.now() + 60_000).toISOString() }).expect(201);
    await redeem(bea, await standardPiece('Before'), 'LASTCALL').expect(200);
    expect(await listed('LASTCALL')).toMatchObject({ expired: false, uses: 1, usesLeft: 4 });

    clock.advance(61_000);
    const late = await standardPiece('After');
    expect((await redeem(bea, late, 'LASTCALL').expect(404)).body.message).toBe(NOT_VALID);
    expect(await isPaidOut(late)).toBe(false);
    expect(await listed('LASTCALL')).toMatchObject({ expired: true, uses: 1, usesLeft: 4 });
  });
});

describe('GET /code/all', () => {
  it('when codes were used, then the admin sees each code, newest first, with its uses, the uses left, and who used it when', async () => {
    // Now, frozen: the members' access tokens were signed with the real clock and stay valid.
    clock = freezeDate();
    const start = Date.now();
    const inAMonth = new Date(start + 30 * 24 * 3_600_000).toISOString();
    await createCode({ code: 'UNUSED', maxUses: 2, covers: 'premium', expiresAt: inAMonth }).expect(201);
    clock.advance(1000);
    await createCode({ code: 'WELCOME', maxUses: 10 }).expect(201);
    const pieces = await Promise.all(['One', 'Two', 'Three', 'Four', 'Five', 'Six'].map((n) => standardPiece(`Print ${n}`)));
    for (const [index, piece] of pieces.entries()) {
      clock.advance(60_000);
      await redeem(index % 2 ? ana : bea, piece, 'welcome').expect(200);
    }

    const { codes } = (await listCodes().expect(200)).body;
    expect(codes.map((row: { code: string }) => row.code)).toEqual(['WELCOME', 'UNUSED']);
    expect(codes[1]).toEqual({
      code: 'UNUSED',
      covers: 'premium',
      maxUses: 2,
      uses: 0,
      usesLeft: 2,
      expiresAt: inAMonth,
      expired: false,
      createdAt: new Date(start).toISOString(),
      recentUses: [],
    });
    expect(codes[0]).toMatchObject({ code: 'WELCOME', covers: 'both', maxUses: 10, uses: 6, usesLeft: 4, expiresAt: null, expired: false });
    // The five latest uses, newest first: Print Six by Ana (6 minutes after WELCOME was made) back to Print Two.
    expect(codes[0].recentUses).toEqual(
      [6, 5, 4, 3, 2].map((minute) => ({
        userId: minute % 2 ? bea.id : ana.id,
        username: minute % 2 ? 'bea_moon' : 'ana_lopes',
        contentId: pieces[minute - 1]!.id,
        contentTitle: pieces[minute - 1]!.title,
        at: new Date(start + 1000 + minute * 60_000).toISOString(),
      })),
    );
  });

  it('when a member or a visitor asks, then 403 and 401', async () => {
    await createCode({ code: 'SECRET', maxUses: 1 }).expect(201);
    const refused = await listCodes(ana).expect(403);
    expect(refused.body).toMatchObject({ code: 'forbidden', message: 'Only admins can see discount codes.' });
    expect(refused.body.codes).toBeUndefined();
    await request(app).get('/api/v2/code/all').expect(401);
  });
});
