/**
 * Knacks and the ledger on the real database: once per member per piece (200 at once too), the 90/10 split
 * in exact micro-dollars, songs counted only past half a play measured by the server (on the audio decoded,
 * not the length its header claims), knack status, the emailed code after 9 knacks (30 at once through two app
 * processes too), what a piece and a member have, and who may call what.
 */
import { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { signAccessToken } from '../../server/lib/access-token';
import { ContentModel } from '../../server/modules/contents';
import { refreshRankings } from '../../server/modules/feeds';
import { UploadModel } from '../../server/modules/media';
import { KNACK_MESSAGES, purgeStaleKnackRecords } from '../../server/modules/knacks';
import { balanceOf, LedgerEntryModel, PLATFORM_KNACKS, post, userAccount } from '../../server/modules/ledger';
import { clearLedger } from '../../server/modules/ledger/testing';
import { forgetKnackWindows, KnackCodeAttemptModel, KnackCodeModel, KnackWindowModel, PlaySessionModel } from '../../server/modules/knacks/testing';
import { createTestApp, testConfig } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { freezeDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { publishPiece, type Member, type PieceSpec, type PublishedPiece } from '../helpers/e2e-pieces';
import { claimingFrames, mp3 } from '../helpers/media';
import { startSecondApp } from '../helpers/second-process';
import { startSmtpServer } from '../helpers/smtp';
import { waitUntil } from '../helpers/wait';
import { UserModel } from '../../server/modules/users';
import { listingKey, PLATFORM_FEES } from '../../server/modules/payments';
import { adminMember, bearer as ledgerBearer, createMember } from '../helpers/ledger-factory';

useTestDatabase();

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let ana: Member; // owner
let bea: Member; // viewer
let cara: Member; // supporter who paid a listing fee

const bearer = (m: Member) => ({ Authorization: `Bearer ${m.token}` });
const knack = (m: Member, piece: { id: string }, extra: Record<string, string> = {}, through: Parameters<typeof request>[0] = app) =>
  request(through)
    .post('/api/v2/knack/add')
    .set(bearer(m))
    .send({ contentId: piece.id, userId: m.user.id, ...extra });

/** A piece of Ana's, paid out by `payer` (the listing-fee payment flow sets the same two fields), with a small cover. */
async function piece(spec: Partial<PieceSpec> & { title: string }, payer?: Member): Promise<PublishedPiece> {
  const published = await publishPiece(app, ana, { tag: 'Photos', subTag: 'Travel', hue: 120, coverSide: 64, ...spec });
  if (payer) await ContentModel.updateOne({ _id: published.id }, { $set: { isPaidOut: true, payerId: new Types.ObjectId(payer.user.id) } });
  return published;
}

const balance = (m: Member) => balanceOf(userAccount(m.user.id));
const recentKnacksOf = async (m: Member) =>
  (await request(app).get('/api/v2/knack/get-available-knacks').set(bearer(m)).expect(200)).body.recentKnacks as number;

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test') });
  ana = await createActiveMember(app, smtp, { firstName: 'Ana' });
  bea = await createActiveMember(app, smtp, { firstName: 'Bea' });
  cara = await createActiveMember(app, smtp, { firstName: 'Cara' });
}, 60_000);

afterAll(async () => smtp.stop());

beforeEach(async () => {
  await Promise.all([
    clearLedger(),
    KnackCodeModel.deleteMany({}),
    KnackWindowModel.deleteMany({}),
    KnackCodeAttemptModel.deleteMany({}),
    PlaySessionModel.deleteMany({}),
  ]);
  forgetKnackWindows();
});

