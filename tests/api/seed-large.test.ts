/**
 * The large data set's builder (scripts/seed-large.ts, `npm run seed:large`) at a tiny size on the real database: the
 * counts asked for, documents as the modules write them (keys, legs summing to zero, numbered chains without gaps,
 * both boxes of every thread), the totals kept on members and pieces equal to their facts, every kept state equal to
 * its rebuild, what the API answers from them, and the same documents again on a second run.
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { keptStates } from '../../server/jobs/kept-states';
import { signAccessToken } from '../../server/lib/access-token';
import { CommentModel } from '../../server/modules/comments';
import { ContentModel } from '../../server/modules/contents';
import { FollowModel } from '../../server/modules/follows';
import { journalEnd, LedgerEntryModel, type LedgerEntryDoc } from '../../server/modules/ledger';
import { BoxModel, MessageModel, ThreadModel } from '../../server/modules/messages';
import { UserModel } from '../../server/modules/users';
import { MIN_PAYOUT_MICROS, PayoutSendModel } from '../../server/modules/wallet';
import { buildLargeDataSet, sizesAt, type Sizes } from '../../scripts/seed-large';
import { createTestApp, testConfig } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';

useTestDatabase();

const SIZES: Sizes = { members: 200, pieces: 150, ledger: 2_000, follows: 900, comments: 300, messages: 250 };
const NOW = new Date('2026-11-15T00:00:00Z');
const LARGE = /@large\.knack\.example$/;

const countBy = <T>(items: T[], key: (item: T) => string) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};

let firstRun: Awaited<ReturnType<typeof buildLargeDataSet>>;

beforeAll(async () => {
  await seedReferenceData();
  firstRun = await buildLargeDataSet({ sizes: SIZES, now: NOW });
}, 120_000);

test('the sizes scale from the full ones, each overridable', () => {
  expect(sizesAt(0.1)).toEqual({ members: 10_000, pieces: 10_000, ledger: 100_000, follows: 50_000, comments: 20_000, messages: 10_000 });
  expect(sizesAt(1, { follows: 7 })).toMatchObject({ members: 100_000, ledger: 1_000_000, follows: 7 });
});

test('it writes as many of each as asked', async () => {
  expect(await UserModel.countDocuments({ email: LARGE })).toBe(SIZES.members);
  expect(await ContentModel.countDocuments({})).toBe(SIZES.pieces);
  expect(await LedgerEntryModel.countDocuments({})).toBe(SIZES.ledger);
  expect(await FollowModel.countDocuments({})).toBe(SIZES.follows);
  expect(await CommentModel.countDocuments({})).toBe(SIZES.comments);
  expect(await MessageModel.countDocuments({})).toBe(SIZES.messages);
  expect(firstRun.inserted).toMatchObject({ users: SIZES.members, contents: SIZES.pieces, ledger_entries: SIZES.ledger, follows: SIZES.follows });
});

test('every ledger entry is as the ledger posts it: keyed, its legs summing to zero, its accounts those of its legs, no balance below zero', async () => {
  const entries = await LedgerEntryModel.find({}).lean<LedgerEntryDoc[]>();
  const pieces = new Map((await ContentModel.find({}, { ownerId: 1, payerId: 1, isPaidOut: 1 }).lean()).map((piece) => [String(piece._id), piece]));
  const kinds = countBy(entries, (entry) => entry.kind);
  expect(kinds.get('knack')).toBeGreaterThan(SIZES.ledger / 2);
  expect(kinds.get('listing')).toBe([...pieces.values()].filter((piece) => piece.isPaidOut).length);
  expect(kinds.get('payout')).toBeGreaterThan(0);
  const balances = new Map<string, number>();
  for (const entry of entries) {
    expect(entry.legs.reduce((sum, leg) => sum + leg.amountMicros, 0)).toBe(0);
    expect([...entry.accounts].sort()).toEqual([...new Set(entry.legs.map((leg) => leg.account))].sort());
    for (const leg of entry.legs) expect(Number.isSafeInteger(leg.amountMicros)).toBe(true);
    for (const leg of entry.legs) balances.set(leg.account, (balances.get(leg.account) ?? 0) + leg.amountMicros);
    const piece = entry.contentId ? pieces.get(String(entry.contentId)) : undefined;
    if (entry.kind === 'knack') {
      expect(entry._id).toBe(`knack:${String(entry.contentId)}:${String(entry.actorId)}`);
      expect(String(piece!.ownerId)).not.toBe(String(entry.actorId));
      // A knack of a piece not monetized pays nothing; one of a monetized piece pays its owner (and 10% to a supporter).
      expect(entry.legs.length === 0).toBe(!piece!.isPaidOut);
      if (piece!.isPaidOut) expect(entry.legs.find((leg) => leg.account === `user:${String(piece!.ownerId)}`)!.amountMicros).toBeGreaterThan(0);
    }
    if (entry.kind === 'listing') {
      expect(entry._id).toBe(`listing:${String(entry.contentId)}`);
      expect(String(entry.actorId)).toBe(String(piece!.payerId));
    }
    if (entry.kind === 'payout') {
      expect(entry._id).toMatch(/^payout:[0-9a-f]{24}:2026-10$/);
      expect(entry.amountMicros).toBeGreaterThanOrEqual(MIN_PAYOUT_MICROS);
      expect(await PayoutSendModel.exists({ _id: entry._id, status: 'sent', amountMicros: entry.amountMicros })).toBeTruthy();
    }
  }
  for (const [account, balance] of balances) if (account.startsWith('user:')) expect(balance).toBeGreaterThanOrEqual(0);
});

test('every follow is keyed by its pair of existing members, never oneself', async () => {
  const members = new Set((await UserModel.find({}, { _id: 1 }).lean()).map((user) => String(user._id)));
  for (const follow of await FollowModel.find({}).lean()) {
    expect(follow._id).toBe(`${String(follow.followerId)}:${String(follow.followedId)}`);
    expect(members.has(String(follow.followerId)) && members.has(String(follow.followedId))).toBe(true);
    expect(String(follow.followerId)).not.toBe(String(follow.followedId));
  }
});

test("comments are each piece's numbered chain, without gaps", async () => {
  const comments = await CommentModel.find({}, { contentId: 1 }).lean();
  for (const [contentId, count] of countBy(comments, (comment) => String(comment.contentId))) {
    const numbers = comments
      .filter((comment) => String(comment.contentId) === contentId)
      .map((comment) => Number(comment._id.slice(contentId.length + 1)))
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  }
});

test('every thread has its messages numbered 1..n between its two members, and one box per member at its last message', async () => {
  const [threads, messages, boxes] = await Promise.all([ThreadModel.find({}).lean(), MessageModel.find({}).lean(), BoxModel.find({}).lean()]);
  expect(boxes).toHaveLength(threads.length * 2);
  for (const thread of threads) {
    const own = messages.filter((message) => message.threadId === thread._id).sort((a, b) => a.at.getTime() - b.at.getTime());
    expect(own.map((message) => message._id)).toEqual(own.map((_, n) => `${thread._id}-${n + 1}`));
    const members = thread.memberIds.map(String);
    for (const message of own) expect([String(message.senderId), String(message.receiverId)].sort()).toEqual([...members].sort());
    for (const member of members) {
      const box = boxes.find((b) => b._id === `${thread._id}:${member}`)!;
      expect(box).toMatchObject({ threadId: thread._id, lastN: own.length, lastText: own.at(-1)!.text });
      expect(String(box.lastSenderId)).toBe(String(own.at(-1)!.senderId));
      expect(box.readN).toBeLessThanOrEqual(box.lastN);
      if (String(own.at(-1)!.senderId) === member) expect(box.readN).toBe(box.lastN);
    }
  }
});

test('the totals kept on members and pieces equal their facts', async () => {
  const [users, pieces, knacks, follows, comments] = await Promise.all([
    UserModel.find({ email: LARGE }, { contentsCount: 1, followersCount: 1, followingsCount: 1 }).lean(),
    ContentModel.find({}, { ownerId: 1, listed: 1, reactedCount: 1, commentsCount: 1 }).lean(),
    LedgerEntryModel.find({ kind: 'knack' }, { contentId: 1 }).lean(),
    FollowModel.find({}, { followerId: 1, followedId: 1 }).lean(),
    CommentModel.find({}, { contentId: 1 }).lean(),
  ]);
  const reacted = countBy(knacks, (knack) => String(knack.contentId));
  const commented = countBy(comments, (comment) => String(comment.contentId));
  for (const piece of pieces) {
    expect(piece.reactedCount).toBe(reacted.get(String(piece._id)) ?? 0);
    expect(piece.commentsCount).toBe(commented.get(String(piece._id)) ?? 0);
  }
  const followers = countBy(follows, (follow) => String(follow.followedId));
  const followings = countBy(follows, (follow) => String(follow.followerId));
  const listed = countBy(
    pieces.filter((piece) => piece.listed),
    (piece) => String(piece.ownerId),
  );
  for (const user of users) {
    expect(user.followersCount).toBe(followers.get(String(user._id)) ?? 0);
    expect(user.followingsCount).toBe(followings.get(String(user._id)) ?? 0);
    expect(user.contentsCount).toBe(listed.get(String(user._id)) ?? 0);
  }
  // A few artists have most of the followers.
  const top = [...followers.values()].sort((a, b) => b - a);
  expect(top.slice(0, Math.ceil(SIZES.members / 20)).reduce((sum, n) => sum + n, 0)).toBeGreaterThan(SIZES.follows / 2);
});

// Each check reads every fact of its state: about twenty of them, a few seconds each on the embedded database.
test('every kept state equals its rebuild from the facts', async () => {
  for (const state of keptStates) expect({ state: state.name, differences: (await state.check()).differences }).toEqual({ state: state.name, differences: [] });
}, 300_000);

test("the API answers from them: a famous artist's follow counts and a member's wallet", async () => {
  const app = createTestApp();
  const follows = await FollowModel.find({}, { followedId: 1 }).lean();
  const [artistId, followersCount] = [...countBy(follows, (follow) => String(follow.followedId))].sort((a, b) => b[1] - a[1])[0]!;
  const answer = await request(app).get(`/api/v2/follow/get-count/${artistId}`).expect(200);
  expect(answer.body).toMatchObject({ followersCount });

  // The member with the largest balance: what the wallet shows is the sum of their legs.
  const balances = new Map<string, number>();
  for (const entry of await LedgerEntryModel.find({}, { legs: 1 }).lean<LedgerEntryDoc[]>())
    for (const leg of entry.legs)
      if (leg.account.startsWith('user:')) balances.set(leg.account.slice(5), (balances.get(leg.account.slice(5)) ?? 0) + leg.amountMicros);
  const [memberId, balanceMicros] = [...balances].sort((a, b) => b[1] - a[1])[0]!;
  const token = signAccessToken(testConfig().auth, { userId: memberId, tokenVersion: 0 });
  const wallet = await request(app)
    .get(`/api/v2/wallet/summary/${memberId}`)
    .set({ Authorization: `Bearer ${token}` })
    .expect(200);
  expect(wallet.body).toMatchObject({ balanceMicros });
  expect(balanceMicros).toBeGreaterThan(0);
});

test('the entries are numbered in the journal in the ledger order, as posting them one by one would have', async () => {
  const entries = await LedgerEntryModel.find({}, { at: 1, seq: 1 }).sort({ at: 1, _id: 1 }).lean<LedgerEntryDoc[]>();
  expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, i) => i + 1));
  expect(await journalEnd()).toBe(SIZES.ledger);
});

test('a second run writes nothing new: the same options make the same documents', async () => {
  const again = await buildLargeDataSet({ sizes: SIZES, now: NOW });
  expect(Object.values(again.inserted).every((count) => count === 0)).toBe(true);
  expect(await LedgerEntryModel.countDocuments({})).toBe(SIZES.ledger);
  expect(await journalEnd()).toBe(SIZES.ledger);
}, 120_000);
