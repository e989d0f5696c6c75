/**
 * Plays and earnings by the site that embedded the player, on the real database: an embed play from another site is
 * recorded under that site's registrable domain (and Knack's own pages, a withheld or broken address under Knack
 * itself); a signed-in member's knack made in the embed pays exactly as one made on Knack and keeps the site on its
 * ledger entry; the earnings-rollups job counts plays and earnings by member and site, and `analytics/embed-hosts`
 * answers them to the member and admins only.
 */
import { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { addDays, utcDayOf } from '../../server/lib/calendar';
import { runEarningsRollups } from '../../server/modules/analytics';
import { EarningsDayModel, hostsDayId } from '../../server/modules/analytics/testing';
import { ContentModel } from '../../server/modules/contents';
import { KNACK_MESSAGES } from '../../server/modules/knacks';
import { balanceOf, canonicalEntry, LedgerEntryModel, PLATFORM_KNACKS, userAccount, type LedgerEntryDoc } from '../../server/modules/ledger';
import { clearLedger } from '../../server/modules/ledger/testing';
import { EmbedPlayModel } from '../../server/modules/share';
import { createTestApp } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { freezeDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { publishPiece, type Member, type PublishedPiece } from '../helpers/e2e-pieces';
import { adminMember, bearer as factoryBearer } from '../helpers/ledger-factory';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

const FAN_PAGE = 'https://blog.fans.example/2030/05/sea-songs?ref=knack#player';
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let ana: Member; // owner of the song
let cara: Member; // the supporter who paid its listing fee: 10% of each knack
let bea: Member; // knacks in the embed
let dan: Member; // knacks on Knack
let song: PublishedPiece;

const bearer = (m: Member) => ({ Authorization: `Bearer ${m.token}` });
const react = (contentId: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  request(app)
    .post('/api/v2/content/react')
    .set(headers)
    .send({ contentId, ...body });
const hostsOf = (m: Member, query = '', as: Record<string, string> = bearer(m)) =>
  request(app).get(`/api/v2/analytics/embed-hosts/${m.user.id}${query}`).set(as);

/** A knack of the song as the player makes it: a play session, half the song later the knack (time moved by the test). */
async function knackSong(m: Member, extra: Record<string, string> = {}) {
  const clock = freezeDate();
  try {
    const play = await request(app).post('/api/v2/knack/play').set(bearer(m)).send({ contentId: song.id }).expect(201);
    clock.advance(play.body.minSeconds * 1000);
    return await request(app)
      .post('/api/v2/knack/add')
      .set(bearer(m))
      .send({ contentId: song.id, userId: m.user.id, playId: play.body.playId, ...extra })
      .expect(200);
  } finally {
    clock.restore();
  }
}

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test') });
  ana = await createActiveMember(app, smtp, { firstName: 'Ana' });
  cara = await createActiveMember(app, smtp, { firstName: 'Cara' });
  bea = await createActiveMember(app, smtp, { firstName: 'Bea' });
  dan = await createActiveMember(app, smtp, { firstName: 'Dan' });
  song = await publishPiece(app, ana, { title: 'Sea Song', tag: 'Music', subTag: 'Jazz', hue: 200, coverSide: 64, seconds: 1 });
  // Listed by Cara, as the listing-fee payment leaves it.
  await ContentModel.updateOne({ _id: song.id }, { $set: { isPaidOut: true, payerId: new Types.ObjectId(cara.user.id) } });
}, 90_000);

afterAll(async () => smtp.stop());

beforeEach(async () => {
  await Promise.all([EmbedPlayModel.deleteMany({}), clearLedger(), EarningsDayModel.deleteMany({})]);
  await runEarningsRollups(); // forgets the answers kept from an earlier test
});

describe('embed plays by site', () => {
  it('when a visitor plays the song in a player framed by another site, then the play is recorded under its registrable domain, and nothing else of the address', async () => {
    await react(song.id, { embedReferrer: FAN_PAGE }, { 'User-Agent': 'Reader' }).expect(200, { playCount: 1, counted: true });
    const [play] = await EmbedPlayModel.find({}).lean();
    expect(play).toMatchObject({ host: 'fans.example', ownerId: new Types.ObjectId(ana.user.id), contentId: new Types.ObjectId(song.id) });
    expect(JSON.stringify(play)).not.toContain('blog.');
    expect(JSON.stringify(play)).not.toContain('sea-songs');
  });

  it('when the framing page is Knack itself, withheld, or not a web address, then the play is counted under Knack itself', async () => {
    // The test app is reached at 127.0.0.1: a page on that host (another port too) is Knack's own.
    for (const [agent, referrer] of [
      ['Preview', 'http://127.0.0.1:4000/ana-sea-song'],
      ['Withheld', ''],
      ['Script', 'javascript:alert(1)'],
      ['Intranet', 'http://intranet/wiki'],
    ]) {
      await react(song.id, { embedReferrer: referrer! }, { 'User-Agent': agent! }).expect(200);
    }
    await react(song.id, {}, { 'User-Agent': 'Direct' }).expect(200);
    const plays = await EmbedPlayModel.find({}).lean();
    expect(plays).toHaveLength(5);
    expect(plays.every((play) => play.host === undefined)).toBe(true);
  });

  it('when the address sent is longer than any referrer, then 400 and nothing is counted', async () => {
    const res = await react(song.id, { embedReferrer: `https://fans.example/${'x'.repeat(2048)}` }).expect(400);
    expect(res.body.errors).toEqual([{ path: 'embedReferrer', message: 'must NOT have more than 2048 characters' }]);
    expect(await EmbedPlayModel.countDocuments({})).toBe(0);
  });
});

describe('a knack made in the embed', () => {
  it('when a signed-in member knacks the song in the embed, then it pays exactly as a knack on Knack, and its entry keeps the site', async () => {
    const inEmbed = await knackSong(bea, { embedReferrer: FAN_PAGE });
    const onKnack = await knackSong(dan);
    expect(inEmbed.body).toEqual({ ...onKnack.body, reactedCount: onKnack.body.reactedCount - 1 });
    expect(inEmbed.body).toMatchObject({ message: KNACK_MESSAGES.thanks, knackStatus: 2 });
    const value = inEmbed.body.earnedMicros as number;
    expect(value).toBeGreaterThan(0);

    const embedEntry = (await LedgerEntryModel.findById(`knack:${song.id}:${bea.user.id}`).lean<LedgerEntryDoc>())!;
    const knackEntry = (await LedgerEntryModel.findById(`knack:${song.id}:${dan.user.id}`).lean<LedgerEntryDoc>())!;
    const owner = value - Math.floor(value / 10);
    expect(embedEntry.legs).toEqual([
      { account: PLATFORM_KNACKS, amountMicros: -value },
      { account: userAccount(ana.user.id), amountMicros: owner },
      { account: userAccount(cara.user.id), amountMicros: value - owner },
    ]);
    expect(knackEntry.legs).toEqual(embedEntry.legs);
    expect(embedEntry.embedHost).toBe('fans.example');
    expect('embedHost' in knackEntry).toBe(false);
    // The site is part of the entry's proof (its canonical encoding), like every stored field.
    expect(canonicalEntry(embedEntry)).toContain('"embedHost":"fans.example"');
    expect([await balanceOf(userAccount(ana.user.id)), await balanceOf(userAccount(cara.user.id))]).toEqual([2 * owner, 2 * (value - owner)]);

    // Knacked again from the embed: the one entry stands.
    const again = await knackSong(bea, { embedReferrer: 'https://other.example/' });
    expect(again.body.message).toBe(KNACK_MESSAGES.already);
    expect((await LedgerEntryModel.findById(embedEntry._id).lean<LedgerEntryDoc>())!.embedHost).toBe('fans.example');
  });
});

describe('GET /analytics/embed-hosts/{id}', () => {
  it('when the job has counted the plays and knacks, then the owner and the supporter see each by site, most earned first, adding up to their earnings', async () => {
    await react(song.id, { embedReferrer: FAN_PAGE }, { 'User-Agent': 'Reader 1' }).expect(200);
    await react(song.id, { embedReferrer: 'https://www.fans.example/' }, { 'User-Agent': 'Reader 2' }).expect(200);
    await react(song.id, { embedReferrer: 'https://forum.other.example/t/1' }, { 'User-Agent': 'Reader 3' }).expect(200);
    await react(song.id, { embedReferrer: FAN_PAGE }, bearer(bea)).expect(200);
    const { body: knacked } = await knackSong(bea, { embedReferrer: FAN_PAGE });
    await knackSong(dan);
    const value = knacked.earnedMicros as number;
    const owner = value - Math.floor(value / 10);

    // Counted by the job: until it runs, nothing shows.
    expect((await hostsOf(ana).expect(200)).body).toMatchObject({ plays: 0, knacks: 0, earnedMicros: 0, hostsCount: 0, hosts: [], countedAt: null });
    await runEarningsRollups();

    const today = utcDayOf(new Date());
    const { body } = await hostsOf(ana).expect(200);
    expect(body).toEqual({
      userId: ana.user.id,
      period: 'week',
      from: utcDayOf(addDays(new Date(`${today}T00:00:00.000Z`), -6)),
      to: today,
      countedAt: expect.any(String),
      plays: 4,
      knacks: 2,
      earned: (2 * owner) / 1e6,
      earnedMicros: 2 * owner,
      hostsCount: 3,
      hosts: [
        { host: 'fans.example', plays: 3, knacks: 1, earned: owner / 1e6, earnedMicros: owner },
        { host: null, plays: 0, knacks: 1, earned: owner / 1e6, earnedMicros: owner },
        { host: 'other.example', plays: 1, knacks: 0, earned: 0, earnedMicros: 0 },
      ],
    });
    // The supporter's 10% by site; the plays are the owner's.
    const supporter = (await hostsOf(cara).expect(200)).body;
    expect(supporter).toMatchObject({ plays: 0, knacks: 2, earnedMicros: 2 * (value - owner), hostsCount: 2 });
    expect(supporter.hosts).toEqual([
      { host: 'fans.example', plays: 0, knacks: 1, earned: (value - owner) / 1e6, earnedMicros: value - owner },
      { host: null, plays: 0, knacks: 1, earned: (value - owner) / 1e6, earnedMicros: value - owner },
    ]);
    // The same as the ledger says, member by member.
    expect(body.earnedMicros).toBe(await balanceOf(userAccount(ana.user.id)));
    expect(supporter.earnedMicros).toBe(await balanceOf(userAccount(cara.user.id)));
    // One document per member and day, read by its key.
    expect(await EarningsDayModel.findById(hostsDayId(ana.user.id, today)).lean()).toMatchObject({ day: today });
  });

  it('when plays are older than a week, then only the month shows them; a play counted before plays kept their owner goes to its piece’s owner', async () => {
    const tenDaysAgo = addDays(new Date(), -10);
    await EmbedPlayModel.create([
      { _id: `play:${song.id}:hOld:${utcDayOf(tenDaysAgo)}`, contentId: new Types.ObjectId(song.id), at: tenDaysAgo, host: 'fans.example' },
      // As older code wrote it: no owner, no site.
      { _id: `play:${song.id}:hOlder:${utcDayOf(tenDaysAgo)}`, contentId: new Types.ObjectId(song.id), at: tenDaysAgo },
    ]);
    await runEarningsRollups();
    expect((await hostsOf(ana).expect(200)).body).toMatchObject({ plays: 0, hosts: [] });
    const month = (await hostsOf(ana, '?period=month').expect(200)).body;
    expect(month).toMatchObject({ period: 'month', plays: 2, hostsCount: 2 });
    expect(month.hosts).toEqual([
      { host: 'fans.example', plays: 1, knacks: 0, earned: 0, earnedMicros: 0 },
      { host: null, plays: 1, knacks: 0, earned: 0, earnedMicros: 0 },
    ]);
  });

  it('when another member, a visitor or a bad period asks, then 404, 401 and 400; an admin may read any member’s', async () => {
    const other = await hostsOf(ana, '', bearer(bea)).expect(404);
    expect(other.body.message).toBe('This member does not exist.');
    await request(app).get(`/api/v2/analytics/embed-hosts/${ana.user.id}`).expect(401);
    await hostsOf(ana, '?period=year').expect(400);
    const admin = await adminMember();
    expect((await hostsOf(ana, '', factoryBearer(admin)).expect(200)).body.userId).toBe(ana.user.id);
  });
});
