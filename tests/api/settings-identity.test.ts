/**
 * Changing one's username and email from the settings, on the real database:
 * - the username follows the sign-up's rules and messages; a name given up stays its member's, so their old
 *   profile and share links keep leading to them (the calls answer for it, the pages move for good to the new name)
 *   and nobody else can take it; they may take it back;
 * - the email change asks for the current password, and the email changes only once the link mailed to the new
 *   address is opened; the links work once, for 24 hours, and only for the latest request;
 * - the old address is told, with a link that cancels the change, or undoes it for 7 days once made: that link
 *   gives the account back to the old address and secures it (password, sessions, tokens and links end; a payout
 *   email set meanwhile is held), whatever whoever moved the email did since;
 * - a password change, a reset, logging out everywhere and an email change made end the emailed links waiting to
 *   be used (activation, reset, email change), never the old address's cancel link.
 * Both are for oneself (the username also for an admin); another member's id is 404.
 */
import bcrypt from 'bcrypt';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { ContentModel } from '../../server/modules/contents';
import { signAccessToken } from '../../server/lib/access-token';
import { UserExtModel, UserModel } from '../../server/modules/users';
import { FormerUsernameModel } from '../../server/modules/users/testing';
import { createTestApp, testConfig } from '../helpers/app';
import { newSignup, refreshCookieOf } from '../helpers/auth';
import { freezeDate, freezeInWindow } from '../helpers/clock';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, type TestMember } from '../helpers/ledger-factory';
import { startSmtpServer, tokenFromMail } from '../helpers/smtp';

useTestDatabase();

const DAY = 86_400_000;
const HOUR = 3_600_000;
const PASSWORD = 'Str0ng!pass';
let passwordHash: string;

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let ana: TestMember;
let bea: TestMember;

const changeUsername = (caller: TestMember, id: string, username: string) =>
  request(app).post(`/api/v2/user-setting/update-username/${id}`).set(bearer(caller)).send({ username });
const askEmailChange = (caller: TestMember, id: string, email: string, password: string = PASSWORD) =>
  request(app).post(`/api/v2/user-setting/update-email/${id}`).set(bearer(caller)).send({ email, password });
const confirmEmail = (token: string) => request(app).post('/api/v2/auth/confirm-email-change').send({ token });
const cancelEmail = (token: string) => request(app).post('/api/v2/auth/cancel-email-change').send({ token });
const accountOf = (member: TestMember) => UserModel.findById(member.id).lean();
/** The member with an access token issued now: after the test moved its clock, the earlier one has expired or is not valid yet. */
const signedInNow = (member: TestMember): TestMember => ({ ...member, token: signAccessToken(testConfig().auth, { userId: member.id, tokenVersion: 0 }) });
/** The member with an access token issued now for the account as it is (after its older tokens were ended). */
async function signedInWithCurrentVersion(member: TestMember): Promise<TestMember> {
  const { tokenVersion } = (await UserModel.findById(member.id, { tokenVersion: 1 }).lean())!;
  return { ...member, token: signAccessToken(testConfig().auth, { userId: member.id, tokenVersion }) };
}

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
  // A low cost is enough here: what is tested is which password is asked for, not bcrypt.
  passwordHash = await bcrypt.hash(PASSWORD, 4);
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
});

afterAll(async () => smtp.stop());

