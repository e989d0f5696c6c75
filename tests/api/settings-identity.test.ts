/**
 * Changing one's username and email from the settings, on the real database:
 * - the username follows the sign-up's rules and messages; a name given up stays its member's, so their old
 *   profile and share links keep leading to them (the calls answer for it, the pages move for good to the new name)
 *   and nobody else can take it; they may take it back;
 * - the email changes only once the link mailed to the new address is opened; the old address is told and can
 *   cancel; the links work once, for 24 hours, and only for the latest request.
 * Both are for oneself (the username also for an admin); another member's id is 404.
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { ContentModel } from '../../server/modules/contents';
import { signAccessToken } from '../../server/lib/access-token';
import { UserModel } from '../../server/modules/users';
import { FormerUsernameModel } from '../../server/modules/users/users.identity';
import { createTestApp, testConfig } from '../helpers/app';
import { newSignup } from '../helpers/auth';
import { freezeDate, freezeInWindow } from '../helpers/clock';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, type TestMember } from '../helpers/ledger-factory';
import { startSmtpServer, tokenFromMail } from '../helpers/smtp';

useTestDatabase();

const DAY = 86_400_000;
const HOUR = 3_600_000;

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let ana: TestMember;
let bea: TestMember;

const changeUsername = (caller: TestMember, id: string, username: string) =>
  request(app).post(`/api/v2/user-setting/update-username/${id}`).set(bearer(caller)).send({ username });
const askEmailChange = (caller: TestMember, id: string, email: string) =>
  request(app).post(`/api/v2/user-setting/update-email/${id}`).set(bearer(caller)).send({ email });
const confirmEmail = (token: string) => request(app).post('/api/v2/auth/confirm-email-change').send({ token });
const cancelEmail = (token: string) => request(app).post('/api/v2/auth/cancel-email-change').send({ token });
const accountOf = (member: TestMember) => UserModel.findById(member.id).lean();
/** The member with an access token issued now: after the test moved its clock, the earlier one has expired or is not valid yet. */
const signedInNow = (member: TestMember): TestMember => ({ ...member, token: signAccessToken(testConfig().auth, { userId: member.id, tokenVersion: 0 }) });

/** A piece of `owner` and its share-link slug. */
async function pieceOf(owner: TestMember) {
  const piece = await createPiece(owner, { title: 'Harbour Lights' });
  const { slug } = (await ContentModel.findById(piece.id).lean())!;
  return { id: piece.id, slug };
}

/** Asks for the change and answers the tokens of the two mails: the confirm link (new address) and the cancel link (old). */
async function askAndReadMails(member: TestMember, newEmail: string) {
  await askEmailChange(member, member.id, newEmail).expect(200);
  const confirmMail = await smtp.nextMailTo(newEmail);
  const notice = await smtp.nextMailTo(member.email);
  return { confirmToken: tokenFromMail(confirmMail, '/confirm'), cancelToken: tokenFromMail(notice, '/confirm'), confirmMail, notice };
}

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
});

