/**
 * "Download my data" and "Delete my account" (settings) on the real database:
 * - the download is a JSON attachment with the account, pieces, comments, messages and ledger entries, and no
 *   password hash, token or provider id; for oneself or an admin, another member's id is 404;
 * - it reads the member's pieces, comments and messages by `_id` through their lists, never by a filter on those
 *   collections, and leaves out what is no longer theirs (a piece sold or removed, a comment removed, a thread whose
 *   side is gone), each once, oldest first as before;
 * - deleting asks for the caller's password (the password change's message, wrong tries limited), refuses a
 *   balance of $10 or more until it is cashed out or given up, and a cash-out waiting for approval;
 * - after a deletion: nobody signs in to the account or uses its sessions, the profile is 404, the pieces and
 *   their files are gone, the comments are removed, the follows undone, the username and email can be registered
 *   again; ledger entries all stay, each still sums to zero, the balance given up is on `platform:forfeits`, and
 *   every other member's balance is exactly what it was; the product events stay, without the member's id;
 * - a deletion stopped half-way (a failing file store) is finished by the job;
 * - the member's flags go with the account: a piece held only because of them is listed again.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcrypt';
import { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { localStorage, type Storage } from '../../server/integrations/storage';
import { createLogger } from '../../server/lib/logger';
import { defaultJobs } from '../../server/jobs/scheduler';
import { AccountDeletionModel, STALLED_DELETION_MS } from '../../server/modules/account';
import { PASSWORD_CHECK_LIMIT } from '../../server/modules/auth';
import { CommentModel } from '../../server/modules/comments';
import { ContentModel, transferOwner } from '../../server/modules/contents';
import { FlagModel, HOLD_AT_FLAGS } from '../../server/modules/flags';
import { FollowModel } from '../../server/modules/follows';
import { ProductEventModel } from '../../server/modules/events/testing';
import { LedgerEntryModel, type LedgerEntryDoc } from '../../server/modules/ledger';
import { BoxModel } from '../../server/modules/messages';
import { UploadModel } from '../../server/modules/media';
import { SubscriptionModel } from '../../server/modules/subscriptions';
import { newSubscriptionId } from '../../server/modules/subscriptions/testing';
import { UserExtModel, UserModel } from '../../server/modules/users';
import { FormerUsernameModel } from '../../server/modules/users/testing';
import { createTestApp, createTestServices, testConfig } from '../helpers/app';
import { freezeDate, freezeInWindow } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { countingFlaggers } from '../helpers/flaggers';
import {
  adminMember,
  bearer,
  createMember,
  createPiece,
  credit,
  knackBy,
  payListing,
  userAccount,
  type TestMember,
  type TestPiece,
} from '../helpers/ledger-factory';
import { png } from '../helpers/media';
import { spyOnScans } from '../helpers/read-meter';

useTestDatabase();

const PASSWORD = 'Str0ng!pass';
const root = mkdtempSync(path.join(os.tmpdir(), 'knack-account-files-'));
const storage = localStorage(root);
/** The file store, failing its next removal when asked to (a disk gone away in the middle of a deletion). */
let failNextRemoval = false;
const flakyStorage: Storage = {
  ...storage,
  async delete(keys) {
    if (failNextRemoval) {
      failNextRemoval = false;
      throw new Error('The disk went away.');
    }
    return storage.delete(keys);
  },
};
let app: ReturnType<typeof createTestApp>;
let passwordHash: string;

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp({ storage: flakyStorage });
  // A low cost is enough here: what is tested is which password is asked for, not bcrypt.
  passwordHash = await bcrypt.hash(PASSWORD, 4);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An active member who signs in with PASSWORD. */
async function member(options: { paypal?: string } = {}): Promise<TestMember> {
  const created = await createMember(options);
  await UserModel.updateOne({ _id: created.id }, { $set: { passwordHash } });
  return created;
}

const download = (caller: TestMember, id: string) => request(app).get(`/api/v2/user-setting/download-data/${id}`).set(bearer(caller));
const deleteAccount = (caller: TestMember, id: string, body: Record<string, unknown>) =>
  request(app).post(`/api/v2/user-setting/delete-account/${id}`).set(bearer(caller)).send(body);
