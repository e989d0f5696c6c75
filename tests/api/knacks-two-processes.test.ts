/**
 * Knacks through two app processes on one database: a burst of knacks by many members on a few pieces, every
 * knack sent to both processes at once, then one rankings pass. Only what the database holds can keep the
 * counts right: every kept total (reactions, trend and radar scores, the owners' trend scores, reactions per
 * day) equals what the knacks imply, and no knack is paid twice.
 */
import { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { signAccessToken } from '../../server/lib/access-token';
import { ContentModel } from '../../server/modules/contents';
import { refreshRankings } from '../../server/modules/feeds';
import { ReactionDayModel } from '../../server/modules/feeds/testing';
import { balanceOf, LedgerEntryModel, PLATFORM_KNACKS, userAccount } from '../../server/modules/ledger';
import { UserModel } from '../../server/modules/users';
import { createTestApp, testConfig } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { createMember, createPiece, type TestMember, type TestPiece } from '../helpers/ledger-factory';
import { startSecondApp, type SecondApp } from '../helpers/second-process';

useTestDatabase();

const MEMBERS = 30;
const THANKS = 'Thank you for being apart of our Community.';

let app: ReturnType<typeof createTestApp>;
let second: SecondApp;

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp();
  second = await startSecondApp();
}, 60_000);

afterAll(async () => second?.stop());

/** A piece paid out by `payer` (as the listing fee does): its knacks pay its tag's knack price, 90/10 when the payer is not the owner. */
async function paidOut(piece: TestPiece, payer: TestMember): Promise<TestPiece> {
  await ContentModel.updateOne({ _id: piece.id }, { $set: { isPaidOut: true, payerId: new Types.ObjectId(payer.id) } });
  return { ...piece, payerId: payer.id };
}

describe('a burst of knacks split over two app processes', () => {
  it('when many members knack a few pieces, each knack sent to both processes at once, then after one rankings pass every count is exact and no knack is paid twice', async () => {
    const [ana, ben, cara] = await Promise.all([createMember(), createMember(), createMember()]);
    const pieces = [
      // Each knack credits its tag's knack price in force: $0.05 for Photos, $0.99 for the premium tags.
      await paidOut(await createPiece(ana!), ana!), // owner paid: all to Ana
      await paidOut(await createPiece(ana!, { type: 'art', subTag: 'Digital Art' }), cara!), // a supporter paid: 90% Ana, 10% Cara
      await paidOut(await createPiece(ben!, { type: 'art', subTag: 'Digital Art' }), ben!),
      await createPiece(ben!), // not paid out: counts, earns nothing
    ];
    const crowd = await UserModel.insertMany(
      Array.from({ length: MEMBERS }, (_, i) => ({ email: `burst${i}@knack.test`, username: `burst_${i}`, firstName: 'Burst', isActive: true })),
    );
    const auth = testConfig().auth;
    const knack = (member: (typeof crowd)[number], piece: TestPiece, through: Parameters<typeof request>[0]) =>
      request(through)
        .post('/api/v2/knack/add')
        .set({ Authorization: `Bearer ${signAccessToken(auth, { userId: String(member._id), tokenVersion: 0 })}` })
        .send({ contentId: piece.id, userId: String(member._id) });

    // Every (member, piece) twice, once through each process, all at once.
    const sends = crowd.flatMap((member) => pieces.flatMap((piece) => [knack(member, piece, app), knack(member, piece, second.url)]));
    const answers = await Promise.all(sends);
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([]);
    // Per pair, one of its two answers thanks the member and the other says it was already knacked.
    const thanked = answers.filter((a) => a.body.message === THANKS).length;
    expect(thanked).toBe(MEMBERS * pieces.length);

    await refreshRankings();

    const entries = await LedgerEntryModel.find({ kind: 'knack' }, { _id: 1 }).lean();
    const pairs = crowd.flatMap((member) => pieces.map((piece) => `knack:${piece.id}:${String(member._id)}`));
    expect(entries.map((e) => e._id).sort()).toEqual(pairs.sort());

    const counts = await Promise.all(pieces.map(async (p) => (await ContentModel.findById(p.id, { reactedCount: 1, trendScore: 1, radarScore: 1 }).lean())!));
    expect(counts.map((c) => [String(c._id), c.reactedCount, c.trendScore, c.radarScore]).sort()).toEqual(
      pieces.map((p) => [p.id, MEMBERS, MEMBERS, 1 + MEMBERS]).sort(),
    );
    const owners = await Promise.all([ana!, ben!].map(async (m) => (await UserModel.findById(m.id, { trendScore: 1 }).lean())!));
    expect(Object.fromEntries(owners.map((u) => [String(u._id), u.trendScore]))).toEqual({ [ana!.id]: 2 * MEMBERS, [ben!.id]: 2 * MEMBERS });
    const today = new Date().toISOString().slice(0, 10);
    const days = await ReactionDayModel.find({}).lean();
    expect(days.map((d) => [d._id, d.count]).sort()).toEqual(pieces.map((p) => [`${p.id}:${today}`, MEMBERS]).sort());

    // Money to the micro-dollar: $0.05 x 30 and 90% of $0.99 x 30 to Ana, 10% of it to Cara.
    expect(await balanceOf(userAccount(ana!.id))).toBe(MEMBERS * (50_000 + 891_000));
    expect(await balanceOf(userAccount(cara!.id))).toBe(MEMBERS * 99_000);
    expect(await balanceOf(userAccount(ben!.id))).toBe(MEMBERS * 990_000);
    expect(await balanceOf(PLATFORM_KNACKS)).toBe(-MEMBERS * (50_000 + 990_000 + 990_000));
  }, 120_000);
});