beforeEach(async () => {
  await clearDatabase();
  smtp.received.length = 0;
  [ana, bea] = await Promise.all([createMember(), createMember()]);
  await Promise.all([ana, bea].map((member) => UserModel.updateOne({ _id: member.id }, { $set: { passwordHash } })));
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
    expect((await accountOf(ana))?.email).toBe('ana.new@example.com');
  });

  it('when the password is missing, empty or wrong, then the change is refused on the password field, nothing is mailed and nothing waits', async () => {
    const missing = await request(app).post(`/api/v2/user-setting/update-email/${ana.id}`).set(bearer(ana)).send({ email: 'ana.new@example.com' }).expect(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: expect.stringMatching(/password$/) })]);
    const empty = await askEmailChange(ana, ana.id, 'ana.new@example.com', '').expect(400);
    expect(empty.body).toMatchObject({ message: 'Please input password', errors: [{ path: 'password', message: 'Please input password' }] });
    const wrong = await askEmailChange(ana, ana.id, 'ana.new@example.com', 'Wr0ng!pass').expect(400);
    expect(wrong.body).toMatchObject({ message: 'Incorrect password.', errors: [{ path: 'password', message: 'Incorrect password.' }] });
    expect(smtp.received).toEqual([]);
    expect(await accountOf(ana)).toMatchObject({ email: ana.email, pendingEmail: null });
  });

  it('when wrong passwords reach the limit of the other password checks, then the next try gets 429, even with the right password', async () => {
    for (let i = 0; i < 5; i++) await askEmailChange(ana, ana.id, 'thief@example.com', `Guess${i}!aa`).expect(400);
    const limited = await askEmailChange(ana, ana.id, 'thief@example.com').expect(429);
    expect(limited.body).toMatchObject({ message: 'Too many wrong passwords. Please wait and try again.', code: 'too_many_requests' });
    // One count for every password check: the payout email is held back too.
    await request(app)
      .post(`/api/v2/user-setting/update-payment-info/${ana.id}`)
      .set(bearer(ana))
      .send({ paypal: 'thief@paypal.example', password: PASSWORD })
      .expect(429);
    expect(smtp.received).toEqual([]);
    expect((await accountOf(ana))?.pendingEmail).toBeNull();
  });

  it('when the account has no password (Google or Facebook sign-in), then it is told to set one first', async () => {
    await UserModel.updateOne({ _id: ana.id }, { $set: { passwordHash: null } });
    const res = await askEmailChange(ana, ana.id, 'ana.new@example.com', 'anything').expect(400);
    expect(res.body).toMatchObject({
      code: 'password_not_set',
      message: 'Your account has no password yet (you sign in with Google or Facebook). Set one with “Forgot password”: we email you a link. Then try again.',
    });
    expect((await accountOf(ana))?.pendingEmail).toBeNull();
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
    expect(cancelled.body).toEqual({
      message: `The email change is cancelled. Your email stays ${ana.email}. Everyone is signed out of your account. We emailed you a link to choose a new password.`,
      userId: ana.id,
      email: ana.email,
    });
    expect(await accountOf(ana)).toMatchObject({ email: ana.email, pendingEmail: null });
    await confirmEmail(second.confirmToken).expect(400);
    expect((await accountOf(ana))?.email).toBe(ana.email);
    // Whoever asked for the change knew the password: it is cleared, her sessions end, and she is mailed a link.
    expect((await accountOf(ana))?.passwordHash).toBeNull();
    await changeUsername(ana, ana.id, 'ana_still_in').expect(401);
    const mail = await smtp.nextMailTo(ana.email);
    expect(mail.raw).toMatch(/^Subject: Your Knack email change was cancelled/m);
    expect(mail.text).toContain(`it stays ${ana.email}.`);
    expect(tokenFromMail(mail, '/auth/reset-password')).toBeTruthy();
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

describe('the cancel link mailed to the old address, and the links that other changes end', () => {
  const THIEF_PASSWORD = 'Th1ef!pass';
  const signin = (email: string, password: string) => request(app).post('/api/v2/auth/signin').send({ email, password });
  const withToken = (token: string) => ({ Authorization: `Bearer ${token}` });
  const readExt = (id: string, token: string) => request(app).get(`/api/v2/user-setting/get-ext/${id}`).set(withToken(token));
  const refresh = (cookie: string) => request(app).post('/api/v2/auth/check-loggedin').set('Cookie', `knack_refresh=${cookie}`);
  const setPayout = (id: string, token: string, paypal: string, password: string) =>
    request(app).post(`/api/v2/user-setting/update-payment-info/${id}`).set(withToken(token)).send({ paypal, password });
  const reset = (token: string, newPassword: string) =>
    request(app).post('/api/v2/auth/reset-password').send({ token, newPassword, passwordConfirm: newPassword });
  /** Asks for a reset link for `email` and answers its token. */
  async function resetTokenFor(email: string): Promise<string> {
    await request(app).post('/api/v2/auth/request-reset-password').send({ email }).expect(200);
    return tokenFromMail(await smtp.nextMailTo(email), '/auth/reset-password');
  }
  /** Moves Ana's email to `email` with her session and password (as whoever holds them would), and confirms it from there. */
  async function moveEmail(caller: TestMember, email: string) {
    const links = await askAndReadMails(caller, email);
    await confirmEmail(links.confirmToken).expect(200);
    return links;
  }
  const badResetLink = 'This reset link is invalid or has expired.';
  const badEmailLink = 'This email change link is invalid or has expired.';

  it('when someone with Ana’s session and password moves her email, resets her password through it and changes her payout email, then her old address’s link gives the account back and secures it', async () => {
    // The thief holds Ana's session and knows her password: they move the email to their own address.
    const { cancelToken, notice } = await moveEmail(ana, 'thief@example.com');
    expect(notice.text).toContain('The button works for 7 days, even once the change is made.');
    const staleReset = await resetTokenFor('thief@example.com');
    await reset(await resetTokenFor('thief@example.com'), THIEF_PASSWORD).expect(200);
    const thief = await signin('thief@example.com', THIEF_PASSWORD).expect(200);
    const thiefCookie = refreshCookieOf(thief)!;
    await setPayout(ana.id, thief.body.token, 'thief@paypal.example', THIEF_PASSWORD).expect(200);
    await smtp.nextMailTo('thief@example.com'); // the payout change notice, to the address the account has now
    // Logging out everywhere and changing the password again do not end the old address's link.
    const again = await request(app)
      .post(`/api/v2/user-setting/reset-password/${ana.id}`)
      .set(withToken(thief.body.token))
      .send({ password: THIEF_PASSWORD, newPassword: `${THIEF_PASSWORD}2` })
      .expect(200);
    await request(app).post('/api/v2/auth/logout-all').set(withToken(again.body.token)).expect(200);
    const thiefAgain = await signin('thief@example.com', `${THIEF_PASSWORD}2`).expect(200);
    const lastThiefCookie = refreshCookieOf(thiefAgain)!;

    const undone = await cancelEmail(cancelToken).expect(200);
    expect(undone.body).toEqual({
      message:
        `The email change is undone: your email is ${ana.email} again. Everyone is signed out of your account. We emailed you a link to choose a new password. ` +
        'Your PayPal email was changed meanwhile: nothing is paid to it until you confirm it in your wallet.',
      userId: ana.id,
      email: ana.email,
    });
    const account = (await accountOf(ana))!;
    expect(account).toMatchObject({ email: ana.email, pendingEmail: null, passwordHash: null });
    expect(account.tokenVersion).toBeGreaterThan(0);

    // Every session, token and link of the thief has ended; their address and password open nothing.
    expect((await readExt(ana.id, thiefAgain.body.token).expect(401)).body.message).toBe('Your session has expired. Please log in again.');
    await readExt(ana.id, ana.token).expect(401);
    await refresh(lastThiefCookie).expect(401);
    await refresh(thiefCookie).expect(401);
    await signin('thief@example.com', `${THIEF_PASSWORD}2`).expect(401);
    await signin(ana.email, `${THIEF_PASSWORD}2`).expect(401);
    expect((await reset(staleReset, 'An0ther!pass').expect(400)).body.message).toBe(badResetLink);
    await request(app).post('/api/v2/auth/request-reset-password').send({ email: 'thief@example.com' }).expect(200);
    await expect(smtp.nextMailTo('thief@example.com', 500)).rejects.toThrow(/no mail/);
    // The link works once.
    expect((await cancelEmail(cancelToken).expect(400)).body.message).toBe(badEmailLink);

    // Ana is told what happened, and chooses a new password with the link mailed to her.
    const mail = await smtp.nextMailTo(ana.email);
    expect(mail.raw).toMatch(/^Subject: Your Knack email change was undone/m);
    expect(mail.text).toContain(`it is ${ana.email} again`);
    expect(mail.text).toContain('The PayPal email your payouts and cash-outs go to was changed to th***@paypal.example on');
    expect(mail.text).not.toContain('thief@paypal.example');
    await reset(tokenFromMail(mail, '/auth/reset-password'), 'Ana!n3wpass').expect(200);
    const back = await signin(ana.email, 'Ana!n3wpass').expect(200);

    // The payout email the thief set is held until she confirms it (or sets her own) with her password.
    const wallet = await request(app).get(`/api/v2/wallet/summary/${ana.id}`).set(withToken(back.body.token)).expect(200);
    expect(wallet.body.payoutAccount).toEqual({ paypal: 'thief@paypal.example', held: true });
    await setPayout(ana.id, back.body.token, 'ana@paypal.example', 'Ana!n3wpass').expect(200);
    expect(await UserExtModel.findOne({ userId: ana.id }).lean()).toMatchObject({ paypal: 'ana@paypal.example', paypalHeld: false });
  });

  it('when the change was made late in its 24 hours, then the cancel link still works 7 days after it, and not after that', async () => {
    const clock = freezeDate();
    try {
      const late = await askAndReadMails(ana, 'late@example.com');
      clock.advance(23 * HOUR);
      await confirmEmail(late.confirmToken).expect(200);
      clock.advance(7 * DAY - 60_000);
      expect((await cancelEmail(late.cancelToken).expect(200)).body.email).toBe(ana.email);
      expect((await smtp.nextMailTo(ana.email)).raw).toMatch(/^Subject: Your Knack email change was undone/m);

      // Taking the account back cleared the password and ended the tokens: Ana set a new password and signed in.
      await UserModel.updateOne({ _id: ana.id }, { $set: { passwordHash } });
      const expired = await askAndReadMails(await signedInWithCurrentVersion(ana), 'later@example.com');
      clock.advance(HOUR);
      await confirmEmail(expired.confirmToken).expect(200);
      clock.advance(7 * DAY + 1_000);
      expect((await cancelEmail(expired.cancelToken).expect(400)).body.message).toBe(badEmailLink);
      expect((await accountOf(ana))?.email).toBe('later@example.com');
    } finally {
      clock.restore();
    }
  });

  it('when the email is moved on again and the link mailed to the in-between address is opened, then the link to the first address still gives the account back', async () => {
    const first = await moveEmail(ana, 'thief.one@example.com');
    const second = await moveEmail({ ...ana, email: 'thief.one@example.com' }, 'thief.two@example.com');
    // Opened by whoever holds the in-between address: that address is the email again, for now.
    await cancelEmail(second.cancelToken).expect(200);
    expect((await accountOf(ana))?.email).toBe('thief.one@example.com');
    const theirReset = tokenFromMail(await smtp.nextMailTo('thief.one@example.com'), '/auth/reset-password');

    const back = await cancelEmail(first.cancelToken).expect(200);
    expect(back.body.email).toBe(ana.email);
    expect((await accountOf(ana))?.email).toBe(ana.email);
    // What the in-between address was sent on the way ends with it.
    expect((await reset(theirReset, THIEF_PASSWORD).expect(400)).body.message).toBe(badResetLink);
    await smtp.nextMailTo(ana.email);
  });

  it('while the old address can take the account back, nobody else signs up with it or moves their email to it', async () => {
    await moveEmail(ana, 'ana.moved@example.com');
    const signup = await request(app)
      .post('/api/v2/auth/signup')
      .send(newSignup({ email: ana.email }))
      .expect(409);
    expect(signup.body.message).toBe('An account with this email already exists. Please log in.');
    const moving = await askEmailChange(bea, bea.id, ana.email).expect(409);
    expect(moving.body.message).toBe('An account with this email already exists. Please log in.');
    // Ana herself may move back to it.
    await moveEmail({ ...ana, email: 'ana.moved@example.com' }, ana.email);
    expect((await accountOf(ana))?.email).toBe(ana.email);
  });

  it('when the email change is made, then a reset link mailed to the old address before no longer works', async () => {
    const oldReset = await resetTokenFor(ana.email);
    await moveEmail(ana, 'ana.elsewhere@example.com');
    expect((await reset(oldReset, 'An0ther!pass').expect(400)).body.message).toBe(badResetLink);
  });

  it.each([
    [
      'the password is changed',
      (member: TestMember) =>
        request(app).post(`/api/v2/user-setting/reset-password/${member.id}`).set(bearer(member)).send({ password: PASSWORD, newPassword: 'N3w!password' }),
    ],
    ['the member logs out everywhere', (member: TestMember) => request(app).post('/api/v2/auth/logout-all').set(bearer(member))],
  ])('when %s, then a waiting email change and reset link stop working', async (_event, act) => {
    const waiting = await askAndReadMails(ana, 'ana.waiting@example.com');
    const waitingReset = await resetTokenFor(ana.email);
    await act(ana).expect(200);
    expect((await confirmEmail(waiting.confirmToken).expect(400)).body.message).toBe(badEmailLink);
    expect((await reset(waitingReset, 'An0ther!pass').expect(400)).body.message).toBe(badResetLink);
    expect(await accountOf(ana)).toMatchObject({ email: ana.email, pendingEmail: null });
  });
});
