/**
 * Flags on the real database: a member's one flag per piece (set, changed, taken back), who may flag, the hold at
 * five members (off the public lists, the owner mailed once, the link still working), and the admins' review
 * (the list of flagged pieces, dismissing, taking down).
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { countHit } from '../../server/lib/rate-limit';
import { ContentModel } from '../../server/modules/contents';
import { FLAG_LIMIT, FLAG_MESSAGES, FlagModel, HOLD_AT_FLAGS } from '../../server/modules/flags';
import { createTestApp } from '../helpers/app';
import { freezeInWindow } from '../helpers/clock';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, type TestMember, type TestPiece } from '../helpers/ledger-factory';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

const UNLAWFUL = 'Somebody unlawfully posted your content';
const WRONG_MARKET = 'Wrong market for content genre';
const INAPPROPRIATE = 'Inappropriate Content: Terms Of Services';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let ana: TestMember;
let bea: TestMember;
let piece: TestPiece;

const flag = (member: TestMember, target: TestPiece, reason: string | null) =>
  request(app).post('/api/v2/flag/set').set(bearer(member)).send({ contentId: target.id, userId: member.id, reason });
const mine = async (member: TestMember, target: TestPiece) =>
  (await request(app).get(`/api/v2/flag/get-mine/${target.id}`).set(bearer(member)).expect(200)).body;
const listedIds = async () => {
  const res = await request(app).get('/api/v2/content/get-all?limit=50').expect(200);
  return (res.body.contents as { id: string }[]).map((content) => content.id);
};
const flaggers = (count: number) => Promise.all(Array.from({ length: count }, () => createMember()));

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
});

afterAll(async () => smtp.stop());

beforeEach(async () => {
  await clearDatabase();
  smtp.received.length = 0;
  [ana, bea] = await Promise.all([createMember(), createMember()]);
  piece = await createPiece(ana, { title: 'Borrowed Sunset' });
});

describe('POST /flag/set and GET /flag/get-mine/{id}', () => {
  it('when Bea flags a piece, changes the reason and takes it back, then she has one flag at most, with the last reason', async () => {
    expect((await flag(bea, piece, UNLAWFUL).expect(200)).body).toEqual({ reason: UNLAWFUL, message: FLAG_MESSAGES.flagged });
    expect(await mine(bea, piece)).toEqual({ reason: UNLAWFUL, message: FLAG_MESSAGES.flagged });
    await flag(bea, piece, WRONG_MARKET).expect(200);
    expect(await FlagModel.find({}).lean()).toEqual([expect.objectContaining({ reason: WRONG_MARKET, resolvedAt: null })]);
    expect((await flag(bea, piece, null).expect(200)).body).toEqual({ reason: null, message: FLAG_MESSAGES.cleared });
    expect(await FlagModel.countDocuments({})).toBe(0);
    expect((await mine(bea, piece)).reason).toBeNull();
  });

  it('when the same member flags at once from two tabs, then one flag remains', async () => {
    await Promise.all([flag(bea, piece, UNLAWFUL).expect(200), flag(bea, piece, INAPPROPRIATE).expect(200)]);
    expect(await FlagModel.countDocuments({})).toBe(1);
  });

  it('when the owner flags, someone flags for another, gives no known reason, or is not signed in, then it is refused', async () => {
    expect((await flag(ana, piece, UNLAWFUL).expect(403)).body.message).toBe(FLAG_MESSAGES.ownPiece);
    const forOther = await request(app).post('/api/v2/flag/set').set(bearer(bea)).send({ contentId: piece.id, userId: ana.id, reason: UNLAWFUL }).expect(403);
    expect(forOther.body.message).toBe(FLAG_MESSAGES.forSelf);
    await flag(bea, piece, 'I just do not like it').expect(400);
    await request(app).post('/api/v2/flag/set').send({ contentId: piece.id, userId: bea.id, reason: UNLAWFUL }).expect(401);
    await request(app).get(`/api/v2/flag/get-mine/${piece.id}`).expect(401);
    expect(await FlagModel.countDocuments({})).toBe(0);
  });

  it('when a member flags past the limit, then 429 with Retry-After', async () => {
    const clock = freezeInWindow(FLAG_LIMIT.windowMs, 1_000);
    try {
      for (let i = 0; i < FLAG_LIMIT.max; i += 1) await countHit(`flag:${bea.id}`, FLAG_LIMIT);
      const res = await flag(bea, piece, UNLAWFUL).expect(429);
      expect(res.body.message).toBe(FLAG_MESSAGES.tooMany);
      expect(Number(res.headers['retry-after'])).toBe(3_599);
    } finally {
      clock.restore();
    }
  });
});

describe('the hold at five members', () => {
  it('when four members flag, the piece stays listed; when the fifth does, it leaves the lists, its link still works, and its owner is mailed once', async () => {
    const members = await flaggers(HOLD_AT_FLAGS);
    for (const member of members.slice(0, HOLD_AT_FLAGS - 1)) await flag(member, piece, UNLAWFUL).expect(200);
    await flag(members[0]!, piece, INAPPROPRIATE).expect(200); // the same member again: still four members
    expect(await listedIds()).toContain(piece.id);

    await flag(members[HOLD_AT_FLAGS - 1]!, piece, WRONG_MARKET).expect(200);
    expect(await listedIds()).not.toContain(piece.id);
    expect((await ContentModel.findById(piece.id).lean())!).toMatchObject({ isHide: true, listed: false, takenDown: false });
    await request(app).get(`/api/v2/content/detail/${piece.id}/for-user/guest`).expect(200);

    const mail = await smtp.nextMailTo(ana.email);
    expect(mail.text).toContain('Borrowed Sunset');
    expect(mail.text).toContain(WRONG_MARKET);
    const sixth = await createMember();
    await flag(sixth, piece, UNLAWFUL).expect(200);
    expect(smtp.received.filter((received) => received.to.includes(ana.email))).toHaveLength(0);
  });

  it('when the fifth and sixth members flag at the same moment, then the owner gets one mail', async () => {
    const members = await flaggers(HOLD_AT_FLAGS + 1);
    for (const member of members.slice(0, HOLD_AT_FLAGS - 1)) await flag(member, piece, UNLAWFUL).expect(200);
    await Promise.all(members.slice(HOLD_AT_FLAGS - 1).map((member) => flag(member, piece, UNLAWFUL).expect(200)));
    await smtp.nextMailTo(ana.email);
    expect(smtp.received.filter((received) => received.to.includes(ana.email))).toHaveLength(0);
  });
});

describe('the admins’ review', () => {
  it('when an admin lists open flags, then each piece comes with its count and reasons; a member gets 403', async () => {
    const other = await createPiece(ana, { title: 'Second' });
    const [cara, dan] = await flaggers(2);
    await flag(bea, piece, UNLAWFUL).expect(200);
    await flag(cara!, piece, UNLAWFUL).expect(200);
    await flag(dan!, piece, WRONG_MARKET).expect(200);
    await flag(bea, other, INAPPROPRIATE).expect(200);
    const admin = await adminMember();
    const res = await request(app).get('/api/v2/flag/get-open').set(bearer(admin)).expect(200);
    expect(res.body.pieces).toEqual([
      expect.objectContaining({
        contentId: piece.id,
        title: 'Borrowed Sunset',
        ownerUsername: ana.username,
        flagsCount: 3,
        held: false,
        reasons: expect.arrayContaining([
          { reason: UNLAWFUL, count: 2 },
          { reason: WRONG_MARKET, count: 1 },
        ]),
      }),
      expect.objectContaining({ contentId: other.id, flagsCount: 1 }),
    ]);
    expect((await request(app).get('/api/v2/flag/get-open').set(bearer(bea)).expect(403)).body.message).toBe(FLAG_MESSAGES.adminsOnly);
  });

  it('when an admin dismisses the flags of a held piece, then it is listed again and a new round can hold it again', async () => {
    const members = await flaggers(HOLD_AT_FLAGS);
    for (const member of members) await flag(member, piece, UNLAWFUL).expect(200);
    expect(await listedIds()).not.toContain(piece.id);
    const admin = await adminMember();
    const res = await request(app).post('/api/v2/flag/resolve').set(bearer(admin)).send({ contentId: piece.id, decision: 'dismiss' }).expect(200);
    expect(res.body.message).toBe(FLAG_MESSAGES.dismissed);
    expect(await listedIds()).toContain(piece.id);
    expect((await request(app).get('/api/v2/flag/get-open').set(bearer(admin)).expect(200)).body.pieces).toEqual([]);
    await request(app).post('/api/v2/flag/resolve').set(bearer(admin)).send({ contentId: piece.id, decision: 'dismiss' }).expect(404);

    // Each member flags again (their flag reopens): a new hold, a new mail.
    await smtp.nextMailTo(ana.email);
    for (const member of members) await flag(member, piece, WRONG_MARKET).expect(200);
    expect(await listedIds()).not.toContain(piece.id);
    await smtp.nextMailTo(ana.email);
  });

  it('when an admin takes a piece down, then nobody but its owner and admins sees it; a member cannot decide', async () => {
    await flag(bea, piece, INAPPROPRIATE).expect(200);
    await request(app).post('/api/v2/flag/resolve').set(bearer(bea)).send({ contentId: piece.id, decision: 'hide' }).expect(403);
    const admin = await adminMember();
    const res = await request(app).post('/api/v2/flag/resolve').set(bearer(admin)).send({ contentId: piece.id, decision: 'hide' }).expect(200);
    expect(res.body.message).toBe(FLAG_MESSAGES.takenDown);
    expect(await listedIds()).not.toContain(piece.id);
    await request(app).get(`/api/v2/content/detail/${piece.id}/for-user/guest`).expect(404);
    await request(app).get(`/api/v2/content/detail/${piece.id}/for-user/${bea.id}`).set(bearer(bea)).expect(404);
    await request(app).get(`/api/v2/content/detail/${piece.id}/for-user/${ana.id}`).set(bearer(ana)).expect(200);
    await flag(bea, piece, UNLAWFUL).expect(404);
  });
});
