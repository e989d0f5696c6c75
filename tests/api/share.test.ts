/**
 * Share and embed on the real database: invites by email (the mail, who may send, limits), embed plays
 * counted once per visitor per piece per day and never on a piece that is not public, and the embeddable
 * player page's headers (framable by any site, while the SPA is not).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { createLogger } from '../../server/lib/logger';
import { countHit, RateLimitModel } from '../../server/lib/rate-limit';
import { ContentModel } from '../../server/modules/contents';
import { LedgerEntryModel } from '../../server/modules/ledger';
import { createShareService, EmbedPlayModel, INVITE_LIMIT, SHARE_MESSAGES } from '../../server/modules/share';
import { createTestApp, testConfig } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { publishPiece, type Member, type PublishedPiece } from '../helpers/e2e-pieces';
import { freezeDate } from '../helpers/clock';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

const PUBLIC_URL = 'http://knack.test';
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let ana: Member; // owner
let bea: Member; // inviter / viewer
let song: PublishedPiece;
let secret: PublishedPiece;

const bearer = (m: Member) => ({ Authorization: `Bearer ${m.token}` });
const invite = (m: Member, body: Record<string, string>) => request(app).post('/api/v2/user/invite-user').set(bearer(m)).send(body);
const react = (contentId: string, headers: Record<string, string> = {}) => request(app).post('/api/v2/content/react').set(headers).send({ contentId });
const playCountOf = async (id: string) => (await ContentModel.findById(id).lean())!.playCount;

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
  ana = await createActiveMember(app, smtp, { firstName: 'Ana', lastName: 'Lima' });
  bea = await createActiveMember(app, smtp, { firstName: 'Bea', lastName: 'Moon' });
  song = await publishPiece(app, ana, { title: 'Night & Day <Live>', tag: 'Music', subTag: 'Jazz', hue: 10, seconds: 2 });
  secret = await publishPiece(app, ana, { title: 'Hidden Sketch', tag: 'Art', subTag: 'Pixel Art', hue: 200 });
  await ContentModel.updateOne({ _id: secret.id }, { $set: { setting: { public: false, private: true, followers: false } } });
}, 90_000);

afterAll(async () => smtp.stop());

describe('POST /user/invite-user', () => {
  beforeEach(async () => RateLimitModel.deleteMany({}));

  it('when a member invites a friend to a piece, then the friend gets a mail from them with the title and the share link', async () => {
    const res = await invite(bea, { userId: bea.user.id, contentId: song.id, email: ' friend@example.com ' }).expect(200);
    expect(res.body).toEqual({ message: 'Invite sent successfully' });
    const mail = await smtp.nextMailTo('friend@example.com');
    expect(mail.text).toContain('Bea Moon invited you to');
    expect(mail.text).toContain(`${PUBLIC_URL}${song.link}`);
    expect(song.link).toBe(`/${ana.form.username}-night-day-live`);
    // The title is member input: escaped in the HTML part, never markup.
    expect(mail.text).toContain('Open Night &#38; Day &#60;Live&#62;');
    expect(mail.text).not.toContain('<Live>"');
  });

  it('when the caller sends as someone else, then 403 and no mail', async () => {
    const res = await invite(bea, { userId: ana.user.id, contentId: song.id, email: 'x@example.com' }).expect(403);
    expect(res.body.message).toBe(SHARE_MESSAGES.forSelf);
    expect(smtp.received.filter((m) => m.to.includes('x@example.com'))).toHaveLength(0);
  });

  it('when the piece is private to its owner, then others get 404 while the owner may invite', async () => {
    const res = await invite(bea, { userId: bea.user.id, contentId: secret.id, email: 'y@example.com' }).expect(404);
    expect(res.body.message).toBe('Content not found');
    await invite(bea, { userId: bea.user.id, contentId: '0123456789abcdef01234567', email: 'y@example.com' }).expect(404);
    await invite(ana, { userId: ana.user.id, contentId: secret.id, email: 'y@example.com' }).expect(200);
    expect((await smtp.nextMailTo('y@example.com')).text).toContain('Ana Lima invited you to');
  });

  it('when the email is not valid or fields are missing, then 400 with the exact message', async () => {
    const bad = await invite(bea, { userId: bea.user.id, contentId: song.id, email: 'not-an-email' }).expect(400);
    expect(bad.body.message).toBe('Email must be valid');
    expect(bad.body.errors).toEqual([{ path: 'email', message: 'Email must be valid' }]);
    await invite(bea, { userId: bea.user.id, contentId: song.id }).expect(400);
    await invite(bea, { userId: bea.user.id, contentId: song.id, email: 'a@b.co', extra: 'no' }).expect(400);
  });

  it('when nobody is signed in, then 401', async () => {
    await request(app).post('/api/v2/user/invite-user').send({ userId: bea.user.id, contentId: song.id, email: 'z@example.com' }).expect(401);
  });

  it('when a member has used up the invites of the hour, then 429 with Retry-After, and another member is not limited', async () => {
    const clock = freezeDate();
    try {
      const secondsLeft = Math.ceil((INVITE_LIMIT.windowMs - (Date.now() % INVITE_LIMIT.windowMs)) / 1000);
      for (let i = 0; i < INVITE_LIMIT.max; i++) await countHit(`invite:${bea.user.id}`, INVITE_LIMIT);
      const res = await invite(bea, { userId: bea.user.id, contentId: song.id, email: 'late@example.com' }).expect(429);
      expect(res.body.message).toBe(SHARE_MESSAGES.tooManyInvites);
      expect(res.headers['retry-after']).toBe(String(secondsLeft));
      await invite(ana, { userId: ana.user.id, contentId: song.id, email: 'late@example.com' }).expect(200);
    } finally {
      clock.restore();
    }
  });
});

describe('POST /content/react (embed plays)', () => {
  beforeEach(async () => {
    await EmbedPlayModel.deleteMany({});
    await ContentModel.updateMany({}, { $set: { playCount: 0 } });
  });

  it('when one anonymous visitor plays twice, then one play is counted; another browser counts one more', async () => {
    const first = await react(song.id, { 'User-Agent': 'BrowserA' }).expect(200);
    expect(first.body).toEqual({ playCount: 1, counted: true });
    const again = await react(song.id, { 'User-Agent': 'BrowserA' }).expect(200);
    expect(again.body).toEqual({ playCount: 1, counted: false });
    const other = await react(song.id, { 'User-Agent': 'BrowserB' }).expect(200);
    expect(other.body).toEqual({ playCount: 2, counted: true });
    expect(await playCountOf(song.id)).toBe(2);
    // The visitor key is a keyed hash: no raw address or user agent is stored.
    const ids = (await EmbedPlayModel.find({}).lean()).map((p) => p._id);
    expect(ids.every((id) => !id.includes('127.0.0.1') && !id.includes('Browser'))).toBe(true);
  });

  it('when a signed-in member plays, then they count once whatever their browser, and it moves no money', async () => {
    await react(song.id, { ...bearer(bea), 'User-Agent': 'Phone' }).expect(200, { playCount: 1, counted: true });
    await react(song.id, { ...bearer(bea), 'User-Agent': 'Laptop' }).expect(200, { playCount: 1, counted: false });
    expect(await EmbedPlayModel.findById(`play:${song.id}:u${bea.user.id}:${new Date().toISOString().slice(0, 10)}`).lean()).not.toBeNull();
    expect(await LedgerEntryModel.countDocuments({})).toBe(0);
    expect((await ContentModel.findById(song.id).lean())!.reactedCount).toBe(0);
  });

  it('when 30 plays of one visitor arrive at once, then exactly one is counted', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => react(song.id, { 'User-Agent': 'Burst' })));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    expect(answers.filter((a) => a.body.counted)).toHaveLength(1);
    expect(await playCountOf(song.id)).toBe(1);
  });

  it('when the same visitor comes back the next day, then the play counts again', async () => {
    const share = createShareService({
      mailer: smtpMailer(smtp.url, 'x@knack.test'),
      publicUrl: PUBLIC_URL,
      secret: testConfig().auth.keys.visitorIds,
      logger: createLogger('silent'),
    });
    const visitor = { ip: '203.0.113.9', userAgent: 'Tablet' };
    const today = new Date('2030-05-01T23:59:00Z');
    expect(await share.react(song.id, visitor, today)).toEqual({ playCount: 1, counted: true });
    expect(await share.react(song.id, visitor, new Date('2030-05-01T08:00:00Z'))).toEqual({ playCount: 1, counted: false });
    expect(await share.react(song.id, visitor, new Date('2030-05-02T00:01:00Z'))).toEqual({ playCount: 2, counted: true });
  });

  it('when the piece is not public or does not exist, then 404 and nothing is counted; a bad id is 400', async () => {
    const res = await react(secret.id).expect(404);
    expect(res.body.message).toBe('Content not found');
    await react(secret.id, bearer(ana)).expect(404);
    await react('0123456789abcdef01234567').expect(404);
    await react('nope').expect(400);
    expect(await playCountOf(secret.id)).toBe(0);
    expect(await EmbedPlayModel.countDocuments({})).toBe(0);
  });

  it('when an admin took a public piece down, then its embed plays are 404 and none is counted', async () => {
    await ContentModel.updateOne({ _id: song.id }, { $set: { takenDown: true, isHide: true, listed: false } });
    try {
      const res = await react(song.id, { 'User-Agent': 'TakenDown' }).expect(404);
      expect(res.body.message).toBe('Content not found');
      expect(await playCountOf(song.id)).toBe(0);
      expect(await EmbedPlayModel.countDocuments({})).toBe(0);
    } finally {
      await ContentModel.updateOne({ _id: song.id }, { $set: { takenDown: false, isHide: false, listed: true } });
    }
  });

  it('when a piece is read, then its play count is in the DTO', async () => {
    await react(song.id, { 'User-Agent': 'Reader' }).expect(200);
    const res = await request(app).get(`/api/v2/content/get-by-id/${song.id}`).expect(200);
    expect(res.body.content.playCount).toBe(1);
  });
});

describe('the embeddable player page', () => {
  let site: ReturnType<typeof createTestApp>;

  beforeAll(() => {
    const clientDir = mkdtempSync(path.join(os.tmpdir(), 'knack-client-'));
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Knack</title><div id="root"></div>');
    writeFileSync(path.join(clientDir, 'music-player.html'), '<!doctype html><title>Knack player</title><div id="player"></div>');
    site = createTestApp({ config: { clientDir } });
  });

  it('when /music-player.html is loaded, then any site may frame it: frame-ancestors * and no X-Frame-Options', async () => {
    const res = await request(site).get('/music-player.html?userName=ana&contentId=0123456789abcdef01234567&options=7').expect(200);
    expect(res.text).toContain('Knack player');
    expect(res.headers['x-frame-options']).toBeUndefined();
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain('frame-ancestors *');
    // The rest of the policy stays: own scripts and media only.
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("media-src 'self' blob:");
    // The window a player opens to borrow the member's session keeps its opener, even from another site's page.
    expect(res.headers['cross-origin-opener-policy']).toBe('unsafe-none');
  });

  it('when any other page is loaded, then it stays unframeable', async () => {
    for (const page of ['/', '/explore', `/${ana.form.username}`]) {
      const res = await request(site).get(page).expect(200);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
    const api = await request(site).get('/api/v2/tag/get-all').expect(200);
    expect(api.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