const signin = (who: TestMember, password = PASSWORD) => request(app).post('/api/v2/auth/signin').send({ email: who.email, password });

/** A piece published through the API, with its real files. */
async function publish(owner: TestMember, title: string) {
  const photo = await request(app)
    .post('/api/v2/content/upload-photo')
    .set(bearer(owner))
    .attach('file', await png(), 'cover.png')
    .expect(201);
  const res = await request(app)
    .post('/api/v2/content/save')
    .set(bearer(owner))
    .send({ title, description: 'Trams and light', tags: [{ name: 'Photos' }], subTag: 'Travel', photoPath: photo.body.path })
    .expect(201);
  const content = res.body.content as { id: string; filePath: string; thumbPath: string; knackRate: number };
  const piece: TestPiece = { id: content.id, title, ownerId: owner.id, payerId: null, knackRateMicros: 50_000, type: 'photos' };
  await ContentModel.updateOne({ _id: content.id }, { $set: { knackRateMicros: piece.knackRateMicros } });
  return { piece, content, key: photo.body.path as string };
}

/** Every account's balance, summed over the whole ledger. */
async function balances(): Promise<Map<string, number>> {
  const rows = await LedgerEntryModel.aggregate<{ _id: string; total: number }>([
    { $unwind: '$legs' },
    { $group: { _id: '$legs.account', total: { $sum: '$legs.amountMicros' } } },
  ]);
  return new Map(rows.map((row) => [row._id, row.total]));
}

const storedKeys = () =>
  (readdirSync(root, { recursive: true }) as string[]).filter((name) => /\.[a-z0-9]+$/.test(name)).map((name) => name.split(path.sep).join('/'));

/**
 * Ana, who is deleted, and the members she has to do with: Bea paid the listing fee of Ana's piece (so Bea gets
 * 10% of its knacks) and Ana paid Bea's (Ana gets 10% of those); Cal knacks both, Ana knacks Bea's; Ana follows
 * Bea, Cal follows Ana; Ana comments on Bea's piece; Ana has $12 more from a piece she paid out herself.
 */
async function anaAndFriends() {
  const [ana, bea, cal] = await Promise.all([member(), member(), member()]);
  const anas = await publish(ana, 'Lisbon at dusk');
  const anasPiece = await payListing(anas.piece, bea);
  const beasPiece = await payListing(await createPiece(bea, { title: 'Porto rain', knackRateMicros: 200_000 }), ana);
  await knackBy(cal, anasPiece);
  await knackBy(cal, beasPiece);
  await knackBy(ana, beasPiece);
  await credit(ana, 12_000_000);
  await request(app).post('/api/v2/follow/make-following').set(bearer(ana)).send({ subjectorId: bea.id, myuserId: ana.id, set: true }).expect(200);
  await request(app).post('/api/v2/follow/make-following').set(bearer(cal)).send({ subjectorId: ana.id, myuserId: cal.id, set: true }).expect(200);
  const comment = await request(app)
    .post('/api/v2/comment/add')
    .set(bearer(ana))
    .send({ comment: 'The light on the river!', userId: ana.id, ownerId: bea.id, contentId: beasPiece.id })
    .expect(201);
  // An avatar uploaded and never used: an upload of hers all the same.
  await request(app)
    .post('/api/v2/user/upload-photo')
    .set(bearer(ana))
    .attach('file', await png(200, 200), 'me.png')
    .expect(201);
  return { ana, bea, cal, anas, beasPiece, commentId: comment.body.comment.id as string };
}

