import request from 'supertest';
import { smtpMailer } from '../../server/integrations/mail';
import { SessionModel } from '../../server/modules/auth';
import { createSession } from '../../server/modules/auth/testing';
import { UserModel } from '../../server/modules/users';
import { createTestApp, testConfig } from '../helpers/app';
import { newSignup, refreshCookieOf } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { startFacebookStandIn, startGoogleStandIn } from '../helpers/providers';
import { startSmtpServer, tokenFromMail } from '../helpers/smtp';

useTestDatabase();

const CLIENT_ID = 'knack-test.apps.googleusercontent.com';
const FB_APP = '424242';
const FB_SECRET = 'fb-app-secret';

let google: Awaited<ReturnType<typeof startGoogleStandIn>>;
let facebook: Awaited<ReturnType<typeof startFacebookStandIn>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;

beforeAll(async () => {
  [google, facebook, smtp] = await Promise.all([startGoogleStandIn(CLIENT_ID), startFacebookStandIn(FB_APP, FB_SECRET), startSmtpServer()]);
  const auth = testConfig().auth;
  app = createTestApp({
    config: {
      auth: {
        ...auth,
        google: { clientId: CLIENT_ID, certsUrl: google.certsUrl },
        facebook: { appId: FB_APP, appSecret: FB_SECRET, graphUrl: facebook.graphUrl },
      },
    },
    mailer: smtpMailer(smtp.url, 'x@knack.test'),
  });
});
afterAll(async () => Promise.all([google.stop(), facebook.stop(), smtp.stop()]));

const googleSignin = (credential: string) => request(app).post('/api/v2/auth/google-signin').send({ credential });

describe('Google sign-in', () => {
  it('when the ID token is valid and new, then an active account is created and signed in', async () => {
    const credential = google.idToken({ sub: 'g-1001', email: 'Gia@Example.com', given_name: 'Gia', family_name: 'Rossi', name: 'Gia Rossi' });
    const res = await googleSignin(credential).expect(200);
    expect(res.body).toMatchObject({ message: 'Success', user: { email: 'gia@example.com', firstName: 'Gia', isActive: true, role: 'user' } });
    expect(res.body.token).toEqual(expect.any(String));
    expect(refreshCookieOf(res)).toBeDefined();
    const stored = await UserModel.findOne({ email: 'gia@example.com' }).lean();
    expect(stored).toMatchObject({ googleId: 'g-1001', passwordHash: null, username: 'gia___', isActive: true });
    expect(stored!.username.length).toBeGreaterThanOrEqual(6);

    const again = await googleSignin(credential).expect(200);
    expect(again.body.user.id).toBe(res.body.user.id);
    expect(await UserModel.countDocuments({ email: 'gia@example.com' })).toBe(1);
  });

  it('when the verified email belongs to an account waiting for activation, then it is linked and activated', async () => {
    const form = newSignup();
    await request(app).post('/api/v2/auth/signup').send(form).expect(201);
    const res = await googleSignin(google.idToken({ sub: 'g-2002', email: form.email, given_name: 'Ana' })).expect(200);
    expect(res.body.user).toMatchObject({ username: form.username, isActive: true });
    expect(await UserModel.findOne({ email: form.email }).lean()).toMatchObject({ googleId: 'g-2002' });
  });

  it.each([
    ['another audience', () => google.idToken({ sub: 'g-3', email: 'x3@example.com' }, { audience: 'someone-else.apps.googleusercontent.com' })],
    ['a key Google does not publish', () => google.idToken({ sub: 'g-4', email: 'x4@example.com' }, { key: google.otherKey() })],
    [
      'an expired token',
      () =>
        google.idToken(
          { sub: 'g-5', email: 'x5@example.com', iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 },
          { expiresIn: undefined },
        ),
    ],
    ['garbage', () => 'not-a-token'],
  ])('when the token has %s, then 401 and no account', async (_name, make) => {
    let credential: string;
    try {
      credential = make();
    } catch {
      credential = 'x.y.z';
    }
    const res = await googleSignin(credential).expect(401);
    expect(res.body.message).toBe('Google did not accept this sign-in. Please try again.');
    expect(await UserModel.countDocuments({ email: /^x\d@example\.com$/ })).toBe(0);
  });

  it('when an admin has deactivated the account, then Google sign-in is refused with the same words as a password sign-in', async () => {
    const credential = google.idToken({ sub: 'g-8108', email: 'dee@example.com', given_name: 'Dee' });
    const first = await googleSignin(credential).expect(200);
    await UserModel.updateOne({ _id: first.body.user.id }, { $set: { deactivatedAt: new Date() } });
    const res = await googleSignin(credential).expect(403);
    expect(res.body).toMatchObject({ code: 'deactivated', message: 'This account is deactivated.' });
    expect(refreshCookieOf(res)).toBeUndefined();
  });

  it('when the Google email is not verified and no account has the id, then 400', async () => {
    const res = await googleSignin(google.idToken({ sub: 'g-6', email: 'unverified@example.com', email_verified: false })).expect(400);
    expect(res.body.message).toMatch(/verified email/);
  });

  it('when Google or Facebook is not configured, then 404 says so and the provider is not offered', async () => {
    const plain = createTestApp();
    const google = await request(plain).post('/api/v2/auth/google-signin').send({ credential: 'x' }).expect(404);
    expect(google.body).toMatchObject({ code: 'not_configured', message: 'Google sign-in is not offered on this server.' });
    const facebook = await request(plain).post('/api/v2/auth/facebook-signin').send({ accessToken: 'x' }).expect(404);
    expect(facebook.body).toMatchObject({ code: 'not_configured', message: 'Facebook sign-in is not offered on this server.' });
    await request(plain).get('/api/v2/auth/providers').expect(200, { google: null, facebook: null });
    await request(app)
      .get('/api/v2/auth/providers')
      .expect(200, { google: { clientId: CLIENT_ID }, facebook: { appId: FB_APP } });
  });
});

