/**
 * Artist pages on the real database: a visitor's Top 50 entry (their upload pass, the uploads it allows, the waiting
 * account of the email, the limits), registering that account from the mailed link (auth/signup-orland, with the
 * sign-up's rules and messages), members' Top 50 entries and the artist's own uploads (content/save-artist).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { smtpMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { seedReferenceData } from '../../server/db/seed';
import { RateLimitModel } from '../../server/lib/rate-limit';
import { ContentModel } from '../../server/modules/contents';
import { UploadModel } from '../../server/modules/media';
import { UserModel } from '../../server/modules/users';
import { createTestApp, createTestServices } from '../helpers/app';
import { createActiveMember, GOOD_PASSWORD, newSignup, refreshCookieOf } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { png, wav } from '../helpers/media';
import { startSmtpServer, type ReceivedMail } from '../helpers/smtp';

useTestDatabase();

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let services: ReturnType<typeof createTestServices>;
type Member = Awaited<ReturnType<typeof createActiveMember>>;
let artist: Member;
let fan: Member;
let mailCount = 0;

beforeAll(async () => {
  smtp = await startSmtpServer();
  const mailer = smtpMailer(smtp.url, 'x@knack.test');
  const storage = localStorage(mkdtempSync(path.join(os.tmpdir(), 'knack-artist-pages-')));
  // The app and the jobs share one set of services, as in a running process.
  services = createTestServices({ mailer, storage });
  app = createTestApp({ mailer, storage, services });
  await seedReferenceData();
  artist = await createActiveMember(app, smtp, { username: `miles_${Date.now() % 100000}` });
  fan = await createActiveMember(app, smtp);
});
afterAll(async () => {
  await smtp.stop();
});
// Every test starts with fresh limits: they are all counted against the one address of the test client.
beforeEach(async () => {
  await RateLimitModel.deleteMany({});
});

const bearer = (m: Member) => ({ Authorization: `Bearer ${m.token}` });
const newEmail = () => `visitor.${++mailCount}.${Date.now()}@example.com`;

async function passFor(artistId: string): Promise<string> {
  const res = await request(app).post('/api/v2/content/top50-upload-pass').send({ artistId }).expect(201);
  return res.body.pass as string;
}

/** A song's two files, uploaded with a visitor's pass: the paths to save with. */
async function visitorFiles(pass: string) {
  const photo = await request(app)
    .post('/api/v2/content/upload-photo')
    .set('X-Upload-Pass', pass)
    .attach('file', await png(), 'cover.png')
    .expect(201);
  const audio = await request(app).post('/api/v2/content/upload-audio').set('X-Upload-Pass', pass).attach('file', wav(1), 'song.wav').expect(201);
  return { photoPath: photo.body.path as string, audioPath: audio.body.path as string };
}

const song = (email: string, files: { photoPath?: string; audioPath?: string }, title = 'So What') => ({
  artistId: artist.user.id,
  title,
  email,
  description: 'Modal, 1959',
  tags: [{ name: 'Music' }],
  subTag: 'Jazz',
  ...files,
});

/** A visitor's whole entry: a pass, the two files, the save (its answer). */
async function visitorEntry(email: string, title = 'So What') {
  const pass = await passFor(artist.user.id);
  const files = await visitorFiles(pass);
  return request(app)
    .post('/api/v2/content/save-top50')
    .set('X-Upload-Pass', pass)
    .send(song(email, files, title))
    .then((res) => res);
}

/** The registration link of a mail: its account id and token. */
function registrationLink(mail: ReceivedMail) {
  const match = /\/([a-z0-9_.]+)-music-top-50\/([0-9a-f]{24})\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`no registration link in:\n${mail.text}`);
  return { chart: match[1]!, userId: match[2]!, token: match[3]! };
}

const chartTitles = async () => {
  const res = await request(app).get(`/api/v2/content/top50/${artist.form.username}`).expect(200);
  return (res.body.contents as { title: string }[]).map((c) => c.title);
};