describe('GET /user-setting/download-data/{id}', () => {
  it('when Ana downloads her data, then a JSON file has her account, pieces, comments and ledger entries, and no secret', async () => {
    const { ana, bea, anas, beasPiece, commentId } = await anaAndFriends();
    const res = await download(ana, ana.id).expect(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(`attachment; filename=knack-data-${ana.username}-${today}.json`);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');

    const data = res.body;
    expect(data).toMatchObject({ format: 'knack-data-export/1', messages: [] });
    expect(data.account).toMatchObject({
      user: { id: ana.id, username: ana.username, email: ana.email, role: 'user' },
      payoutEmail: null,
      signInWith: { password: true, google: false, facebook: false },
    });
    expect(data.pieces.map((piece: { id: string }) => piece.id)).toContain(anas.piece.id);
    expect(data.pieces).toHaveLength(2); // the published one and the one she paid out herself
    expect(data.comments).toEqual([
      {
        id: commentId,
        kind: 'comment',
        contentId: beasPiece.id,
        text: 'The light on the river!',
        atSeconds: null,
        sharedCommentId: null,
        at: expect.any(String),
      },
    ]);
    const entries = new Map((data.ledgerEntries as { id: string }[]).map((entry) => [entry.id, entry]));
    // Her 90% of Cal's knack on her piece (Bea paid its fee).
    const knackOnHers = (data.ledgerEntries as { id: string; kind: string; contentId: string | null; balanceChangeMicros: number }[]).find(
      (entry) => entry.kind === 'knack' && entry.contentId === anas.piece.id,
    );
    expect(knackOnHers).toMatchObject({ balanceChangeMicros: 45_000, balanceChange: 0.045, amountMicros: null, method: null });
    // The fee she paid for Bea's piece by card: nothing moved on her balance, the fee is said.
    expect(entries.get(`listing:${beasPiece.id}`)).toMatchObject({ kind: 'listing', balanceChangeMicros: 0, amountMicros: 650_000, method: 'card' });
    // Her 10% of the knacks on Bea's piece, hers and Cal's.
    expect(entries.get(`knack:${beasPiece.id}:${ana.id}`)).toMatchObject({ balanceChangeMicros: 20_000 });
    // No other member's share is named.
    expect(JSON.stringify(data)).not.toContain(`user:${bea.id}`);

    const text = JSON.stringify(data);
    for (const secret of ['passwordHash', passwordHash, 'tokenVersion', 'googleId', 'facebookId']) expect(text).not.toContain(secret);
  });

  it('when Bea asks for Ana’s data, then 404; an admin gets it', async () => {
    const [ana, bea, admin] = await Promise.all([member(), member(), adminMember()]);
    const res = await download(bea, ana.id).expect(404);
    expect(res.body.message).toBe('This member does not exist.');
    expect((await download(admin, ana.id).expect(200)).body.account.user.id).toBe(ana.id);
  });

  it('when a member downloads 10 times in an hour, then the 11th is refused with 429', async () => {
    const ana = await member();
    const clock = freezeInWindow(60 * 60_000, 1_000);
    try {
      for (let i = 0; i < 10; i += 1) await download(ana, ana.id).expect(200);
      const res = await download(ana, ana.id).expect(429);
      expect(res.body.message).toBe('Too many downloads of your data. Please wait and try again.');
    } finally {
      clock.restore();
    }
  });
});

/** A piece handed to another member, as a sale settled on the Stellar network hands it. */
const sell = (piece: TestPiece, to: TestMember) =>
  transferOwner(new Types.ObjectId(piece.id), { id: new Types.ObjectId(to.id), username: to.username, fullName: 'Test Member' });

/**
 * Ana's download, with its reads of the collections named: those that were not of one document by `_id` (each of
 * which reads the whole collection on FerretDB), and how many reads there were in all (some, or the spy saw nothing).
 */
async function downloadWatching(ana: TestMember, ...collections: string[]) {
  const spy = spyOnScans(...collections);
  try {
    const data = (await download(ana, ana.id).expect(200)).body;
    return { data, scans: spy.scans(), reads: spy.reads() };
  } finally {
    spy.restore();
  }
}

describe('GET /user-setting/download-data/{id}: each part read by key', () => {
  it('when Ana downloads her pieces, then they are read through her list by _id: one she bought is in, one sold or removed is not, each once, oldest first', async () => {
    const [ana, bea] = await Promise.all([member(), member()]);
    const bought = await createPiece(bea, { title: 'Bought from Bea' });
    const kept = await createPiece(ana, { title: 'Kept' });
    const sold = await createPiece(ana, { title: 'Sold to Bea' });
    const removed = await createPiece(ana, { title: 'Removed' });
    const privatePiece = await createPiece(ana, { title: 'Only mine' });
    // Made private (as a member on a plan may): off every list but hers.
    const onlyHers = { public: false, private: true, followers: false, hidePlayCount: false, hideViewCount: false };
    await ContentModel.updateOne({ _id: privatePiece.id }, { $set: { setting: onlyHers, listed: false } });
    await sell(bought, ana);
    await sell(sold, bea);
    // Sold and bought back: on her list twice.
    await sell(kept, bea);
    await sell(kept, ana);
    await request(app).post('/api/v2/content/delete').set(bearer(ana)).send({ contentId: removed.id }).expect(200);

    const { data, scans, reads } = await downloadWatching(ana, 'contents', 'piece_chains');
    expect(scans).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    // Oldest first by id, as before: Bea's piece is older than Ana's own, though it became hers last.
    expect(data.pieces.map((piece: { id: string }) => piece.id)).toEqual([bought.id, kept.id, privatePiece.id]);
    expect(data.pieces[0]).toMatchObject({ title: 'Bought from Bea', ownerId: ana.id });
    expect(data.pieces[2]).toMatchObject({ title: 'Only mine' });
    expect((await download(bea, bea.id).expect(200)).body.pieces.map((piece: { id: string }) => piece.id)).toEqual([sold.id]);
  });

  it('when Ana downloads her comments, then they are read through her list by _id: a removed one and a missing one are left out, by time', async () => {
    const [ana, bea, cal] = await Promise.all([member(), member(), member()]);
    const [beas, cals] = [await createPiece(bea), await createPiece(cal)];
    const comment = async (piece: TestPiece, text: string) =>
      (
        await request(app)
          .post('/api/v2/comment/add')
          .set(bearer(ana))
          .send({ comment: text, userId: ana.id, ownerId: piece.ownerId, contentId: piece.id })
          .expect(201)
      ).body.comment.id as string;
    // Written first but dated a minute later (another instance's clock ahead): listed first, exported after.
    const base = Date.now();
    const clock = freezeDate(base + 60_000);
    let later: string;
    let first: string;
    let removed: string;
    let lost: string;
    try {
      later = await comment(beas, 'Written first, dated later');
      clock.advance(-60_000);
      first = await comment(cals, 'On Cal’s piece');
      clock.advance(1_000);
      removed = await comment(beas, 'Taken back');
      clock.advance(1_000);
      lost = await comment(beas, 'Gone from the thread');
    } finally {
      clock.restore();
    }
    await request(app).post(`/api/v2/comment/delete/${removed}`).set(bearer(ana)).expect(200);
    // A comment is never deleted by the app (removing leaves a tombstone): one gone all the same leaves its entry naming nothing.
    await CommentModel.deleteOne({ _id: lost });

    const { data, scans, reads } = await downloadWatching(ana, 'comments', 'comment_lists');
    expect(scans).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect(data.comments.map((c: { id: string; text: string }) => [c.id, c.text])).toEqual([
      [first, 'On Cal’s piece'],
      [later, 'Written first, dated later'],
    ]);
    expect(data.comments[0]).toEqual({
      id: first,
      kind: 'comment',
      contentId: cals.id,
      text: 'On Cal’s piece',
      atSeconds: null,
      sharedCommentId: null,
      at: expect.any(String),
    });
    // Bea wrote none.
    expect((await download(bea, bea.id).expect(200)).body.comments).toEqual([]);
  });

  it('when Ana downloads her messages, then her threads come from her thread list by _id, each once: one she moved to Deleted is in, one whose side is gone is not', async () => {
    const [ana, bea, cal] = await Promise.all([member(), member(), member()]);
    const write = async (from: TestMember, to: TestMember, subject: string, message: string) =>
      (await request(app).post('/api/v2/message/create').set(bearer(from)).send({ senderId: from.id, receiverId: to.id, subject, message }).expect(201)).body
        .thread.id as string;
    const reply = (from: TestMember, to: TestMember, threadId: string, message: string) =>
      request(app).post('/api/v2/message/reply').set(bearer(from)).send({ senderId: from.id, messageId: threadId, receiverId: to.id, message }).expect(201);
    const toBea = await write(ana, bea, 'Hello Bea', 'Hi!');
    const fromCal = await write(cal, ana, 'From Cal', 'Hey Ana');
    await reply(ana, cal, fromCal, 'Hey Cal');
    await reply(cal, ana, fromCal, 'How are you?');
    const gone = await write(bea, ana, 'Gone', 'Not for long');
    await write(bea, cal, 'Not Ana’s', 'Between us');
    // Moved to her Deleted list: still her thread (she can restore it), so still in her data.
    await request(app).post(`/api/v2/message/delete/${toBea}`).set(bearer(ana)).expect(200);
    // Her side of a thread gone while its list entries stay (nothing in the app does this; a side is what makes a thread hers).
    await BoxModel.deleteOne({ _id: `${gone}:${ana.id}` });

    const { data, scans, reads } = await downloadWatching(ana, 'message_boxes', 'message_inbox_entries', 'messages', 'message_box_versions');
    expect(scans).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect(data.messages.map((m: { id: string; message: string }) => [m.id, m.message])).toEqual([
      [`${toBea}-1`, 'Hi!'],
      [`${fromCal}-1`, 'Hey Ana'],
      [`${fromCal}-2`, 'Hey Cal'],
      [`${fromCal}-3`, 'How are you?'],
    ]);
    expect(data.messages[2]).toEqual({
      id: `${fromCal}-2`,
      senderId: ana.id,
      receiverId: cal.id,
      subject: 'From Cal',
      message: 'Hey Cal',
      replyTo: `${fromCal}-1`,
      isImportant: false,
      at: expect.any(String),
    });
  });
});

describe('POST /user-setting/delete-account/{id}: what is asked first', () => {
  it('when Bea asks to delete Ana’s account, even with her own right password, then 404 and Ana is untouched', async () => {
    const [ana, bea] = await Promise.all([member(), member()]);
    const res = await deleteAccount(bea, ana.id, { password: PASSWORD }).expect(404);
    expect(res.body.message).toBe('This member does not exist.');
    await signin(ana).expect(200);
  });

  it('when the password is wrong, then 400 with the password change’s message; after 5 wrong tries, 429', async () => {
    const ana = await member();
    const clock = freezeInWindow(PASSWORD_CHECK_LIMIT.windowMs, 1_000);
    try {
      const res = await deleteAccount(ana, ana.id, { password: 'not-my-password' }).expect(400);
      expect(res.body).toMatchObject({ message: 'Incorrect password.', errors: [{ path: 'password', message: 'Incorrect password.' }] });
      for (let i = 0; i < 4; i += 1) await deleteAccount(ana, ana.id, { password: 'not-my-password' }).expect(400);
      const limited = await deleteAccount(ana, ana.id, { password: PASSWORD }).expect(429);
      expect(limited.body.message).toBe('Too many wrong passwords. Please wait and try again.');
    } finally {
      clock.restore();
    }
    expect(await UserModel.exists({ _id: ana.id })).toBeTruthy();
  });

  it('when a field is not in the contract, then 400', async () => {
    const ana = await member();
    await deleteAccount(ana, ana.id, { password: PASSWORD, reason: 'bye' }).expect(400);
    await deleteAccount(ana, ana.id, { password: PASSWORD, giveUpBalance: 'yes' }).expect(400);
  });

  it('when $10 or more is not paid out, then 409 saying to cash it out or give it up, and nothing changes', async () => {
    const ana = await member();
    await credit(ana, 10_004_999);
    const ledgerBefore = await LedgerEntryModel.countDocuments();
    const res = await deleteAccount(ana, ana.id, { password: PASSWORD }).expect(409);
    const message = 'You have $10.00 not paid out yet. Cash it out from your wallet first, or choose to give it up.';
    expect(res.body).toMatchObject({ message, errors: [{ path: 'giveUpBalance', message }] });
    await deleteAccount(ana, ana.id, { password: PASSWORD, giveUpBalance: false }).expect(409);
    await signin(ana).expect(200);
    expect(await LedgerEntryModel.countDocuments()).toBe(ledgerBefore);
    expect(await AccountDeletionModel.exists({ _id: ana.id })).toBeNull();
  });

  it('when a cash-out waits for approval, then 409 even when giving the balance up', async () => {
    const ana = await member({ paypal: 'ana.pays@example.com' });
    await credit(ana, 15_000_000);
    await request(app).post('/api/v2/user-history/earn').set(bearer(ana)).send({ userId: ana.id }).expect(201);
    const res = await deleteAccount(ana, ana.id, { password: PASSWORD, giveUpBalance: true }).expect(409);
    expect(res.body.message).toBe('Your cash-out request is waiting for approval. Delete your account once it is paid, or cancel the request first.');
    await signin(ana).expect(200);
  });
});

describe('POST /user-setting/delete-account/{id}: after the deletion', () => {
  it('when Ana deletes her account giving up $12, then she is gone, her money is on platform:forfeits, and every other balance is unchanged', async () => {
    const { ana, bea, cal, anas, beasPiece, commentId } = await anaAndFriends();
    const session = await signin(ana).expect(200);
    // A name she used before and gave up (kept for her alone while her account lives).
    const formerName = `was_${ana.username}`.slice(0, 30);
    await FormerUsernameModel.create({ _id: formerName, userId: ana.id, at: new Date() });
    await request(app).get(anas.content.filePath).expect(200);
    const anasKeys = (await UploadModel.find({ ownerId: ana.id }).lean()).flatMap((upload) => [upload.key, ...Object.values(upload.thumbKeys ?? {})]);
    expect(anasKeys.length).toBeGreaterThan(5);
    expect(storedKeys()).toEqual(expect.arrayContaining(anasKeys));
    const before = await balances();
    const entriesBefore = await LedgerEntryModel.find({}, { _id: 1 }).lean();
    const beaWallet = (await request(app).get(`/api/v2/wallet/summary/${bea.id}`).set(bearer(bea)).expect(200)).body;
    const anasBalance = before.get(userAccount(ana.id))!;
    expect(anasBalance).toBe(12_000_000 + 45_000 + 20_000 + 20_000);

    // A product event of hers, and the events token a beacon of her page would carry.
    const played = { events: [{ name: 'play', at: new Date().toISOString() }] };
    const { eventsToken } = (await request(app).post('/api/v2/events').set(bearer(ana)).send(played).expect(202)).body as { eventsToken: string };

    const res = await deleteAccount(ana, ana.id, { password: PASSWORD, giveUpBalance: true }).expect(200);
    expect(res.body).toEqual({ message: 'Your account is deleted.' });
    // Her event stays, counted as a visitor's, without her id; her page's beacon is refused.
    expect(await ProductEventModel.find({}, { name: 1, memberId: 1 }).lean()).toEqual([{ _id: expect.anything(), name: 'play', memberId: null }]);
    await request(app)
      .post('/api/v2/events')
      .send({ ...played, eventsToken })
      .expect(401);

    // Nobody signs in to it, and no token or session of it works.
    expect((await signin(ana).expect(401)).body.message).toBe('Incorrect email or password.');
    await request(app).get(`/api/v2/user-setting/get-ext/${ana.id}`).set(bearer(ana)).expect(401);
    await request(app).get(`/api/v2/user-setting/get-ext/${ana.id}`).set('Authorization', `Bearer ${session.body.token}`).expect(401);
    const refresh = (session.headers['set-cookie'] as unknown as string[]).find((cookie) => cookie.startsWith('knack_refresh='))!.split(';')[0]!;
    await request(app).post('/api/v2/auth/check-loggedin').set('Cookie', refresh).expect(401);
    // The profile is gone.
    await request(app).get(`/api/v2/user/profile/${ana.username}`).expect(404);
    await request(app).get(`/api/v2/user/get-data/${ana.id}`).expect(404);
    expect(await UserModel.exists({ _id: ana.id })).toBeNull();
    expect(await UserExtModel.exists({ userId: ana.id })).toBeNull();
    // Her pieces and every file she uploaded are gone.
    expect(await ContentModel.countDocuments({ ownerId: ana.id })).toBe(0);
    expect(await UploadModel.countDocuments({ ownerId: ana.id })).toBe(0);
    await request(app).get(anas.content.filePath).expect(404);
    await request(app).get(anas.content.thumbPath).expect(404);
    expect(storedKeys().filter((key) => anasKeys.includes(key))).toEqual([]);
    // Her comment is removed from Bea's piece; her follows are undone, and the others' counts with them.
    expect(await CommentModel.findById(commentId).lean()).toMatchObject({ text: '', removedAt: expect.any(Date) });
    expect((await ContentModel.findById(beasPiece.id).lean())!.commentsCount).toBe(0);
    expect(await FollowModel.countDocuments({ $or: [{ followerId: ana.id }, { followedId: ana.id }] })).toBe(0);
    expect(await UserModel.findById(bea.id, { followersCount: 1 }).lean()).toMatchObject({ followersCount: 0 });
    expect(await UserModel.findById(cal.id, { followingsCount: 1 }).lean()).toMatchObject({ followingsCount: 0 });

    // Every ledger entry stays and still sums to zero; her balance moved to platform:forfeits, once.
    const after = await balances();
    const entries = await LedgerEntryModel.find().lean<LedgerEntryDoc[]>();
    expect(entries.map((entry) => entry._id)).toEqual(expect.arrayContaining(entriesBefore.map((entry) => entry._id)));
    expect(entries).toHaveLength(entriesBefore.length + 1);
    for (const entry of entries) expect(entry.legs.reduce((sum, leg) => sum + leg.amountMicros, 0)).toBe(0);
    expect([...after.values()].reduce((sum, total) => sum + total, 0)).toBe(0);
    expect(await LedgerEntryModel.findById(`forfeit:${ana.id}`).lean()).toMatchObject({
      kind: 'forfeit',
      amountMicros: anasBalance,
      legs: [
        { account: userAccount(ana.id), amountMicros: -anasBalance },
        { account: 'platform:forfeits', amountMicros: anasBalance },
      ],
    });
    expect(after.get(userAccount(ana.id))).toBe(0);
    for (const [account, total] of before) {
      if (account === userAccount(ana.id) || account === 'platform:forfeits') continue;
      expect([account, after.get(account)]).toEqual([account, total]);
    }
    expect(after.get('platform:forfeits')).toBe((before.get('platform:forfeits') ?? 0) + anasBalance);
    const beaWalletAfter = (await request(app).get(`/api/v2/wallet/summary/${bea.id}`).set(bearer(bea)).expect(200)).body;
    expect(beaWalletAfter.balanceMicros).toBe(beaWallet.balanceMicros);
    expect(beaWalletAfter.balanceMicros).toBe(before.get(userAccount(bea.id)));
    // The piece of Bea's that Ana had paid the fee of is Bea's own now: its knacks from here on pay Bea in full.
    expect(String((await ContentModel.findById(beasPiece.id).lean())!.payerId)).toBe(bea.id);

    // Her username and email can be registered again.
    await request(app)
      .post('/api/v2/auth/signup')
      .send({ firstName: 'Ana', lastName: 'Again', username: ana.username, email: ana.email, password: PASSWORD, passwordConfirm: PASSWORD })
      .expect(201);
    expect(await FormerUsernameModel.exists({ _id: formerName })).toBeNull();
    await request(app)
      .post('/api/v2/auth/signup')
      .send({ firstName: 'Other', lastName: 'Member', username: formerName, email: `other.${ana.email}`, password: PASSWORD, passwordConfirm: PASSWORD })
      .expect(201);
    // Asking again about the deleted account: it does not exist.
    await deleteAccount(await adminMember(), ana.id, { password: PASSWORD }).expect(404);
  });

  it('when the balance is under $10, then it is given up without asking, and an admin may delete a member with the admin’s own password', async () => {
    const [ana, admin] = await Promise.all([member(), adminMember()]);
    await UserModel.updateOne({ _id: admin.id }, { $set: { passwordHash } });
    await credit(ana, 9_990_000);
    await deleteAccount(admin, ana.id, { password: PASSWORD }).expect(200);
    expect(await LedgerEntryModel.findById(`forfeit:${ana.id}`, { amountMicros: 1 }).lean()).toMatchObject({ amountMicros: 9_990_000 });
    expect(await AccountDeletionModel.findById(ana.id).lean()).toMatchObject({ requestedBy: expect.anything(), finishedAt: expect.any(Date) });
    expect(String((await AccountDeletionModel.findById(ana.id).lean())!.requestedBy)).toBe(admin.id);
  });

  it('when Ana is on a plan, then it stops renewing: it runs to the end of the month she paid, and she is never charged again', async () => {
    const ana = await member();
    const id = newSubscriptionId();
    await SubscriptionModel.create({
      _id: id,
      subscriptionId: id,
      userId: ana.id,
      planId: 2,
      status: 'active',
      currentPeriodEnd: new Date(Date.now() + 10 * 86_400_000),
    });
    await deleteAccount(ana, ana.id, { password: PASSWORD }).expect(200);
    expect(await SubscriptionModel.findById(id).lean()).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
  });

  it('when the file store fails half-way, then the account is already closed, and the job finishes the deletion once', async () => {
    const { ana, bea, anas } = await anaAndFriends();
    const before = await balances();
    failNextRemoval = true;
    await deleteAccount(ana, ana.id, { password: PASSWORD, giveUpBalance: true }).expect(500);
    // Stopped after closing the account and giving up the balance, before the pieces went.
    await signin(ana).expect(401);
    await request(app).get(`/api/v2/user/profile/${ana.username}`).expect(404);
    expect(await AccountDeletionModel.findById(ana.id).lean()).toMatchObject({ finishedAt: null });
    expect(await UploadModel.countDocuments({ ownerId: ana.id })).toBeGreaterThan(0);

    const job = defaultJobs({ logger: createLogger('silent'), storage: flakyStorage, services: createTestServices({ storage: flakyStorage }) }).find(
      (j) => j.name === 'account-deletions',
    )!;
    // Not yet: a deletion this recent may still be running.
    expect(await job.run()).toBe(0);
    const clock = freezeDate(Date.now() + STALLED_DELETION_MS + 1_000);
    try {
      expect(await job.run()).toBe(1);
      expect(await job.run()).toBe(0);
    } finally {
      clock.restore();
    }
    expect(await AccountDeletionModel.findById(ana.id).lean()).toMatchObject({ finishedAt: expect.any(Date) });
    expect(await UserModel.exists({ _id: ana.id })).toBeNull();
    expect(await ContentModel.countDocuments({ ownerId: ana.id })).toBe(0);
    expect(await UploadModel.countDocuments({ ownerId: ana.id })).toBe(0);
    await request(app).get(anas.content.filePath).expect(404);
    expect(await LedgerEntryModel.countDocuments({ kind: 'forfeit', actorId: ana.id })).toBe(1);
    const after = await balances();
    expect(after.get(userAccount(bea.id))).toBe(before.get(userAccount(bea.id)));
    expect(after.get(userAccount(ana.id))).toBe(0);
  });
});

describe('POST /user-setting/delete-account/{id}: the member’s flags', () => {
  const flag = (member: TestMember, piece: TestPiece, reason: string) =>
    request(app).post('/api/v2/flag/set').set(bearer(member)).send({ contentId: piece.id, userId: member.id, reason }).expect(200);
  const review = async (piece: TestPiece) => ContentModel.findById(piece.id, { isHide: 1, listed: 1, _id: 0 }).lean();

  it('when one of the five members whose flags hold a piece deletes her account, then it is listed again; a piece with a sixth such flag stays held', async () => {
    const owner = await member();
    const [onlyFive, oneMore] = [await createPiece(owner, { title: 'Held by five' }), await createPiece(owner, { title: 'Held by six' })];
    const flaggers = await countingFlaggers(app, owner, HOLD_AT_FLAGS + 1, member);
    for (const flagger of flaggers.slice(0, HOLD_AT_FLAGS)) await flag(flagger, onlyFive, 'Somebody unlawfully posted your content');
    for (const flagger of flaggers) await flag(flagger, oneMore, 'Wrong market for content genre');
    expect(await review(onlyFive)).toEqual({ isHide: true, listed: false });
    expect(await review(oneMore)).toEqual({ isHide: true, listed: false });

    const leaving = flaggers[0]!;
    await deleteAccount(leaving, leaving.id, { password: PASSWORD }).expect(200);
    expect(await review(onlyFive)).toEqual({ isHide: false, listed: true });
    expect(await review(oneMore)).toEqual({ isHide: true, listed: false });
    expect(await FlagModel.countDocuments({ userId: leaving.id })).toBe(0);
    expect(await FlagModel.countDocuments({ userId: flaggers[1]!.id })).toBe(2);
  });
});