describe('an address someone else signed up with first', () => {
  const signin = (email: string, password: string) => request(app).post('/api/v2/auth/signin').send({ email, password });
  const fbSignin = (accessToken: string) => request(app).post('/api/v2/auth/facebook-signin').send({ accessToken });

  /**
   * A stranger signs up with the owner's address and never activates. Their account cannot sign in, so the
   * session is written directly: it stands for any session the account might hold before the owner arrives.
   */
  async function squat(email?: string) {
    const form = newSignup(email ? { email } : {});
    await request(app).post('/api/v2/auth/signup').send(form).expect(201);
    const activation = tokenFromMail(await smtp.nextMailTo(form.email), '/confirm');
    await request(app).post('/api/v2/auth/request-reset-password').send({ email: form.email }).expect(200);
    const reset = tokenFromMail(await smtp.nextMailTo(form.email), '/auth/reset-password');
    const user = (await UserModel.findOne({ email: form.email.toLowerCase() }).lean())!;
    const cookie = await createSession(testConfig().auth, user._id, user.tokenVersion);
    return { form, activation, reset, cookie, userId: String(user._id) };
  }

  it("when the owner signs in with Google, then the stranger's password, session and mailed links no longer work", async () => {
    const squatter = await squat();
    const owner = await googleSignin(google.idToken({ sub: 'g-7007', email: squatter.form.email, given_name: 'Ana' })).expect(200);
    expect(owner.body.user).toMatchObject({ id: squatter.userId, isActive: true });

    const wrong = await signin(squatter.form.email, squatter.form.password).expect(401);
    expect(wrong.body.message).toBe('Incorrect email or password.');
    expect(await UserModel.findById(squatter.userId).lean()).toMatchObject({ passwordHash: null, tokenVersion: 1, googleId: 'g-7007' });
    await request(app).post('/api/v2/auth/check-loggedin').set('Cookie', `knack_refresh=${squatter.cookie}`).expect(401);
    expect(await SessionModel.countDocuments({ userId: squatter.userId, tokenVersion: 0 })).toBe(0);
    const confirm = await request(app).post('/api/v2/auth/confirm').send({ token: squatter.activation }).expect(400);
    expect(confirm.body.message).toBe('This activation link is invalid or has expired.');
    const reset = await request(app)
      .post('/api/v2/auth/reset-password')
      .send({ token: squatter.reset, newPassword: 'Sw1tch!pass', passwordConfirm: 'Sw1tch!pass' })
      .expect(400);
    expect(reset.body.message).toBe('This reset link is invalid or has expired.');

    // The owner's own session goes on working.
    await request(app)
      .post('/api/v2/auth/check-loggedin')
      .set('Cookie', `knack_refresh=${refreshCookieOf(owner)!}`)
      .expect(200);
  });

  it('when the address is an admin address and the owner signs in with Facebook, then the stranger cannot sign in as the admin', async () => {
    await UserModel.deleteMany({ email: 'admin@knack.example' });
    const squatter = await squat('admin@knack.example');
    const owner = await fbSignin(
      facebook.issueToken({ id: 'fb-admin', email: 'admin@knack.example', first_name: 'Ad', last_name: 'Min', appId: FB_APP }),
    ).expect(200);
    expect(owner.body.user).toMatchObject({ id: squatter.userId, role: 'admin' });
    await signin('admin@knack.example', squatter.form.password).expect(401);
    await request(app).post('/api/v2/auth/check-loggedin').set('Cookie', `knack_refresh=${squatter.cookie}`).expect(401);
  });

  it('when the account was already active, then signing in with Google links it and keeps its password', async () => {
    const form = newSignup();
    await request(app).post('/api/v2/auth/signup').send(form).expect(201);
    await request(app)
      .post('/api/v2/auth/confirm')
      .send({ token: tokenFromMail(await smtp.nextMailTo(form.email), '/confirm') })
      .expect(200);
    await googleSignin(google.idToken({ sub: 'g-8008', email: form.email })).expect(200);
    await signin(form.email, form.password).expect(200);
  });
});

