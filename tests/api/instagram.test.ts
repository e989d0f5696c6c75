/**
 * Posting a piece to Instagram, on the real app and database, against a stand-in of Instagram's API that speaks its
 * real calls (tests/helpers/instagram-standin.ts) and fetches the picture from the app as Instagram does:
 * - without an Instagram app configured, the calls say what posting needs;
 * - connecting: the consent page, back through `/instagram/callback` to the page the member left; a consent begun in
 *   another browser, or declined, connects nothing; the token is kept encrypted;
 * - posting a public piece: the picture as a JPEG within a feed post's shapes, the caption with the title, artist
 *   and link, the spec's success message; the same piece twice at once or just after, a private piece, another
 *   member's hidden piece, no connection, and a token Instagram ended.
 */
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { Types } from 'mongoose';
import { localStorage } from '../../server/integrations/storage';
import { ContentModel } from '../../server/modules/contents';
import { INSTAGRAM_RATIOS } from '../../server/modules/instagram';
import { InstagramLinkModel } from '../../server/modules/instagram/testing';
import { RateLimitModel } from '../../server/lib/rate-limit';
import { signedToken } from '../../server/lib/signed-token';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { startInstagramStandIn, STANDIN_APP, type InstagramStandIn } from '../helpers/instagram-standin';
import { bearer, createMember, createPiece, type TestMember, type TestPiece } from '../helpers/ledger-factory';
import { png } from '../helpers/media';

useTestDatabase();

const SHARED = 'The content was shared to Instragram Successfully.';
const NOT_CONFIGURED = 'Posting to Instagram is not offered on this server: its operator has not set INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET.';

let standIn: InstagramStandIn;
let server: http.Server;
let publicUrl: string;
let app: ReturnType<typeof createTestApp>;
let linksKey: string;
const storage = localStorage(mkdtempSync(path.join(os.tmpdir(), 'knack-instagram-files-')));

beforeAll(async () => {
  standIn = await startInstagramStandIn();
  // Instagram fetches the picture from the app's public address: the app listens on loopback, and that is its address.
  let handler: http.RequestListener = (_req, res) => res.end();
  server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const instagram = standIn.appConfig();
  linksKey = instagram.linksKey;
  app = createTestApp({ config: { publicUrl, instagram }, storage });
  handler = app;
});

