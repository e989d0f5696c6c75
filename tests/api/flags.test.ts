/**
 * Flags on the real database: a member's one flag per piece (set, changed, taken back), who may flag, the hold at
 * five members whose flags count (activated accounts at least 3 days old that have done something besides
 * flagging), released when such a flag goes (taken back, its account deleted), the owner mailed at most once a
 * week per piece, and the admins' review (the list of flagged pieces, dismissing for good until the piece
 * changes, taking down).
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { publicPages } from '../../server/lib/public-pages';
import { countHit } from '../../server/lib/rate-limit';
import { ContentModel } from '../../server/modules/contents';
import { FLAG_LIMIT, FLAG_MESSAGES, FlagModel, HOLD_AT_FLAGS } from '../../server/modules/flags';
import { adjustContentsCount } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { createActiveMember, GOOD_PASSWORD } from '../helpers/auth';
import { freezeDate, freezeInWindow } from '../helpers/clock';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { countingFlaggers, follow, signedInNow } from '../helpers/flaggers';
import { adminMember, bearer, createMember, createPiece, knackBy, type TestMember, type TestPiece } from '../helpers/ledger-factory';
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
const flaggers = (count: number) => countingFlaggers(app, bea, count);
const DAY_MS = 86_400_000;
const REVIEWED = 'Our team has reviewed the flags on this piece. You can flag it again if it changes.';
const dismiss = async (target: TestPiece) => {
  const admin = signedInNow(await adminMember());
  await request(app).post('/api/v2/flag/resolve').set(bearer(admin)).send({ contentId: target.id, decision: 'dismiss' }).expect(200);
};
const describePiece = (owner: TestMember, target: TestPiece, description: string) =>
  request(app).post('/api/v2/content/update-description').set(bearer(owner)).send({ contentId: target.id, description }).expect(200);
const mailsTo = (member: TestMember) => smtp.received.filter((received) => received.to.includes(member.email));

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
  // Written straight to the database, the piece is not in a feed page cached by an earlier test.
  publicPages.clear();
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
        countedFlags: 2,
        held: false,
        reasons: expect.arrayContaining([
          { reason: UNLAWFUL, count: 2 },
          { reason: WRONG_MARKET, count: 1 },
        ]),
      }),
      expect.objectContaining({ contentId: other.id, flagsCount: 1, countedFlags: 0 }),
    ]);
    expect((await request(app).get('/api/v2/flag/get-open').set(bearer(bea)).expect(403)).body.message).toBe(FLAG_MESSAGES.adminsOnly);

    // Who flagged the piece, and why, newest first.
    const who = await request(app).get(`/api/v2/flag/by-piece/${piece.id}`).set(bearer(admin)).expect(200);
    expect(who.body.contentId).toBe(piece.id);
    expect(who.body.flags.map((row: { username: string; reason: string; counts: boolean }) => [row.username, row.reason, row.counts])).toEqual([
      [dan!.username, WRONG_MARKET, true],
      [cara!.username, UNLAWFUL, true],
      [bea.username, UNLAWFUL, false],
    ]);
    expect((await request(app).get(`/api/v2/flag/by-piece/${piece.id}`).set(bearer(bea)).expect(403)).body.message).toBe(FLAG_MESSAGES.adminsOnly);
  });

  it('when an admin dismisses the flags of a held piece, then it is listed again, and the same members flagging again are refused until the piece changes', async () => {
    const members = await flaggers(HOLD_AT_FLAGS);
    for (const member of members) await flag(member, piece, UNLAWFUL).expect(200);
    expect(await listedIds()).not.toContain(piece.id);
    const admin = await adminMember();
    smtp.received.length = 0;
    const res = await request(app).post('/api/v2/flag/resolve').set(bearer(admin)).send({ contentId: piece.id, decision: 'dismiss' }).expect(200);
    // The owner was mailed about the hold, so she is told it is over.
    expect(res.body.message).toBe(FLAG_MESSAGES.dismissedTold);
    expect((await smtp.nextMailTo(ana.email)).subject).toBe('Your piece "Borrowed Sunset" is back');
    expect(await listedIds()).toContain(piece.id);
    expect((await request(app).get('/api/v2/flag/get-open').set(bearer(admin)).expect(200)).body.pieces).toEqual([]);
    await request(app).post('/api/v2/flag/resolve').set(bearer(admin)).send({ contentId: piece.id, decision: 'dismiss' }).expect(404);

    // The same members again, with another reason or taking the flag back: their flags stay dismissed.
    for (const member of members) expect((await flag(member, piece, WRONG_MARKET).expect(409)).body.message).toBe(REVIEWED);
    expect((await flag(members[0]!, piece, null).expect(409)).body.message).toBe(REVIEWED);
    expect(await mine(members[0]!, piece)).toEqual({ reason: UNLAWFUL, message: REVIEWED });
    expect(await listedIds()).toContain(piece.id);
    expect(await FlagModel.countDocuments({ resolvedAt: null })).toBe(0);

    // Once its owner changes the piece, it is a piece nobody has reviewed: the same five hold it again.
    await describePiece(ana, piece, 'Now with a new description');
    expect(await mine(members[0]!, piece)).toEqual({ reason: null, message: FLAG_MESSAGES.none });
    for (const member of members) await flag(member, piece, WRONG_MARKET).expect(200);
    expect(await listedIds()).not.toContain(piece.id);
  });

  it('when an admin takes a piece down, then nobody but its owner and admins sees it; a member cannot decide', async () => {
    await flag(bea, piece, INAPPROPRIATE).expect(200);
    await request(app).post('/api/v2/flag/resolve').set(bearer(bea)).send({ contentId: piece.id, decision: 'hide' }).expect(403);
    const admin = await adminMember();
    const note = 'The photo belongs to another photographer.';
    const res = await request(app).post('/api/v2/flag/resolve').set(bearer(admin)).send({ contentId: piece.id, decision: 'hide', note }).expect(200);
    expect(res.body.message).toBe(FLAG_MESSAGES.takenDownTold);
    const told = await smtp.nextMailTo(ana.email);
    expect(told.subject).toBe('Your piece "Borrowed Sunset" was taken down');
    expect(told.text).toContain(INAPPROPRIATE);
    expect(told.text).toContain(`Our team's note: ${note}`);
    expect(await listedIds()).not.toContain(piece.id);
    await request(app).get(`/api/v2/content/detail/${piece.id}/for-user/guest`).expect(404);
    await request(app).get(`/api/v2/content/detail/${piece.id}/for-user/${bea.id}`).set(bearer(bea)).expect(404);
    await request(app).get(`/api/v2/content/detail/${piece.id}/for-user/${ana.id}`).set(bearer(ana)).expect(200);
    await flag(bea, piece, UNLAWFUL).expect(404);
  });
});

describe('which flags count toward the hold', () => {
  it('when five members of accounts made today flag a piece, then it stays listed, and admins see the five flags, none counted', async () => {
    const members = await Promise.all(Array.from({ length: HOLD_AT_FLAGS }, () => createMember()));
    for (const member of members) await follow(app, member, bea);
    for (const member of members) await flag(member, piece, UNLAWFUL).expect(200);
    expect(await listedIds()).toContain(piece.id);
    const admin = await adminMember();
    const open = (await request(app).get('/api/v2/flag/get-open').set(bearer(admin)).expect(200)).body.pieces;
    expect(open).toEqual([expect.objectContaining({ contentId: piece.id, flagsCount: HOLD_AT_FLAGS, countedFlags: 0, held: false })]);
  });

  it('when five members of 3-day-old accounts that have done nothing but flag flag a piece, then it stays listed', async () => {
    const clock = freezeDate(Date.now() - 3 * DAY_MS - 60_000);
    const members = await Promise.all(Array.from({ length: HOLD_AT_FLAGS }, () => createMember()));
    clock.restore();
    for (const member of members) await flag(signedInNow(member), piece, UNLAWFUL).expect(200);
    expect(await listedIds()).toContain(piece.id);
  });

  it('when 3-day-old accounts flag that follow a member, have a piece listed or knacked the piece, then their flags hold it', async () => {
    const clock = freezeDate(Date.now() - 3 * DAY_MS - 60_000);
    const members = await Promise.all(Array.from({ length: HOLD_AT_FLAGS }, () => createMember()));
    clock.restore();
    const [first, second, third, fourth, fifth] = members.map(signedInNow);
    await follow(app, first!, bea);
    await follow(app, second!, ana);
    await adjustContentsCount(third!.id, 1);
    await knackBy(fourth!, piece);
    for (const member of [first, second, third, fourth]) await flag(member!, piece, UNLAWFUL).expect(200);
    await flag(fifth!, piece, UNLAWFUL).expect(200); // has done nothing: does not count
    expect(await listedIds()).toContain(piece.id);
    await knackBy(fifth!, piece);
    await flag(fifth!, piece, WRONG_MARKET).expect(200);
    expect(await listedIds()).not.toContain(piece.id);
  });
});

describe('flags that go', () => {
  it('when one of the five members whose flags hold a piece takes hers back, then it is listed again; when she flags again, it is held again', async () => {
    const members = await flaggers(HOLD_AT_FLAGS);
    for (const member of members) await flag(member, piece, UNLAWFUL).expect(200);
    expect(await listedIds()).not.toContain(piece.id);
    await flag(members[2]!, piece, null).expect(200);
    expect(await listedIds()).toContain(piece.id);
    expect((await ContentModel.findById(piece.id).lean())!).toMatchObject({ isHide: false, listed: true });
    await flag(members[2]!, piece, UNLAWFUL).expect(200);
    expect(await listedIds()).not.toContain(piece.id);
  });

  it('when one email address signs up, activates, flags and deletes the account five times, then the piece stays listed and no flag is left', async () => {
    const email = `repeat.${piece.id}@example.com`;
    for (let round = 0; round < HOLD_AT_FLAGS; round += 1) {
      // The account is made and used as a member would, days before it flags: its flag counts.
      const clock = freezeDate(Date.now() - 3 * DAY_MS - 60_000);
      let id: string;
      try {
        const { user, token } = await createActiveMember(app, smtp, { email });
        id = user.id;
        await request(app)
          .post('/api/v2/follow/make-following')
          .set('Authorization', `Bearer ${token}`)
          .send({ subjectorId: bea.id, myuserId: id, set: true })
          .expect(200);
      } finally {
        clock.restore();
      }
      const signin = await request(app).post('/api/v2/auth/signin').send({ email, password: GOOD_PASSWORD }).expect(200);
      const member = { id, username: '', email, token: signin.body.token as string };
      await flag(member, piece, UNLAWFUL).expect(200);
      await request(app).post(`/api/v2/user-setting/delete-account/${id}`).set(bearer(member)).send({ password: GOOD_PASSWORD }).expect(200);
    }
    expect(await listedIds()).toContain(piece.id);
    expect(await FlagModel.countDocuments({})).toBe(0);
    expect(mailsTo(ana)).toHaveLength(0);
  });
});

describe('the mail to the owner', () => {
  it('when flags that did not hold a piece are dismissed, then its owner hears nothing of them', async () => {
    await flag(bea, piece, UNLAWFUL).expect(200);
    const res = await request(app)
      .post('/api/v2/flag/resolve')
      .set(bearer(await adminMember()))
      .send({ contentId: piece.id, decision: 'dismiss' })
      .expect(200);
    expect(res.body.message).toBe(FLAG_MESSAGES.dismissed);
    expect(mailsTo(ana)).toHaveLength(0);
  });

  it('when a piece is held, dismissed, changed and held again in one week, then its owner is mailed of the hold once, and of each dismissal; a week later, of the hold again', async () => {
    const members = await flaggers(HOLD_AT_FLAGS);
    const clock = freezeDate();
    try {
      const heldBy = async (reason: string) => {
        for (const member of members) await flag(signedInNow(member), piece, reason).expect(200);
        expect(await listedIds()).not.toContain(piece.id);
      };
      const HELD = 'Your piece "Borrowed Sunset" is being reviewed';
      const BACK = 'Your piece "Borrowed Sunset" is back';
      await heldBy(UNLAWFUL);
      expect((await smtp.nextMailTo(ana.email)).subject).toBe(HELD);
      await dismiss(piece);
      expect((await smtp.nextMailTo(ana.email)).subject).toBe(BACK);
      await describePiece(signedInNow(ana), piece, 'A second description');
      await heldBy(WRONG_MARKET);
      await dismiss(piece);
      expect((await smtp.nextMailTo(ana.email)).subject).toBe(BACK);

      clock.advance(7 * DAY_MS);
      await describePiece(signedInNow(ana), piece, 'A third description');
      await heldBy(INAPPROPRIATE);
      const held = await smtp.nextMailTo(ana.email);
      expect([held.subject, held.text.includes(INAPPROPRIATE)]).toEqual([HELD, true]);
      expect(mailsTo(ana)).toHaveLength(0);
    } finally {
      clock.restore();
    }
  });
});