describe('POST /knack/add on images', () => {
  it('when a viewer knacks a piece its owner paid out, then the owner gets the whole knack value once, and a second knack changes nothing', async () => {
    const photo = await piece({ title: 'Owner Paid' }, ana);
    const first = await knack(bea, photo).expect(200);
    expect(first.body).toEqual({ message: KNACK_MESSAGES.thanks, knackStatus: 2, reactedCount: 1, earned: 0.05, earnedMicros: 50_000 });
    expect(await balance(ana)).toBe(50_000);
    expect(await balanceOf(PLATFORM_KNACKS)).toBe(-50_000);

    const again = await knack(bea, photo).expect(200);
    expect(again.body).toEqual({ message: KNACK_MESSAGES.already, knackStatus: 2, reactedCount: 1, earned: 0.05, earnedMicros: 50_000 });
    expect(await LedgerEntryModel.countDocuments({})).toBe(1);
    expect(await balance(ana)).toBe(50_000);
    expect((await ContentModel.findById(photo.id).lean())!.reactedCount).toBe(1);
  });

  it('when the piece was paid out by a supporter, then the owner gets 90% and the supporter 10%, and the legs sum to zero', async () => {
    const photo = await piece({ title: 'Supported Piece' }, cara);
    await knack(bea, photo).expect(200);
    const [entry] = await LedgerEntryModel.find({}).lean();
    expect(entry!._id).toBe(`knack:${photo.id}:${bea.user.id}`);
    expect(entry!.legs).toEqual([
      { account: PLATFORM_KNACKS, amountMicros: -50_000 },
      { account: userAccount(ana.user.id), amountMicros: 45_000 },
      { account: userAccount(cara.user.id), amountMicros: 5_000 },
    ]);
    expect([await balance(ana), await balance(cara), await balance(bea)]).toEqual([45_000, 5_000, 0]);
  });

  it('when the piece is not paid out, then the knack counts with status 0 and earns nothing; the owner’s own knack is status 3 and writes nothing', async () => {
    const photo = await piece({ title: 'Not Paid Out' });
    const res = await knack(bea, photo).expect(200);
    expect(res.body).toEqual({ message: KNACK_MESSAGES.thanks, knackStatus: 0, reactedCount: 1, earned: 0, earnedMicros: 0 });
    expect(await balance(ana)).toBe(0);

    const own = await knack(ana, photo).expect(200);
    expect(own.body).toMatchObject({ message: KNACK_MESSAGES.own, knackStatus: 3, earned: 0 });
    expect(await LedgerEntryModel.countDocuments({})).toBe(1);
  });

  it('when 200 identical knacks arrive at once, then there is one ledger entry, one reaction and exact balances', async () => {
    const photo = await piece({ title: 'Crowded Room' }, cara);
    const answers = await Promise.all(Array.from({ length: 200 }, () => knack(bea, photo)));
    expect(answers.map((a) => a.status)).toEqual(Array(200).fill(200));
    expect(answers.filter((a) => a.body.message === KNACK_MESSAGES.thanks).length).toBe(1);
    expect(answers.every((a) => a.body.earnedMicros === 50_000)).toBe(true);
    expect(await LedgerEntryModel.countDocuments({})).toBe(1);
    expect([await balance(ana), await balance(cara), await balanceOf(PLATFORM_KNACKS)]).toEqual([45_000, 5_000, -50_000]);
    expect((await ContentModel.findById(photo.id).lean())!.reactedCount).toBe(1);
  }, 60_000);

  it('when 60 members knack one piece at once, then its reactions, the owner’s trend score and every balance are exact', async () => {
    const photo = await piece({ title: 'Busy Square' }, cara);
    const crowd = await UserModel.insertMany(
      Array.from({ length: 60 }, (_, i) => ({ email: `crowd${i}@knack.test`, username: `crowd_${i}`, firstName: 'Crowd', isActive: true })),
    );
    const auth = testConfig().auth;
    const answers = await Promise.all(
      crowd.map((member) =>
        request(app)
          .post('/api/v2/knack/add')
          .set({ Authorization: `Bearer ${signAccessToken(auth, { userId: String(member._id), tokenVersion: 0 })}` })
          .send({ contentId: photo.id, userId: String(member._id) }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
    expect(answers.every((a) => a.body.message === KNACK_MESSAGES.thanks)).toBe(true);
    // The kept totals may lose concurrent increments (FerretDB); one rankings pass recounts them from the ledger.
    await refreshRankings();
    const after = (await ContentModel.findById(photo.id).lean())!;
    expect([after.reactedCount, after.trendScore]).toEqual([60, 60]);
    // Ana's trend counts her pieces' knacks in the ledger, which each test starts empty: these 60.
    expect((await UserModel.findById(ana.user.id).lean())!.trendScore).toBe(60);
    expect([await balance(ana), await balance(cara), await balanceOf(PLATFORM_KNACKS)]).toEqual([60 * 45_000, 60 * 5_000, -60 * 50_000]);
  }, 60_000);
});

describe('knack status and reacted pieces', () => {
  it('when a member has knacked a piece, then the detail says 2 to them, 1 to others, 3 to the owner, and their sign-in lists the piece', async () => {
    const photo = await piece({ title: 'Status Check' }, ana);
    const status = async (m?: Member) =>
      (
        await request(app)
          .get(`/api/v2/content/detail/${photo.id}/for-user/${m ? m.user.id : 'guest'}`)
          .set(m ? bearer(m) : {})
          .expect(200)
      ).body.knackStatus;
    expect(await status(bea)).toBe(1);
    await knack(bea, photo).expect(200);
    expect([await status(bea), await status(cara), await status(ana), await status()]).toEqual([2, 1, 3, 1]);

    const signin = await request(app).post('/api/v2/auth/signin').send({ email: bea.form.email, password: bea.form.password }).expect(200);
    expect(signin.body.reacted_contents).toEqual([photo.id]);
  });
});

describe('songs count past half a play', () => {
  afterEach(() => jest.useRealTimers());

  it('when a song is knacked without a play, too early, or with another member’s play, then it is refused; past half the song it counts', async () => {
    const song = await piece({ title: 'Half Way Song', tag: 'Music', subTag: 'Jazz', seconds: 1 }, ana);
    const none = await knack(bea, song).expect(400);
    expect(none.body.message).toBe(KNACK_MESSAGES.playFirst);

    const clock = freezeDate(); // time moves only as the test says (a real clock is given back after each test)
    const play = await request(app).post('/api/v2/knack/play').set(bearer(bea)).send({ contentId: song.id }).expect(201);
    expect(play.body.minSeconds).toBeCloseTo(0.5, 1);
    const early = await knack(bea, song, { playId: play.body.playId }).expect(409);
    expect(early.body.message).toBe(KNACK_MESSAGES.keepListening);
    const othersPlay = await knack(cara, song, { playId: play.body.playId }).expect(400);
    expect(othersPlay.body.message).toBe(KNACK_MESSAGES.playFirst);
    clock.advance(play.body.minSeconds * 1000 - 1);
    await knack(bea, song, { playId: play.body.playId }).expect(409); // a millisecond short of half the song

    clock.advance(1);
    const counted = await knack(bea, song, { playId: play.body.playId }).expect(200);
    const { knackValueMicros } = (await request(app).get(`/api/v2/knack/get-money/${song.id}`).expect(200)).body;
    expect(counted.body).toMatchObject({ message: KNACK_MESSAGES.thanks, knackStatus: 2, earnedMicros: knackValueMicros });
    expect(await PlaySessionModel.countDocuments({ _id: play.body.playId })).toBe(0);

    const photo = await piece({ title: 'Not A Song' });
    await request(app).post('/api/v2/knack/play').set(bearer(bea)).send({ contentId: photo.id }).expect(400);
  });

  it('when a song’s header claims 10 minutes but its audio lasts 2 seconds, then the wait is half of the 2 seconds decoded', async () => {
    const file = claimingFrames(mp3(2), Math.round((10 * 60) / 0.072)); // at 8 kHz an MP3 frame holds 576 samples: 72 ms
    const song = await piece({ title: 'Tall Tale', tag: 'Music', subTag: 'Jazz', song: { file, name: 'tall-tale.mp3' } }, ana);
    const detail = await request(app).get(`/api/v2/content/get-by-id/${song.id}`).set(bearer(bea)).expect(200);
    expect(detail.body.content.duration).toBeCloseTo(2, 0);

    const clock = freezeDate();
    const play = await request(app).post('/api/v2/knack/play').set(bearer(bea)).send({ contentId: song.id }).expect(201);
    expect(play.body.minSeconds).toBeCloseTo(1, 0);
    clock.advance(play.body.minSeconds * 1000);
    await knack(bea, song, { playId: play.body.playId }).expect(200);
  });

  it('when a large song is still being decoded after its upload, then once decoded a play lasts half of the decoded duration', async () => {
    const song = await piece({ title: 'Long Player', tag: 'Music', subTag: 'Jazz', seconds: 400 }, ana); // 6.4 MB: decoded after the answer
    const { audioUploadId } = (await ContentModel.findById(song.id).lean())!;
    await waitUntil(async () => (await UploadModel.findById(audioUploadId).lean())?.status === 'ready', { what: 'the song decoded' });
    const play = await request(app).post('/api/v2/knack/play').set(bearer(bea)).send({ contentId: song.id }).expect(201);
    expect(play.body.minSeconds).toBeCloseTo(200, 0);
  }, 60_000);
});

describe('the emailed code after 9 knacks in 24 hours', () => {
  it('when a member has made 9 knacks, then the 10th needs the mailed code; a wrong one is refused, the right one lets them go on', async () => {
    const pieces = await Promise.all(Array.from({ length: 11 }, (_, i) => piece({ title: `Busy Day ${i}` })));
    for (const p of pieces.slice(0, 8)) await knack(bea, p).expect(200);
    expect((await request(app).get('/api/v2/knack/get-available-knacks').set(bearer(bea)).expect(200)).body).toMatchObject({
      recentKnacks: 8,
      knacksBeforeCode: 1,
    });
    await knack(bea, pieces[8]!).expect(200);
    const asked = await knack(bea, pieces[9]!).expect(428);
    expect(asked.body).toMatchObject({
      message: 'You have knacked a lot today. Enter the 4-digit code we emailed you to go on.',
      code: 'verification_required',
    });
    expect((await request(app).get('/api/v2/knack/get-available-knacks').set(bearer(bea)).expect(200)).body).toMatchObject({
      recentKnacks: 9,
      knacksBeforeCode: 0,
    });

    await request(app).post('/api/v2/knack/over-knack').set(bearer(bea)).send({ userId: cara.user.id }).expect(403);
    const sent = await request(app).post('/api/v2/knack/over-knack').set(bearer(bea)).send({ userId: bea.user.id }).expect(200);
    expect(sent.body.message).toBe(KNACK_MESSAGES.codeSent);
    const mail = await smtp.nextMailTo(bea.form.email);
    const code = /\b(\d{4})\b/.exec(mail.text.split('enter this code:')[1] ?? '')![1]!;
    expect((await KnackCodeModel.findById(bea.user.id).lean())!.codeHash).not.toContain(code);

    const wrong = String((Number(code) + 1) % 10_000).padStart(4, '0');
    const refused = await knack(bea, pieces[9]!, { code: wrong }).expect(400);
    expect(refused.body.message).toBe('Invalid verification code.');
    await knack(bea, pieces[9]!, { code }).expect(200);
    await knack(bea, pieces[10]!).expect(200); // a new count starts at the code
    expect(await LedgerEntryModel.countDocuments({ kind: 'knack' })).toBe(11);
  }, 60_000);

  it('when a member sends 30 knacks at once on 30 paid-out pieces, through two app processes, then exactly 9 pay and the other 21 are asked for the code', async () => {
    const pieces = await Promise.all(Array.from({ length: 30 }, (_, i) => piece({ title: `Rush Hour ${i}` }, ana)));
    const second = await startSecondApp();
    try {
      // Every other knack goes to the other process: only what the database holds can keep the count.
      const answers = await Promise.all(pieces.map((p, i) => knack(bea, p, {}, i % 2 ? second.url : app)));
      const paid = answers.filter((a) => a.status === 200);
      const asked = answers.filter((a) => a.status === 428);
      expect([paid.length, asked.length]).toEqual([9, 21]);
      expect(paid.every((a) => a.body.message === 'Thank you for being apart of our Community.' && a.body.earnedMicros === 50_000)).toBe(true);
      expect(asked.every((a) => a.body.message === 'You have knacked a lot today. Enter the 4-digit code we emailed you to go on.')).toBe(true);
    } finally {
      await second.stop();
    }
    const entries = await LedgerEntryModel.find({ kind: 'knack', actorId: bea.user.id }).lean();
    expect(entries).toHaveLength(9);
    expect(await balance(ana)).toBe(9 * 50_000);
    expect(await balanceOf(PLATFORM_KNACKS)).toBe(-9 * 50_000);
  }, 120_000);

  it('when the 9 knacks were more than 24 hours ago, then no code is asked; 9 within the window, and it is', async () => {
    const [first, second] = await Promise.all([piece({ title: 'Window Opens' }), piece({ title: 'Window Closes' })]);
    const hoursAgo = (hours: number) => Array.from({ length: 9 }, (_, i) => new Date(Date.now() - hours * 3_600_000 - i * 1000)).reverse();
    // Bea's window as her 9 knacks left it, written where a knack reads it: yesterday's last version.
    const day = Math.floor(Date.now() / 86_400_000);
    const expiresAt = new Date((day + 1) * 86_400_000);
    await KnackWindowModel.create({ _id: `${bea.user.id}|${day - 1}|1`, recentAt: hoursAgo(25), expiresAt });
    await knack(bea, first).expect(200);
    // The window keeps the knacks of the last 24 hours only: the old ones went, the new one is in.
    const today = (await KnackWindowModel.find({}).lean()).filter((version) => version._id.startsWith(`${bea.user.id}|${day}|`));
    expect(today.map((version) => [version._id, version.recentAt.length])).toEqual([[`${bea.user.id}|${day}|1`, 1]]);

    await KnackWindowModel.deleteMany({});
    forgetKnackWindows();
    await KnackWindowModel.create({ _id: `${bea.user.id}|${day - 1}|1`, recentAt: hoursAgo(23), expiresAt });
    expect((await knack(bea, second).expect(428)).body.message).toBe(KNACK_MESSAGES.codeNeeded);
    expect(await recentKnacksOf(bea)).toBe(9);
  });

  it('when the code is guessed 5 times wrong, then even the right code no longer works', async () => {
    const pieces = await Promise.all(Array.from({ length: 10 }, (_, i) => piece({ title: `Guessing ${i}` })));
    for (const p of pieces.slice(0, 9)) await knack(cara, p).expect(200);
    await request(app).post('/api/v2/knack/over-knack').set(bearer(cara)).send({ userId: cara.user.id }).expect(200);
    const code = /\b(\d{4})\b/.exec((await smtp.nextMailTo(cara.form.email)).text.split('enter this code:')[1] ?? '')![1]!;
    const wrong = String((Number(code) + 1) % 10_000).padStart(4, '0');
    for (let i = 0; i < 5; i += 1) await knack(cara, pieces[9]!, { code: wrong }).expect(400);
    await knack(cara, pieces[9]!, { code }).expect(400);
  }, 60_000);
});

describe('the knack window, kept as inserted versions', () => {
  const DAY = 86_400_000;
  const memberWithToken = async (name: string) => {
    const [user] = await UserModel.insertMany([{ email: `${name}@knack.test`, username: `${name}_window`, firstName: name, isActive: true }]);
    const id = String(user!._id);
    return { id, headers: { Authorization: `Bearer ${signAccessToken(testConfig().auth, { userId: id, tokenVersion: 0 })}` } };
  };

  it('when a member’s window has a long chain of versions this process never saw, then the next knack continues after the last one', async () => {
    const dan = await memberWithToken('dan');
    const day = Math.floor(Date.now() / DAY);
    const expiresAt = new Date((day + 2) * DAY);
    // 37 versions today; the last holds 8 knacks of the last hour, earlier ones as many as 9.
    const times = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.now() - 3_600_000 + i * 1000));
    await KnackWindowModel.insertMany(
      Array.from({ length: 37 }, (_, i) => ({ _id: `${dan.id}|${day}|${i + 1}`, recentAt: times(i === 36 ? 8 : 9), expiresAt })),
    );
    const [ninth, tenth] = await Promise.all([piece({ title: 'Chain Ninth' }), piece({ title: 'Chain Tenth' })]);

    await request(app).post('/api/v2/knack/add').set(dan.headers).send({ contentId: ninth.id, userId: dan.id }).expect(200);
    const latest = await KnackWindowModel.findById(`${dan.id}|${day}|38`).lean();
    expect(latest?.recentAt).toHaveLength(9);
    expect(await KnackWindowModel.exists({ _id: `${dan.id}|${day}|39` })).toBeNull();
    const asked = await request(app).post('/api/v2/knack/add').set(dan.headers).send({ contentId: tenth.id, userId: dan.id }).expect(428);
    expect(asked.body.message).toBe(KNACK_MESSAGES.codeNeeded);
  });

  it('when another process added to yesterday’s window after this one last read it, then today’s first knack counts that knack too', async () => {
    const eve = await memberWithToken('eve');
    const day = Math.floor(Date.now() / DAY);
    const expiresAt = new Date((day + 1) * DAY);
    const minutesAgo = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.now() - 60_000 * (n - i)));
    await KnackWindowModel.create({ _id: `${eve.id}|${day - 1}|1`, recentAt: minutesAgo(8), expiresAt });
    // This process reads Eve's window (and remembers where yesterday's chain ended)...
    expect((await request(app).get('/api/v2/knack/get-available-knacks').set(eve.headers).expect(200)).body.recentKnacks).toBe(8);
    // ...then her 9th knack is made through another process, before the day's first here.
    await KnackWindowModel.create({ _id: `${eve.id}|${day - 1}|2`, recentAt: minutesAgo(9), expiresAt });
    const photo = await piece({ title: 'Carried Over' });
    const asked = await request(app).post('/api/v2/knack/add').set(eve.headers).send({ contentId: photo.id, userId: eve.id }).expect(428);
    expect(asked.body.message).toBe(KNACK_MESSAGES.codeNeeded);
  });

  it('when the housekeeping job runs, then it deletes past days’ window versions, stale play sessions and old code attempts, and keeps the rest', async () => {
    const now = new Date();
    const day = Math.floor(now.getTime() / DAY);
    const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
    await KnackWindowModel.insertMany([
      { _id: `someone|${day - 2}|1`, recentAt: [], expiresAt: new Date(day * DAY) },
      { _id: `someone|${day - 1}|1`, recentAt: [], expiresAt: new Date((day + 1) * DAY) },
    ]);
    const song = { userId: new Types.ObjectId(), contentId: new Types.ObjectId(), minMs: 1000 };
    await PlaySessionModel.insertMany([
      { _id: 'stale-play', ...song, startedAt: hoursAgo(25) },
      { _id: 'fresh-play', ...song, startedAt: hoursAgo(1) },
    ]);
    await KnackCodeAttemptModel.insertMany([
      { _id: 'attempt:someone:old:1', at: hoursAgo(25) },
      { _id: 'attempt:someone:new:1', at: hoursAgo(1) },
    ]);

    expect(await purgeStaleKnackRecords(now)).toBe(3);
    expect((await KnackWindowModel.find({}).lean()).map((v) => v._id)).toEqual([`someone|${day - 1}|1`]);
    expect((await PlaySessionModel.find({}).lean()).map((p) => p._id)).toEqual(['fresh-play']);
    expect((await KnackCodeAttemptModel.find({}).lean()).map((a) => a._id)).toEqual(['attempt:someone:new:1']);
  });
});