afterAll(async () => {
  await standIn.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(async () => {
  await RateLimitModel.deleteMany({});
  standIn.setDecline(false);
});

/** A public piece whose picture is really stored: `width` × `height` pixels. */
async function pieceWithPicture(owner: TestMember, width = 300, height = 900): Promise<TestPiece> {
  const piece = await createPiece(owner, { title: `Harbor ${new Types.ObjectId().toHexString().slice(-5)}` });
  const key = `images/test/${piece.id}.png`;
  await storage.putBuffer(key, await png(width, height), 'image/png');
  await ContentModel.updateOne({ _id: piece.id }, { $set: { 'media.photoKey': key, ownerName: 'Nora Vale' } });
  return piece;
}

/** Connects `member`'s Instagram as a browser does: the call, the consent page, the callback with the cookie. */
async function connect(member: TestMember, returnTo = '/explore') {
  const started = await request(app).post('/api/v2/instagram/connection').set(bearer(member)).send({ returnTo }).expect(200);
  const cookie = ([] as string[]).concat(started.headers['set-cookie'] ?? []).find((c) => c.startsWith('knack_instagram_connect='))!;
  const consent = await fetch(started.body.authorizeUrl as string, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location')!);
  const callback = await request(app).get(`${back.pathname}${back.search}`).set('Cookie', cookie.split(';')[0]!).expect(303);
  return { started, cookie, back, location: callback.headers.location as string };
}

const post = (member: TestMember, contentId: string) => request(app).post('/api/v2/instagram/posts').set(bearer(member)).send({ contentId });

describe('without an Instagram app', () => {
  it('when the server has none, then the connection says what posting needs, and connecting or posting answers 404 with it', async () => {
    const bare = createTestApp();
    const ana = await createMember();
    expect((await request(bare).get('/api/v2/instagram/connection').set(bearer(ana)).expect(200)).body).toEqual({
      configured: false,
      connected: false,
      username: null,
      expiresAt: null,
      message: NOT_CONFIGURED,
    });
    expect((await request(bare).post('/api/v2/instagram/connection').set(bearer(ana)).send({}).expect(404)).body).toMatchObject({
      code: 'not_configured',
      message: NOT_CONFIGURED,
    });
    const piece = await createPiece(ana);
    expect((await request(bare).post('/api/v2/instagram/posts').set(bearer(ana)).send({ contentId: piece.id }).expect(404)).body.message).toBe(NOT_CONFIGURED);
  });

  it('when a visitor asks, then 401', async () => {
    await request(app).get('/api/v2/instagram/connection').expect(401);
    await request(app).post('/api/v2/instagram/posts').send({ contentId: new Types.ObjectId().toHexString() }).expect(401);
  });
});

describe('connecting an account', () => {
  it('when the member consents, then they come back to the page they left, connected, and the token is kept encrypted', async () => {
    const ana = await createMember();
    const { started, back, location } = await connect(ana, '/nora_vale?tab=art');
    const consentPage = new URL(started.body.authorizeUrl as string);
    expect(Object.fromEntries(consentPage.searchParams)).toMatchObject({
      client_id: STANDIN_APP.appId,
      redirect_uri: `${publicUrl}/instagram/callback`,
      response_type: 'code',
      scope: 'instagram_business_basic,instagram_business_content_publish',
    });
    expect(back.origin + back.pathname).toBe(`${publicUrl}/instagram/callback`);
    expect(location).toBe('/nora_vale?tab=art&instagram=connected');
    const connection = (await request(app).get('/api/v2/instagram/connection').set(bearer(ana)).expect(200)).body;
    expect(connection).toMatchObject({ configured: true, connected: true, username: 'nora.vale.art', message: null });
    expect(Date.parse(connection.expiresAt) - Date.now()).toBeGreaterThan(59 * 86_400_000);
    const stored = JSON.stringify(await InstagramLinkModel.findById(ana.id).lean());
    for (const token of standIn.issuedTokens()) expect(stored).not.toContain(token);
  });

  it('when the callback comes in a browser without the cookie (a consent someone else began), then nothing is connected', async () => {
    const ana = await createMember();
    const started = await request(app).post('/api/v2/instagram/connection').set(bearer(ana)).send({ returnTo: '/explore' }).expect(200);
    const back = new URL((await fetch(started.body.authorizeUrl as string, { redirect: 'manual' })).headers.get('location')!);
    const callback = await request(app).get(`${back.pathname}${back.search}`).expect(303);
    const to = new URL(callback.headers.location as string, publicUrl);
    expect(to.pathname).toBe('/explore');
    expect(to.searchParams.get('instagram')).toBe('failed');
    expect(to.searchParams.get('reason')).toMatch(/not started from this browser/);
    expect((await request(app).get('/api/v2/instagram/connection').set(bearer(ana))).body.connected).toBe(false);
  });

  it('when the member declines, then they come back told why, and a forged or foreign return address leads home', async () => {
    const bea = await createMember();
    standIn.setDecline(true);
    const declined = new URL((await connect(bea, '//evil.example/x')).location, publicUrl);
    expect(declined.origin).toBe(publicUrl);
    expect(declined.pathname).toBe('/');
    expect(Object.fromEntries(declined.searchParams)).toEqual({ instagram: 'failed', reason: 'The user denied your request.' });
    const forged = await request(app).get('/instagram/callback?code=abc&state=not.a.state.at.all').expect(303);
    expect(forged.headers.location).toMatch(/^\/\?instagram=failed&reason=/);
  });

  it('when the member disconnects, then the account and its token are forgotten', async () => {
    const cid = await createMember();
    await connect(cid);
    expect((await request(app).delete('/api/v2/instagram/connection').set(bearer(cid)).expect(200)).body).toEqual({ message: 'Instagram is disconnected.' });
    expect((await request(app).get('/api/v2/instagram/connection').set(bearer(cid))).body).toMatchObject({ connected: false, username: null });
    expect(await InstagramLinkModel.countDocuments({ _id: cid.id })).toBe(0);
  });
});

describe('posting a piece', () => {
  it('when a connected member posts a tall public picture, then Instagram gets a JPEG framed to 4:5 and the caption with the title, artist and link', async () => {
    const ana = await createMember();
    await connect(ana);
    const piece = await pieceWithPicture(ana, 300, 900);
    const before = standIn.posts.length;
    const res = await post(ana, piece.id).expect(201);
    expect(res.body).toEqual({
      message: SHARED,
      mediaId: expect.stringMatching(/^\d+$/),
      permalink: expect.stringMatching(/^https:\/\/www\.instagram\.com\/p\//),
      username: 'nora.vale.art',
    });
    expect(standIn.posts).toHaveLength(before + 1);
    const made = standIn.posts.at(-1)!;
    const content = (await ContentModel.findById(piece.id).lean())!;
    expect(made.caption).toBe(`${piece.title} by Nora Vale on Knack\n${publicUrl}/${content.ownerUsername}-${content.slug}`);
    expect(made.image.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(made.width / made.height).toBeCloseTo(INSTAGRAM_RATIOS.tallest, 2);
    expect(made.height).toBe(1350);
  });

  it('when the picture is a wide panorama, then it is framed to 1.91:1 and posted', async () => {
    const ana = await createMember();
    await connect(ana);
    const piece = await pieceWithPicture(ana, 1200, 200);
    await post(ana, piece.id).expect(201);
    const made = standIn.posts.at(-1)!;
    expect(made.width).toBe(1080);
    expect(made.width / made.height).toBeCloseTo(INSTAGRAM_RATIOS.widest, 1);
  });

  it('when the same piece is posted twice at once, or again at once after, then it is posted once', async () => {
    const ana = await createMember();
    await connect(ana);
    const piece = await pieceWithPicture(ana, 600, 600);
    const before = standIn.posts.length;
    const answers = await Promise.all([post(ana, piece.id), post(ana, piece.id)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.message).toBe('This piece is being posted to your Instagram already.');
    expect((await post(ana, piece.id).expect(409)).body.message).toBe('This piece was posted to your Instagram a moment ago.');
    expect(standIn.posts).toHaveLength(before + 1);
  });

  it('when the piece is private, another member’s hidden piece, or no piece, then 409 or 404 and nothing is posted', async () => {
    const [ana, bea] = [await createMember(), await createMember()];
    await connect(ana);
    const mine = await pieceWithPicture(ana);
    await ContentModel.updateOne({ _id: mine.id }, { $set: { 'setting.public': false, 'setting.private': true } });
    const theirs = await pieceWithPicture(bea);
    await ContentModel.updateOne({ _id: theirs.id }, { $set: { 'setting.public': false, 'setting.private': true } });
    const before = standIn.posts.length;
    expect((await post(ana, mine.id).expect(409)).body.message).toBe('Only a public piece can be posted to Instagram: it fetches the picture as anyone would.');
    expect((await post(ana, theirs.id).expect(404)).body.message).toBe('Content not found');
    expect((await post(ana, new Types.ObjectId().toHexString()).expect(404)).body.message).toBe('Content not found');
    await post(ana, 'not-an-id').expect(400);
    expect(standIn.posts).toHaveLength(before);
  });

  it('when the member posts another member’s public piece, then it is posted with that artist named', async () => {
    const [ana, bea] = [await createMember(), await createMember()];
    await connect(ana);
    const theirs = await pieceWithPicture(bea, 500, 500);
    await post(ana, theirs.id).expect(201);
    expect(standIn.posts.at(-1)!.caption).toContain(`${theirs.title} by Nora Vale on Knack`);
  });

  it('when the member has not connected an account, then 409 and what to do', async () => {
    const dee = await createMember();
    const piece = await pieceWithPicture(dee);
    expect((await post(dee, piece.id).expect(409)).body.message).toBe('Connect your Instagram professional account first.');
  });

  it('when Instagram has ended the token, then 409, the connection is forgotten, and connecting again works', async () => {
    const eve = await createMember();
    await connect(eve);
    const piece = await pieceWithPicture(eve);
    standIn.revokeAll();
    expect((await post(eve, piece.id).expect(409)).body.message).toBe('Your Instagram connection has ended: connect your account again.');
    expect((await request(app).get('/api/v2/instagram/connection').set(bearer(eve))).body.connected).toBe(false);
    await connect(eve);
    await post(eve, piece.id).expect(201);
  });
});

describe('the picture links', () => {
  it('when a link was not made by the server, then 404', async () => {
    await request(app).get('/instagram-images/abc.def.jpg').expect(404);
    await request(app).get(`/instagram-images/${new Types.ObjectId().toHexString()}.9999999999999.forged.jpg`).expect(404);
  });

  it('while a link lasts it serves the JPEG of a public piece; once it ended, or the piece is no longer public, 404', async () => {
    const ana = await createMember();
    const piece = await pieceWithPicture(ana, 400, 400);
    const link = (until: number) => `/instagram-images/${signedToken(linksKey, 'instagram-image', [piece.id, String(until)])}.jpg`;
    const live = await request(app)
      .get(link(Date.now() + 60_000))
      .expect(200);
    expect(live.headers['content-type']).toBe('image/jpeg');
    await request(app)
      .get(link(Date.now() - 1))
      .expect(404);
    await ContentModel.updateOne({ _id: piece.id }, { $set: { 'setting.public': false, 'setting.private': true } });
    await request(app)
      .get(link(Date.now() + 60_000))
      .expect(404);
  });
});

describe('the kept token', () => {
  it('when it has less than 10 days left, then posting renews it for 60 days first', async () => {
    const ana = await createMember();
    await connect(ana);
    await InstagramLinkModel.updateOne({ _id: ana.id }, { $set: { expiresAt: new Date(Date.now() + 86_400_000) } });
    const before = (await InstagramLinkModel.findById(ana.id).lean())!;
    await post(ana, (await pieceWithPicture(ana, 500, 500)).id).expect(201);
    const after = (await InstagramLinkModel.findById(ana.id).lean())!;
    expect(after.tokenCipher).not.toBe(before.tokenCipher);
    expect(after.expiresAt.getTime() - Date.now()).toBeGreaterThan(59 * 86_400_000);
  });
});