describe('POST /user-setting/update-username/{id}', () => {
  it('when Ana gives a name with capitals and spaces, then it is kept trimmed, lower-cased, with underscores, and her pieces’ links use it', async () => {
    const piece = await pieceOf(ana);
    const res = await changeUsername(ana, ana.id, '  Ana Sings Live ').expect(200);
    expect(res.body).toMatchObject({ message: 'Success', user: { id: ana.id, username: 'ana_sings_live', email: ana.email } });
    expect((await accountOf(ana))?.username).toBe('ana_sings_live');
    const profile = await request(app).get('/api/v2/user/profile/ana_sings_live').expect(200);
    expect(profile.body.user.id).toBe(ana.id);
    const linked = await request(app).get(`/api/v2/content/get-by-link/ana_sings_live/${piece.slug}`).expect(200);
    expect(linked.body.content).toMatchObject({ id: piece.id, ownerUsername: 'ana_sings_live', link: `/ana_sings_live-${piece.slug}` });
  });

  it.each([
    ['', 'You should input your username.'],
    ['   ', 'You should input your username.'],
    ['short', 'Sorry, your username must be between 6 and 30 characters long.'],
    ['a'.repeat(31), 'Sorry, your username must be between 6 and 30 characters long.'],
    ['ana-lima', 'Usernames may use letters, numbers, underscores and dots only.'],
    ['ana!lima', 'Usernames may use letters, numbers, underscores and dots only.'],
  ])('when the name is %p, then 400 with the sign-up’s message on username, and nothing changes', async (username, message) => {
    const res = await changeUsername(ana, ana.id, username).expect(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors).toEqual([{ path: 'username', message }]);
    expect((await accountOf(ana))?.username).toBe(ana.username);
  });

  it('when another member has the name, or gave it up, then “That username is taken. Try another.”; sign-up refuses a former name too', async () => {
    const taken = async (username: string) => {
      const res = await changeUsername(ana, ana.id, username).expect(400);
      expect(res.body).toMatchObject({
        message: 'That username is taken. Try another.',
        errors: [{ path: 'username', message: 'That username is taken. Try another.' }],
      });
    };
    await taken(bea.username);
    await taken(` ${bea.username.toUpperCase()} `);
    await changeUsername(bea, bea.id, 'bea_renamed').expect(200);
    // Bea's old name stays hers: nobody can take over the links she posted with it.
    await taken(bea.username);
    expect((await accountOf(ana))?.username).toBe(ana.username);
    const signup = await request(app)
      .post('/api/v2/auth/signup')
      .send(newSignup({ username: bea.username }))
      .expect(400);
    expect(signup.body.message).toBe('That username is taken. Try another.');
    await request(app).get(`/api/v2/user/get-user-by-username/${bea.username}`).expect(200);
  });

  it('when Ana and Bea ask for the same free name at once, then one gets it and the other is told it is taken', async () => {
    const [forAna, forBea] = await Promise.all([changeUsername(ana, ana.id, 'one_free_name'), changeUsername(bea, bea.id, 'one_free_name')]);
    expect([forAna.status, forBea.status].sort()).toEqual([200, 400]);
    expect([forAna, forBea].find((res) => res.status === 400)!.body.message).toBe('That username is taken. Try another.');
    expect(await UserModel.countDocuments({ username: 'one_free_name' })).toBe(1);
  });

  it('a username change keeps the old share link working', async () => {
    const piece = await pieceOf(ana);
    const old = ana.username;
    await changeUsername(ana, ana.id, 'ana_renamed').expect(200);

    // The calls answer for the old name with the member as she is now.
    const profile = await request(app).get(`/api/v2/user/profile/${old}`).expect(200);
    expect(profile.body.user).toMatchObject({ id: ana.id, username: 'ana_renamed' });
    const linked = await request(app).get(`/api/v2/content/get-by-link/${old}/${piece.slug}`).expect(200);
    expect(linked.body.content).toMatchObject({ id: piece.id, ownerUsername: 'ana_renamed', link: `/ana_renamed-${piece.slug}` });
    const uploads = await request(app).get(`/api/v2/content/get-by-username/${old}`).expect(200);
    expect(uploads.body.contents.map((content: { id: string }) => content.id)).toEqual([piece.id]);

    // The pages with the old name move for good to the same page under the new one, the query kept.
    await request(app).get(`/${old}`).expect(301).expect('Location', '/ana_renamed');
    await request(app).get(`/${old}/photos`).expect(301).expect('Location', '/ana_renamed/photos');
    await request(app).get(`/${old}-${piece.slug}`).expect(301).expect('Location', `/ana_renamed-${piece.slug}`);
    await request(app).get(`/${old}-${piece.slug}?utm_source=chat`).expect(301).expect('Location', `/ana_renamed-${piece.slug}?utm_source=chat`);
    const page = await request(app).get(`/ana_renamed-${piece.slug}`).expect(200);
    expect(page.text).toContain(`<meta property="og:url" content="http://knack.test/ana_renamed-${piece.slug}">`);
    const profilePage = await request(app).get('/ana_renamed').expect(200);
    expect(profilePage.text).toContain('<meta property="og:url" content="http://knack.test/ana_renamed">');
  });

  it('when Ana takes back a former name, then it is hers again, and the name she leaves leads to her', async () => {
    const first = ana.username;
    await changeUsername(ana, ana.id, 'ana_second').expect(200);
    const back = await changeUsername(ana, ana.id, first).expect(200);
    expect(back.body.user.username).toBe(first);
    await request(app).get(`/${first}`).expect(200);
    await request(app).get('/ana_second').expect(301).expect('Location', `/${first}`);
    expect((await request(app).get('/api/v2/user/profile/ana_second').expect(200)).body.user.username).toBe(first);
  });

  it('when a name is one of the app’s screens (“Pricing”, “explore”), then it is taken, on rename and at sign-up', async () => {
    for (const name of ['Pricing', 'explore', 'WALLET']) {
      expect((await changeUsername(ana, ana.id, name).expect(400)).body.message).toBe('That username is taken. Try another.');
    }
    const signup = await request(app)
      .post('/api/v2/auth/signup')
      .send(newSignup({ username: 'analytics' }))
      .expect(400);
    expect(signup.body.message).toBe('That username is taken. Try another.');
    expect((await accountOf(ana))?.username).toBe(ana.username);
  });

  it('when a member named like one of the app’s screens renames, then the screen stays where it is', async () => {
    const explore = await createMember({ username: 'explore' });
    await changeUsername(explore, explore.id, 'explorer_now').expect(200);
    const page = await request(app).get('/explore').expect(200);
    expect(page.headers.location).toBeUndefined();
  });

  it('when Bea gives Ana’s id, then 404; an admin may rename Ana', async () => {
    const res = await changeUsername(bea, ana.id, 'bea_took_it').expect(404);
    expect(res.body.message).toBe('This member does not exist.');
    expect((await accountOf(ana))?.username).toBe(ana.username);
    await changeUsername(await adminMember(), ana.id, 'ana_by_admin').expect(200);
    expect((await accountOf(ana))?.username).toBe('ana_by_admin');
  });

  it('when a member made 5 changes today, then the 6th gets 429 with Retry-After; names found taken use up nothing', async () => {
    const clock = freezeInWindow(DAY, 23 * HOUR);
    try {
      ana = signedInNow(ana);
      await changeUsername(ana, ana.id, bea.username).expect(400);
      for (let i = 1; i <= 5; i++) await changeUsername(ana, ana.id, `ana_name_${i}`).expect(200);
      const refused = await changeUsername(ana, ana.id, 'ana_name_6').expect(429);
      expect(refused.body.message).toBe('Too many username changes today. Please try again tomorrow.');
      expect(refused.headers['retry-after']).toBe('3600');
      expect((await accountOf(ana))?.username).toBe('ana_name_5');
    } finally {
      clock.restore();
    }
  });

  it('when 12 changes arrive at once, then at most 5 are made and at most 5 names given up stay reserved to her', async () => {
    const clock = freezeInWindow(DAY, HOUR);
    try {
      ana = signedInNow(ana);
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => changeUsername(ana, ana.id, `ana_burst_${i}`)));
      const made = answers.filter((answer) => answer.status === 200);
      expect(made.length).toBeGreaterThan(0);
      expect(made.length).toBeLessThanOrEqual(5);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(7);
      expect(refused.every((answer) => answer.body.message === 'Too many username changes today. Please try again tomorrow.')).toBe(true);
      expect(await FormerUsernameModel.countDocuments({ userId: ana.id })).toBeLessThanOrEqual(5);
      // The limit is used up: a later change waits for tomorrow too.
      await changeUsername(ana, ana.id, 'ana_after_burst').expect(429);
    } finally {
      clock.restore();
    }
  });
});