describe('what a piece and a member have', () => {
  /** A knack by a member made for it (written straight to the database, with a real access token). */
  const knackByNewMember = async (photo: PublishedPiece) => {
    const member = await createMember();
    await request(app).post('/api/v2/knack/add').set(ledgerBearer(member)).send({ contentId: photo.id, userId: member.id }).expect(200);
  };

  it('when a piece has been knacked, then get-money gives its value and what it earned; the member sees their balance', async () => {
    const photo = await piece({ title: 'Money Talk' }, cara);
    await knack(bea, photo).expect(200);
    const money = await request(app).get(`/api/v2/knack/get-money/${photo.id}`).expect(200);
    expect(money.body).toMatchObject({
      contentId: photo.id,
      knackValue: 0.05,
      knackValueMicros: 50_000,
      isPaidOut: true,
      reactedCount: 1,
      earned: 0.05,
      earnedMicros: 50_000,
    });
    expect(typeof money.body.knackRate).toBe('number');

    const mine = await request(app).get('/api/v2/knack/get-available-knacks').set(bearer(ana)).expect(200);
    expect(mine.body).toEqual({ balance: 0.045, balanceMicros: 45_000, canCashOut: false, recentKnacks: 0, knacksBeforeCode: 9 });
  });

  it('when a supporter paid a piece’s listing fee and it was knacked twice, then get-money’s earned is the two knacks alone, not the fee', async () => {
    const photo = await piece({ title: 'Fee Is Not Earned' }, cara);
    await post({
      _id: listingKey(photo.id),
      kind: 'listing',
      at: new Date(),
      actorId: new Types.ObjectId(cara.user.id),
      contentId: new Types.ObjectId(photo.id),
      method: 'card',
      amountMicros: 650_000,
      ref: 'pay_fee_not_earned',
      legs: [
        { account: 'external:payments', amountMicros: -650_000 },
        { account: PLATFORM_FEES, amountMicros: 650_000 },
      ],
    });
    await knack(bea, photo).expect(200);
    await knackByNewMember(photo);
    const money = await request(app).get(`/api/v2/knack/get-money/${photo.id}`).expect(200);
    expect(money.body).toMatchObject({ knackValueMicros: 50_000, reactedCount: 2, earned: 0.1, earnedMicros: 100_000 });
    expect([await balance(ana), await balance(cara), await balanceOf(PLATFORM_FEES)]).toEqual([90_000, 10_000, 650_000]);
  });

  it('when the owner hides a piece’s count, then get-money tells its earnings only to the owner, the supporter who paid its fee and admins', async () => {
    const photo = await piece({ title: 'Quiet Earnings' }, cara);
    await knack(bea, photo).expect(200);
    await knackByNewMember(photo);
    await ContentModel.updateOne({ _id: photo.id }, { $set: { 'setting.hideViewCount': true } });
    const moneyFor = async (m?: { token: string }) => {
      const call = request(app).get(`/api/v2/knack/get-money/${photo.id}`);
      return (await (m ? call.set({ Authorization: `Bearer ${m.token}` }) : call).expect(200)).body;
    };
    const untold = { knackValueMicros: 50_000, reactedCount: null, earned: null, earnedMicros: null };
    expect(await moneyFor()).toMatchObject(untold);
    expect(await moneyFor(bea)).toMatchObject(untold);
    expect(await moneyFor(ana)).toMatchObject({ reactedCount: 2, earned: 0.1, earnedMicros: 100_000 });
    expect(await moneyFor(cara)).toMatchObject({ reactedCount: null, earned: 0.1, earnedMicros: 100_000 });
    expect(await moneyFor(await adminMember())).toMatchObject({ reactedCount: 2, earned: 0.1, earnedMicros: 100_000 });
  });

  it('when someone knacks for another member, a private piece or without signing in, then it is refused and nothing is written', async () => {
    const photo = await piece({ title: 'Guarded' }, ana);
    await request(app).post('/api/v2/knack/add').send({ contentId: photo.id, userId: bea.user.id }).expect(401);
    const forOther = await request(app).post('/api/v2/knack/add').set(bearer(bea)).send({ contentId: photo.id, userId: cara.user.id }).expect(403);
    expect(forOther.body.message).toBe(KNACK_MESSAGES.forSelf);
    await ContentModel.updateOne({ _id: photo.id }, { $set: { 'setting.public': false, 'setting.private': true, listed: false } });
    await knack(bea, photo).expect(404);
    await request(app).get(`/api/v2/knack/get-money/${photo.id}`).expect(404);
    await request(app).get(`/api/v2/knack/get-money/${photo.id}`).set(bearer(bea)).expect(404);
    // Its owner still sees what her private piece is worth.
    expect((await request(app).get(`/api/v2/knack/get-money/${photo.id}`).set(bearer(ana)).expect(200)).body).toMatchObject({ contentId: photo.id });
    await knack(bea, { id: new Types.ObjectId().toHexString() }).expect(404);
    await request(app).post('/api/v2/knack/add').set(bearer(bea)).send({ contentId: photo.id, userId: bea.user.id, amount: 5 }).expect(400);
    expect(await LedgerEntryModel.countDocuments({})).toBe(0);
  });
});