describe('Facebook sign-in', () => {
  const fbSignin = (accessToken: string, userID?: string) =>
    request(app)
      .post('/api/v2/auth/facebook-signin')
      .send({ accessToken, ...(userID ? { userID } : {}) });

  it('when the Graph API vouches for the token, then the account is created and signed in; again, the same account', async () => {
    const token = facebook.issueToken({ id: 'fb-77', email: 'Fab@Example.com', first_name: 'Fab', last_name: 'Io', appId: FB_APP });
    const res = await fbSignin(token, 'fb-77').expect(200);
    expect(res.body.user).toMatchObject({
      email: 'fab@example.com',
      firstName: 'Fab',
      lastName: 'Io',
      fullName: 'Fab Io',
      image: 'https://graph.example/fb-77.jpg',
    });
    const again = await fbSignin(token).expect(200);
    expect(again.body.user.id).toBe(res.body.user.id);
  });

  it('when the token was issued to another app, then 401', async () => {
    const token = facebook.issueToken({ id: 'fb-88', email: 'other@example.com', first_name: 'O', last_name: 'A', appId: '999' });
    await fbSignin(token).expect(401);
    expect(await UserModel.countDocuments({ email: 'other@example.com' })).toBe(0);
  });

  it('when the token is unknown to Facebook or claims another user id, then 401', async () => {
    await fbSignin('EAABforged').expect(401);
    const token = facebook.issueToken({ id: 'fb-99', email: 'nine@example.com', first_name: 'N', last_name: 'N', appId: FB_APP });
    await fbSignin(token, 'fb-someone-else').expect(401);
  });

  it('when the Facebook profile has no email and no account has the id, then 400', async () => {
    const token = facebook.issueToken({ id: 'fb-100', first_name: 'No', last_name: 'Mail', appId: FB_APP });
    await fbSignin(token).expect(400);
  });
});