describe('a visitor’s upload pass and uploads', () => {
  it('when a visitor asks for a pass to an artist who does not exist, then 404; for a real artist, a pass for 2 hours', async () => {
    const missing = await request(app).post('/api/v2/content/top50-upload-pass').send({ artistId: '64b000000000000000000000' }).expect(404);
    expect(missing.body.message).toBe('User not found');
    const res = await request(app).post('/api/v2/content/top50-upload-pass').send({ artistId: artist.user.id }).expect(201);
    expect(typeof res.body.pass).toBe('string');
    const hours = (Date.parse(res.body.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.9);
    expect(hours).toBeLessThanOrEqual(2);
  });

  it('when a visitor uploads without a pass or with a made-up one, then 401; the profile photo call never takes a pass', async () => {
    const none = await request(app)
      .post('/api/v2/content/upload-photo')
      .attach('file', await png(), 'cover.png')
      .expect(401);
    expect(none.body.message).toBe('Please log in, or open the upload form again.');
    const pass = await passFor(artist.user.id);
    const forged = `${pass.slice(0, -4)}AAAA`;
    const refused = await request(app).post('/api/v2/content/upload-audio').set('X-Upload-Pass', forged).attach('file', wav(1), 'song.wav').expect(401);
    expect(refused.body.message).toBe('Please log in, or open the upload form again.');
    const avatar = await request(app)
      .post('/api/v2/user/upload-photo')
      .set('X-Upload-Pass', pass)
      .attach('file', await png(), 'me.png')
      .expect(401);
    expect(avatar.body.message).toBe('Please log in.');
  });

  it('when a visitor uploads with a pass, then the file goes through the members’ checks (a text file named .png is refused)', async () => {
    const pass = await passFor(artist.user.id);
    const fake = await request(app)
      .post('/api/v2/content/upload-photo')
      .set('X-Upload-Pass', pass)
      .attach('file', Buffer.from('not an image'), 'cover.png')
      .expect(415);
    expect(fake.body.message).toBe('Only PNG and JPEG images are accepted.');
    const files = await visitorFiles(pass);
    expect(files.photoPath).toMatch(/^images\//);
    expect(files.audioPath).toMatch(/^audio\//);
  });

  it('when one address sends more than 20 visitor uploads in an hour, then 429, counted before the pass is read', async () => {
    for (let i = 0; i < 20; i++)
      await request(app).post('/api/v2/content/upload-photo').set('X-Upload-Pass', 'nope').attach('file', Buffer.from('x'), 'a.png').expect(401);
    const res = await request(app).post('/api/v2/content/upload-photo').set('X-Upload-Pass', 'nope').attach('file', Buffer.from('x'), 'a.png').expect(429);
    expect(res.body.message).toBe('Too many uploads. Please wait and try again.');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('when one pass sends more than 6 files, then 429', async () => {
    const pass = await passFor(artist.user.id);
    const image = await png(8, 8);
    for (let i = 0; i < 6; i++) await request(app).post('/api/v2/content/upload-photo').set('X-Upload-Pass', pass).attach('file', image, 'a.png').expect(201);
    const res = await request(app).post('/api/v2/content/upload-photo').set('X-Upload-Pass', pass).attach('file', image, 'a.png').expect(429);
    expect(res.body.message).toBe('Too many uploads. Please wait and try again.');
  });
});

describe('a visitor’s Top 50 entry', () => {
  it('when the email is not valid, then "Email must be valid" and no account is made', async () => {
    const pass = await passFor(artist.user.id);
    const files = await visitorFiles(pass);
    const res = await request(app).post('/api/v2/content/save-top50').set('X-Upload-Pass', pass).send(song('not-an-email', files)).expect(400);
    expect(res.body.message).toBe('Email must be valid');
    expect(res.body.errors).toEqual([{ path: 'email', message: 'Email must be valid' }]);
    expect(await UserModel.countDocuments({ awaitsRegistration: true, email: 'not-an-email' })).toBe(0);
  });

  it('when a visitor saves without a pass, or with a pass for another artist, then 401 and nothing is made', async () => {
    const none = await request(app).post('/api/v2/content/save-top50').send(song(newEmail(), {})).expect(401);
    expect(none.body.message).toBe('Please log in, or open the upload form again.');
    const pass = await passFor(fan.user.id);
    const files = await visitorFiles(pass);
    const email = newEmail();
    const other = await request(app).post('/api/v2/content/save-top50').set('X-Upload-Pass', pass).send(song(email, files)).expect(401);
    expect(other.body.message).toBe('Please log in, or open the upload form again.');
    expect(await UserModel.countDocuments({ email })).toBe(0);
  });

  it('when a visitor saves, then a waiting account holds the song out of sight and the registration link is mailed', async () => {
    const email = newEmail();
    const res = await visitorEntry(email, 'Blue in Green');
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Check your email: your song joins the chart once you register from the link we sent.');

    const account = await UserModel.findOne({ email }).lean();
    expect(account).toMatchObject({ awaitsRegistration: true, isActive: false, passwordHash: null, registrationChart: artist.form.username });
    const piece = await ContentModel.findById(res.body.content.id).lean();
    expect(piece).toMatchObject({ awaitingOwner: true, listed: false, isTop50: true, top50Email: email });
    expect(String(piece!.ownerId)).toBe(String(account!._id));
    expect(String(piece!.top50ArtistId)).toBe(artist.user.id);
    expect(piece!.setting.public).toBe(false);
    // Not on the chart, not to be opened by anyone, its files not public.
    expect(await chartTitles()).not.toContain('Blue in Green');
    await request(app).get(`/api/v2/content/get-by-id/${res.body.content.id}`).expect(404);
    await request(app).get(`/files/${piece!.media.photoKey}`).expect(404);

    const mail = await smtp.nextMailTo(email);
    expect(mail.subject).toBe(`Confirm your song for ${artist.form.username}'s Top 50 on Knack`);
    const link = registrationLink(mail);
    expect(link).toMatchObject({ chart: artist.form.username, userId: String(account!._id) });
  });

  it('when the waiting account tries to sign in or to reset its password, then it cannot; the reset mails the registration link', async () => {
    const email = newEmail();
    expect((await visitorEntry(email)).status).toBe(201);
    await smtp.nextMailTo(email);
    for (const password of ['', GOOD_PASSWORD, 'anything']) {
      const res = await request(app)
        .post('/api/v2/auth/signin')
        .send({ email, password: password || 'x' })
        .expect(401);
      expect(res.body.message).toBe('Incorrect email or password.');
    }
    await request(app).post('/api/v2/auth/request-reset-password').send({ email }).expect(200);
    const mail = await smtp.nextMailTo(email);
    expect(mail.text).not.toContain('/auth/reset-password');
    expect(registrationLink(mail).userId).toBe(String((await UserModel.findOne({ email }).lean())!._id));
    // The sign-up form's first step goes on to the sign-up (no account one signs in to has the address), and the
    // sign-up answers as for a new address, mailing the registration link again.
    await request(app)
      .get(`/api/v2/user/get-user-by-email/${encodeURIComponent(email)}`)
      .expect(404);
    const again = await request(app).post('/api/v2/auth/signup').send(newSignup({ email })).expect(201);
    expect(again.body.message).toBe('Check Your Email');
    expect(registrationLink(await smtp.nextMailTo(email)).userId).toBe(String((await UserModel.findOne({ email }).lean())!._id));
    expect(await UserModel.countDocuments({ email })).toBe(1);
  });

  it('when the same address sends a second song, and then two at once, then it still has one account', async () => {
    const email = newEmail();
    expect((await visitorEntry(email, 'First')).status).toBe(201);
    expect((await visitorEntry(email.toUpperCase(), 'Second')).status).toBe(201);
    const [a, b] = await Promise.all([visitorEntry(` ${email} `, 'Third'), visitorEntry(email, 'Fourth')]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const accounts = await UserModel.find({ email }).lean();
    expect(accounts).toHaveLength(1);
    const owners = await ContentModel.find({ top50Email: email }).lean();
    expect(owners.map((p) => p.title).sort()).toEqual(['First', 'Fourth', 'Second', 'Third']);
    expect(new Set(owners.map((p) => String(p.ownerId)))).toEqual(new Set([String(accounts[0]!._id)]));
  });

  it('when two first songs from a new address arrive at once, then one account is made', async () => {
    const email = newEmail();
    const passes = await Promise.all([passFor(artist.user.id), passFor(artist.user.id)]);
    const files = await Promise.all(passes.map((pass) => visitorFiles(pass)));
    const answers = await Promise.all(
      passes.map((pass, i) =>
        request(app)
          .post('/api/v2/content/save-top50')
          .set('X-Upload-Pass', pass)
          .send(song(email, files[i]!, `Take ${i}`)),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([201, 201]);
    expect(await UserModel.countDocuments({ email })).toBe(1);
  });

  it('when the email is a member’s, then 409 and the member is told to log in', async () => {
    const pass = await passFor(artist.user.id);
    const files = await visitorFiles(pass);
    const res = await request(app).post('/api/v2/content/save-top50').set('X-Upload-Pass', pass).send(song(fan.form.email, files)).expect(409);
    expect(res.body.message).toBe('This email belongs to a Knack account. Log in to upload.');
    expect(await ContentModel.countDocuments({ top50Email: fan.form.email })).toBe(0);
  });

  it('when one address sends more than 10 entries in an hour, then 429 before any check', async () => {
    for (let i = 0; i < 10; i++) await request(app).post('/api/v2/content/save-top50').send(song('nope', {})).expect(401);
    const res = await request(app).post('/api/v2/content/save-top50').send(song('nope', {})).expect(429);
    expect(res.body.message).toBe('Too many songs sent. Please wait and try again.');
  });

  it('when one email is given more than 5 times in a day, then 429 and no more mail goes to it', async () => {
    const email = newEmail();
    for (let i = 0; i < 5; i++) {
      expect((await visitorEntry(email, `Song ${i}`)).status).toBe(201);
      await smtp.nextMailTo(email);
    }
    const res = await visitorEntry(email, 'Song 6');
    expect(res.status).toBe(429);
    expect(res.body.message).toBe('Too many songs sent. Please wait and try again.');
    expect(await ContentModel.countDocuments({ top50Email: email })).toBe(5);
  });
});

describe('registering a waiting account (auth/signup-orland)', () => {
  async function waiting(title = 'Flamenco Sketches') {
    const email = newEmail();
    expect((await visitorEntry(email, title)).status).toBe(201);
    return { email, ...registrationLink(await smtp.nextMailTo(email)) };
  }
  const register = (body: Record<string, unknown>) => request(app).post('/api/v2/auth/signup-orland').send(body);
  const name = () => `fan_${Date.now() % 1_000_000}_${++mailCount}`;

  it('when the form breaks a sign-up rule, then the sign-up’s message, and the link still works', async () => {
    const { userId, token } = await waiting();
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'You should input your username.'],
      [{ username: 'someone' }, 'You should input your password.'],
      [{ username: 'someone', password: GOOD_PASSWORD }, 'You should input your confirm password.'],
      [{ username: 'abc', password: GOOD_PASSWORD, passwordConfirm: GOOD_PASSWORD }, 'Sorry, your username must be between 6 and 30 characters long.'],
      [
        { username: 'weak_password', password: 'password', passwordConfirm: 'password' },
        'Password should include at least one uppercase, numeric, special charater and also should have 8 or more length',
      ],
      [{ username: 'mismatch_1', password: GOOD_PASSWORD, passwordConfirm: `${GOOD_PASSWORD}x` }, "Those passwords didn't match. Try again."],
      [{ username: artist.form.username, password: GOOD_PASSWORD, passwordConfirm: GOOD_PASSWORD }, 'That username is taken. Try another.'],
    ];
    for (const [fields, message] of cases) {
      const res = await register({ userId, token, ...fields }).expect(400);
      expect(res.body.message).toBe(message);
    }
    await register({ userId, token, username: name(), password: GOOD_PASSWORD, passwordConfirm: GOOD_PASSWORD }).expect(201);
  });

  it('when the link is made up or names another account, then "This registration link is invalid or has expired."', async () => {
    const { userId, token } = await waiting();
    const form = { username: name(), password: GOOD_PASSWORD, passwordConfirm: GOOD_PASSWORD };
    expect((await register({ userId, token: 'made-up', ...form }).expect(400)).body.message).toBe('This registration link is invalid or has expired.');
    expect((await register({ userId: fan.user.id, token, ...form }).expect(400)).body.message).toBe('This registration link is invalid or has expired.');
  });

  it('when registered, then the account is real and signed in, the song is on the chart, and sign-in works; the link works once', async () => {
    const { email, userId, token } = await waiting('All Blues');
    expect(await chartTitles()).not.toContain('All Blues');
    const username = name();
    const res = await register({ userId, token, username: `  ${username.toUpperCase()} `, password: GOOD_PASSWORD, passwordConfirm: GOOD_PASSWORD }).expect(
      201,
    );
    expect(res.body.message).toBe('Successfully created an account.');
    expect(res.body.user).toMatchObject({ id: userId, username, email });
    expect(typeof res.body.token).toBe('string');
    expect(refreshCookieOf(res)).toBeTruthy();

    const account = await UserModel.findById(userId).lean();
    expect(account).toMatchObject({ awaitsRegistration: false, isActive: true, username });
    const piece = await ContentModel.findOne({ ownerId: userId }).lean();
    expect(piece).toMatchObject({ awaitingOwner: false, listed: true, ownerUsername: username });
    expect(piece!.setting.public).toBe(true);
    expect(await chartTitles()).toContain('All Blues');
    await request(app).get(`/files/${piece!.media.photoKey}`).expect(200);

    const signin = await request(app).post('/api/v2/auth/signin').send({ email, password: GOOD_PASSWORD }).expect(200);
    expect(signin.body.user.username).toBe(username);
    const again = await register({ userId, token, username: name(), password: GOOD_PASSWORD, passwordConfirm: GOOD_PASSWORD }).expect(400);
    expect(again.body.message).toBe('This registration link is invalid or has expired.');
  });

  it('when the link is sent twice at once, then one registration succeeds', async () => {
    const { userId, token } = await waiting();
    const answers = await Promise.all(
      [name(), name()].map((username) => register({ userId, token, username, password: GOOD_PASSWORD, passwordConfirm: GOOD_PASSWORD })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(await UserModel.countDocuments({ _id: userId, awaitsRegistration: false })).toBe(1);
  });
});

describe('waiting accounts whose link ended unused', () => {
  const DAY = 86_400_000;

  it('when the last registration link has ended, then the job removes the account with its songs and files; a newer one stays', async () => {
    const stale = newEmail();
    const fresh = newEmail();
    const first = await visitorEntry(stale, 'Forgotten Song');
    expect(first.status).toBe(201);
    await smtp.nextMailTo(stale);
    const account = (await UserModel.findOne({ email: stale }).lean())!;
    const piece = (await ContentModel.findById(first.body.content.id).lean())!;
    // A later entry from another address, mailed 20 days after the first.
    expect((await visitorEntry(fresh, 'Recent Song')).status).toBe(201);
    await smtp.nextMailTo(fresh);
    await UserModel.updateOne({ email: fresh }, { $set: { activationSentAt: new Date(Date.now() + 20 * DAY) } });

    expect(await services.account.removeUnregisteredAccounts(new Date(Date.now() + 29 * DAY))).toBe(0);
    expect(await UserModel.countDocuments({ _id: account._id })).toBe(1);

    const removed = await services.account.removeUnregisteredAccounts(new Date(Date.now() + 31 * DAY));
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await UserModel.countDocuments({ _id: account._id })).toBe(0);
    expect(await ContentModel.countDocuments({ _id: piece._id })).toBe(0);
    expect(await UploadModel.countDocuments({ _id: piece.photoUploadId })).toBe(0);
    expect(await UploadModel.countDocuments({ _id: piece.audioUploadId })).toBe(0);
    expect(await UserModel.countDocuments({ email: fresh, awaitsRegistration: true })).toBe(1);
    // Registered members are never touched, and a second run finds nothing more of the first.
    expect(await UserModel.countDocuments({ _id: artist.user.id })).toBe(1);
    await services.account.removeUnregisteredAccounts(new Date(Date.now() + 31 * DAY));
    expect(await UserModel.countDocuments({ email: fresh })).toBe(1);
  });
});

describe('members on artist pages', () => {
  async function memberFiles(m: Member) {
    const photo = await request(app)
      .post('/api/v2/content/upload-photo')
      .set(bearer(m))
      .attach('file', await png(), 'cover.png')
      .expect(201);
    const audio = await request(app).post('/api/v2/content/upload-audio').set(bearer(m)).attach('file', wav(1), 'song.wav').expect(201);
    return { photoPath: photo.body.path as string, audioPath: audio.body.path as string };
  }

  it('when a member enters a song in another artist’s Top 50, then it is theirs and on the chart at once', async () => {
    const res = await request(app)
      .post('/api/v2/content/save-top50')
      .set(bearer(fan))
      .send(song(fan.form.email, await memberFiles(fan), 'Freddie'))
      .expect(201);
    expect(res.body.content.ownerId).toBe(fan.user.id);
    expect(await chartTitles()).toContain('Freddie');
    const unknown = await request(app)
      .post('/api/v2/content/save-top50')
      .set(bearer(fan))
      .send({ ...song(fan.form.email, await memberFiles(fan)), artistId: '64b000000000000000000000' })
      .expect(404);
    expect(unknown.body.message).toBe('User not found');
  });

  it('when the artist uploads to their own page, then the song is theirs (isOrlando) and on their chart; a visitor cannot', async () => {
    const res = await request(app)
      .post('/api/v2/content/save-artist')
      .set(bearer(artist))
      .send({
        userId: artist.user.id,
        title: 'Kind of Blue',
        description: 'The album',
        tags: [{ name: 'Music' }],
        subTag: 'Music 2',
        ...(await memberFiles(artist)),
      })
      .expect(201);
    expect(res.body.content).toMatchObject({ ownerId: artist.user.id, isOrlando: true });
    expect(await chartTitles()).toContain('Kind of Blue');
    await request(app).post('/api/v2/content/save-artist').send({ userId: artist.user.id, title: 'T' }).expect(401);
  });
});
