/**
 * Stored public answers (server/lib/public-responses.ts): a public feed page, the suggestions and the tag
 * list answered again within a second come from the store in front of the app, byte for byte what the app
 * answered, with its security headers, their own request id, ETag / 304 and gzip; a write clears them, an
 * answer expires after a second, and refused or member-only requests are never stored.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { SubscriptionModel } from '../../server/modules/subscriptions';
import { createTestApp } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { freezeDate, type FrozenDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { publishPiece, type Member } from '../helpers/e2e-pieces';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

interface LogLine {
  msg: string;
  stored?: boolean;
  req?: { url: string };
}

/** Every access-log line of the app, parsed. */
const logLines: LogLine[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(JSON.parse(chunk.toString()) as LogLine);
      done();
    },
  }),
);
const storedAnswers = (url: string) => logLines.filter((line) => line.stored && line.req?.url === url).length;

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let ana: Member;

const NEW_FEED = '/api/v2/content/get-all?limit=5';

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ logger, mailer: smtpMailer(smtp.url, 'x@knack.test') });
  ana = await createActiveMember(app, smtp);
  await publishPiece(app, ana, { title: 'Harbour Lights', tag: 'Photos', subTag: 'Travel', hue: 200 });
}, 60_000);

afterAll(async () => smtp.stop());

// "Now" moves only when a test moves it, so two requests meant to fall in one second always do.
let clock: FrozenDate;
beforeEach(() => {
  clock = freezeDate();
});
afterEach(() => clock.restore());

/** Moves past the one second an answer is kept. */
const pastTheSecond = () => clock.advance(1_001);

describe('stored public answers', () => {
  it('when a feed page is asked twice, then the second answer comes from the store with the same bytes, headers and ETag, and its own request id', async () => {
    pastTheSecond();
    const first = await request(app).get(NEW_FEED).expect(200);
    const second = await request(app).get(NEW_FEED).expect(200);
    expect(storedAnswers(NEW_FEED)).toBe(1);
    expect(second.text).toBe(first.text);
    expect(second.body.contents.map((c: { title: string }) => c.title)).toEqual(['Harbour Lights']);
    expect(second.headers.etag).toBe(first.headers.etag);
    for (const header of ['content-type', 'content-security-policy', 'x-content-type-options', 'strict-transport-security', 'cross-origin-opener-policy']) {
      expect(second.headers[header]).toBe(first.headers[header]);
    }
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    const given = await request(app).get(NEW_FEED).set('X-Request-Id', 'trace-42').expect(200);
    expect(given.headers['x-request-id']).toBe('trace-42');
  });

  it('when the caller already has the answer (If-None-Match), then it gets 304 without a body; gzip is given to those who accept it', async () => {
    pastTheSecond();
    const first = await request(app).get('/api/v2/tag/get-all').expect(200);
    const again = await request(app).get('/api/v2/tag/get-all').set('If-None-Match', first.headers.etag!).expect(304);
    expect(again.text).toBe('');
    expect(storedAnswers('/api/v2/tag/get-all')).toBeGreaterThanOrEqual(1);
    // (supertest unzips what it is sent gzipped)
    const zipped = await request(app).get('/api/v2/tag/get-all').set('Accept-Encoding', 'gzip').expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(Number(zipped.headers['content-length'])).toBeLessThan(Buffer.byteLength(first.text) / 2);
    expect(zipped.text).toBe(first.text);
    const head = await request(app).head('/api/v2/tag/get-all').expect(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(first.text)));
  });

  it('when a piece is published, then the next answer shows it at once; and an answer is kept one second only', async () => {
    pastTheSecond();
    await request(app).get(NEW_FEED).expect(200);
    await request(app).get(NEW_FEED).expect(200);
    const before = storedAnswers(NEW_FEED);
    await publishPiece(app, ana, { title: 'Quiet Pier', tag: 'Photos', subTag: 'Travel', hue: 30 });
    const after = await request(app).get(NEW_FEED).expect(200);
    expect(after.body.contents.map((c: { title: string }) => c.title)).toEqual(['Quiet Pier', 'Harbour Lights']);
    expect(storedAnswers(NEW_FEED)).toBe(before);

    await request(app).get(NEW_FEED).expect(200); // stored
    expect(storedAnswers(NEW_FEED)).toBe(before + 1);
    pastTheSecond();
    await request(app).get(NEW_FEED).expect(200); // expired: the whole way again
    expect(storedAnswers(NEW_FEED)).toBe(before + 1);
  });

  it('when a request is refused or is a member’s own, then it is never answered from the store', async () => {
    const refused = '/api/v2/content/get-by-kind/popular?limit=500';
    for (let i = 0; i < 2; i += 1) await request(app).get(refused).expect(400);
    expect(storedAnswers(refused)).toBe(0);

    const own = `/api/v2/content/get-by-username/${ana.form.username}`;
    for (let i = 0; i < 2; i += 1) await request(app).get(own).set('Authorization', `Bearer ${ana.token}`).expect(200);
    expect(storedAnswers(own)).toBe(0);

    const titles = '/api/v2/content/get-all-titles?q=harb';
    const posted = await request(app)
      .post('/api/v2/content/get-by-subtags')
      .send({ subTags: ['Travel'] })
      .expect(200);
    expect(posted.body.contents.length).toBe(2);
    await request(app).get(titles).expect(200);
    const suggested = await request(app).get(titles).expect(200);
    expect(suggested.body.titles.map((t: { title: string }) => t.title)).toEqual(['Harbour Lights']);
    expect(storedAnswers(titles)).toBe(1);
  });

  it('when a member asks for their own analytics twice, then the second comes from the store, private to the token that asked: another member, or no token, never gets it', async () => {
    await SubscriptionModel.create({ userId: ana.user.id, planId: 2, subscriptionId: 'sub-stored-answers' });
    const bo = await createActiveMember(app, smtp);
    const own = `/api/v2/analytics/earnings/${ana.user.id}?period=week`;
    const first = await request(app).get(own).set('Authorization', `Bearer ${ana.token}`).expect(200);
    const second = await request(app).get(own).set('Authorization', `Bearer ${ana.token}`).expect(200);
    expect(storedAnswers(own)).toBe(1);
    expect(second.text).toBe(first.text);
    expect(second.headers['cache-control']).toBe('private, no-cache');
    expect(second.headers.vary).toContain('Authorization');

    // The same URL with another member's token, or with none, goes to the app, which refuses it.
    const other = await request(app).get(own).set('Authorization', `Bearer ${bo.token}`).expect(404);
    expect(other.body.message).toBe('This member does not exist.');
    await request(app).get(own).expect(401);
    expect(storedAnswers(own)).toBe(1);
  });
});