describe('POST /user-setting/update-email/{id} and the mailed links', () => {
  it('an email change needs the new address’s link', async () => {
    const res = await askEmailChange(ana, ana.id, '  Ana.New@Example.com ').expect(200);
    expect(res.body.message).toBe('We sent a link to ana.new@example.com. Your email changes when you open it.');
    expect(res.body.user).toMatchObject({ email: ana.email, pendingEmail: 'ana.new@example.com' });
    // Nothing changes until the link is opened.
    expect(await accountOf(ana)).toMatchObject({ email: ana.email, pendingEmail: 'ana.new@example.com' });

    const confirmMail = await smtp.nextMailTo('ana.new@example.com');
    expect(confirmMail.text).toContain('Your email changes when you open this link.');
    const notice = await smtp.nextMailTo(ana.email);
    expect(notice.text).toContain('Your Knack email is being changed to ana.new@example.com.');
    expect(notice.text).toContain('If this was not you, cancel the change');

    const confirmed = await confirmEmail(tokenFromMail(confirmMail, '/confirm')).expect(200);
    expect(confirmed.body).toEqual({ message: 'Your email is now ana.new@example.com.', userId: ana.id, email: 'ana.new@example.com' });
    expect(await accountOf(ana)).toMatchObject({ email: 'ana.new@example.com', pendingEmail: null });

    // The link works once.
    const again = await confirmEmail(tokenFromMail(confirmMail, '/confirm')).expect(400);
    expect(again.body.message).toBe('This email change link is invalid or has expired.');
    // The notice's cancel link came too late: the change is made.
    await cancelEmail(tokenFromMail(notice, '/confirm')).expect(400);
    expect((await accountOf(ana))?.email).toBe('ana.new@example.com');
  });

  it('when the link is opened after 24 hours, then it fails, the email stays, and the change no longer shows as waiting', async () => {
    const clock = freezeDate();
    try {
      const { confirmToken } = await askAndReadMails(ana, 'ana.late@example.com');
      clock.advance(24 * HOUR + 1_000);
      const res = await confirmEmail(confirmToken).expect(400);
      expect(res.body.message).toBe('This email change link is invalid or has expired.');
      expect((await accountOf(ana))?.email).toBe(ana.email);
      const account = await changeUsername(signedInNow(ana), ana.id, ana.username).expect(200);
      expect(account.body.user.pendingEmail).toBeNull();
    } finally {
      clock.restore();
    }
  });

  it.each([
    ['', 'You should input an email', 400],
    ['not-an-email', 'You should input an correct email', 400],
    ['SELF', 'This is already your email.', 400],
    ['BEA', 'An account with this email already exists. Please log in.', 409],
  ])('when the new address is %p, then %p on email, nothing is mailed and nothing waits', async (given, message, status) => {
    const email = given === 'SELF' ? ana.email.toUpperCase() : given === 'BEA' ? bea.email : given;
    const res = await askEmailChange(ana, ana.id, email).expect(status);
    expect(res.body).toMatchObject({ message, errors: [{ path: 'email', message }] });
    expect(smtp.received).toEqual([]);
    expect(await accountOf(ana)).toMatchObject({ email: ana.email, pendingEmail: null });
  });

  it('when another account takes the address before the link is opened, then 409 with the sign-up’s message and the email stays', async () => {
    const { confirmToken } = await askAndReadMails(ana, 'wanted@example.com');
    await createMember({ email: 'wanted@example.com' });
    const res = await confirmEmail(confirmToken).expect(409);
    expect(res.body.message).toBe('An account with this email already exists. Please log in.');
    expect(await accountOf(ana)).toMatchObject({ email: ana.email, pendingEmail: null });
  });

  it('when a newer change is asked for, then the first link fails; the notice’s cancel link ends the newer one and its link', async () => {
    const first = await askAndReadMails(ana, 'first@example.com');
    const second = await askAndReadMails(ana, 'second@example.com');
    expect((await confirmEmail(first.confirmToken).expect(400)).body.message).toBe('This email change link is invalid or has expired.');
    // The first notice's cancel link is for a change no longer waiting.
    await cancelEmail(first.cancelToken).expect(400);
    const cancelled = await cancelEmail(second.cancelToken).expect(200);
    expect(cancelled.body).toEqual({ message: `The email change is cancelled. Your email stays ${ana.email}.`, userId: ana.id, email: ana.email });
    expect(await accountOf(ana)).toMatchObject({ email: ana.email, pendingEmail: null });
    await confirmEmail(second.confirmToken).expect(400);
    expect((await accountOf(ana))?.email).toBe(ana.email);
  });

  it('when Bea or an admin gives Ana’s id, then 404 and nothing is mailed', async () => {
    for (const caller of [bea, await adminMember()]) {
      const res = await askEmailChange(caller, ana.id, 'elsewhere@example.com').expect(404);
      expect(res.body.message).toBe('This member does not exist.');
    }
    expect(smtp.received).toEqual([]);
    expect((await accountOf(ana))?.pendingEmail).toBeNull();
  });

  it('when a member asked 5 times this hour, then the 6th gets 429 with Retry-After and mails nothing', async () => {
    const clock = freezeInWindow(HOUR, 50 * 60_000);
    try {
      ana = signedInNow(ana);
      for (let i = 1; i <= 5; i++) await askEmailChange(ana, ana.id, `ana.${i}@example.com`).expect(200);
      smtp.received.length = 0;
      const refused = await askEmailChange(ana, ana.id, 'ana.6@example.com').expect(429);
      expect(refused.body.message).toBe('Too many email changes requested. Please wait and try again.');
      expect(refused.headers['retry-after']).toBe('600');
      expect(smtp.received).toEqual([]);
      expect((await accountOf(ana))?.pendingEmail).toBe('ana.5@example.com');
    } finally {
      clock.restore();
    }
  });
});