describe('the ledger', () => {
  it('when a movement does not balance or is not in whole micro-dollars, then it is refused and nothing is written; a duplicate key answers the original', async () => {
    const base = { kind: 'knack' as const, at: new Date(), actorId: new Types.ObjectId(), contentId: null };
    await expect(post({ ...base, _id: 'knack:x:1', legs: [{ account: 'user:a', amountMicros: 10 }] })).rejects.toThrow('sum to zero');
    await expect(
      post({
        ...base,
        _id: 'knack:x:2',
        legs: [
          { account: 'user:a', amountMicros: 0.5 },
          { account: PLATFORM_KNACKS, amountMicros: -0.5 },
        ],
      }),
    ).rejects.toThrow('whole micro-dollars');
    expect(await LedgerEntryModel.countDocuments({})).toBe(0);
    const legs = [
      { account: 'user:a', amountMicros: 7 },
      { account: PLATFORM_KNACKS, amountMicros: -7 },
    ];
    expect((await post({ ...base, _id: 'knack:x:3', legs })).created).toBe(true);
    const twin = await post({
      ...base,
      _id: 'knack:x:3',
      legs: [
        { account: 'user:b', amountMicros: 9 },
        { account: PLATFORM_KNACKS, amountMicros: -9 },
      ],
    });
    expect(twin).toMatchObject({ created: false, entry: { legs } });
    expect(await balanceOf('user:b')).toBe(0);
  });
});
