import jwt from 'jsonwebtoken';
import request from 'supertest';
import { smtpMailer } from '../../server/integrations/mail';
import { countHit, RateLimitModel } from '../../server/lib/rate-limit';
import { OneTimeTokenModel, SessionModel } from '../../server/modules/auth';
import { OutboxMailModel } from '../../server/modules/mail-outbox/testing';
import { LOGIN_LIMITS } from '../../server/modules/auth/testing';
import { UserModel } from '../../server/modules/users';
import { createTestApp, testConfig, TEST_JWT_SECRET } from '../helpers/app';
import { GOOD_PASSWORD, createActiveMember, newSignup, refreshCookieOf } from '../helpers/auth';
import { freezeInWindow } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { startSmtpServer, tokenFromMail, type ReceivedMail } from '../helpers/smtp';

useTestDatabase();

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
});
afterAll(async () => smtp.stop());
beforeEach(async () => {
  await RateLimitModel.deleteMany({});
});

const signup = (body: object) => request(app).post('/api/v2/auth/signup').send(body);
const signin = (body: object) => request(app).post('/api/v2/auth/signin').send(body);
const withCookie = (value: string) => `knack_refresh=${value}`;

describe('sign-up rules, enforced by the server with the form’s messages', () => {
  it.each([
    [{ email: '' }, 'You should input an email', ['email']],
    [{ email: 'not-an-email' }, 'You should input an correct email', ['email']],
    [{ firstName: ' ' }, 'You should input your first name.', ['firstName']],
    [{ lastName: '' }, 'You should input your last name.', ['lastName']],
    [{ username: '' }, 'You should input your username.', ['username']],
    [{ password: '' }, 'You should input your password.', ['password']],
    [{ passwordConfirm: '' }, 'You should input your confirm password.', ['passwordConfirm']],
    [{ username: 'abc' }, 'Sorry, your username must be between 6 and 30 characters long.', ['username']],
    [{ username: 'a'.repeat(31) }, 'Sorry, your username must be between 6 and 30 characters long.', ['username']],
    [
      { password: 'weakpass1!', passwordConfirm: 'weakpass1!' },
      'Password should include at least one uppercase, numeric, special charater and also should have 8 or more length',
      ['password'],
    ],
    [
      { password: 'Sh0rt!', passwordConfirm: 'Sh0rt!' },
      'Password should include at least one uppercase, numeric, special charater and also should have 8 or more length',
      ['password'],
    ],
    [{ passwordConfirm: 'Str0ng!pasX' }, "Those passwords didn't match. Try again.", ['password', 'passwordConfirm']],
  ])('when %p, then 400 "%s" marking %p', async (change, message, fields) => {
    const form = newSignup(change as Record<string, string>);
    const res = await signup(form).expect(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(fields);
    expect(await UserModel.countDocuments({ email: form.email.toLowerCase() })).toBe(0);
  });

  it('when a password is longer than 72 bytes, then it is refused (bcrypt would cut it)', async () => {
    const long = `Aa1!${'é'.repeat(35)}`; // 4 + 70 bytes
    const res = await signup(newSignup({ password: long, passwordConfirm: long })).expect(400);
    expect(res.body.message).toBe('Password must be at most 72 bytes.');
  });

  it('when the username is taken (in any case or spacing), then "That username is taken. Try another."', async () => {
    await signup(newSignup({ username: 'taken_name' })).expect(201);
    const res = await signup(newSignup({ username: '  Taken Name ' })).expect(400);
    expect(res.body).toMatchObject({ message: 'That username is taken. Try another.', errors: [{ path: 'username' }] });
  });

  it('when the email already has an account, then 409', async () => {
    const first = newSignup();
    await signup(first).expect(201);
    const res = await signup(newSignup({ email: first.email.toUpperCase() })).expect(409);
    expect(res.body.code).toBe('conflict');
  });

  it('when a request tries to set its role or any unknown field, then 400 and no account', async () => {
    const form = { ...newSignup(), role: 'admin' };
    const res = await signup(form).expect(400);
    expect(res.body.errors[0].path).toBe('role');
    expect(await UserModel.countDocuments({ email: form.email })).toBe(0);
  });
});

describe('sign-up, activation and the first sign-in', () => {
  it('when the form is valid, then an inactive account is stored normalized with a bcrypt hash at the configured cost and an activation mail is sent', async () => {
    const form = newSignup({ username: '  Ana Maria Lima ', email: '  Ana.Maria@Example.COM ' });
    const res = await signup(form).expect(201);
    expect(res.body).toEqual({ user: null, token: null, message: 'Check Your Email', reacted_contents: [] });

    const stored = await UserModel.findOne({ email: 'ana.maria@example.com' }).lean();
    expect(stored).toMatchObject({ username: 'ana_maria_lima', isActive: false, firstName: 'Ana', fullName: 'Ana Lima', tokenVersion: 0 });
    // The configured cost: 12 by default (the config test), 10 in the tests (tests/helpers/app.ts says why).
    expect(stored!.passwordHash).toMatch(new RegExp(`^\\$2b\\$${testConfig().auth.bcryptCost}\\$`));

    const mail = await smtp.nextMailTo('ana.maria@example.com');
    expect(mail.raw).toContain('Subject: Activate your Knack account');
    expect(tokenFromMail(mail, 'http://knack.test/confirm')).toMatch(/^[\w-]{40,}$/);
  });

  it('when signing in before activation, then no token and "Check Your Email"', async () => {
    const form = newSignup();
    await signup(form).expect(201);
    await smtp.nextMailTo(form.email);
    const res = await signin({ email: form.email, password: form.password }).expect(200);
    expect(res.body).toEqual({ user: null, token: null, message: 'Check Your Email', reacted_contents: [] });
    expect(refreshCookieOf(res)).toBeUndefined();
  });

  it('when the activation link is opened, then the account is active and signed in; the link works once', async () => {
    const form = newSignup();
    await signup(form).expect(201);
    const token = tokenFromMail(await smtp.nextMailTo(form.email), '/confirm');

    const res = await request(app).post('/api/v2/auth/confirm').send({ token }).expect(200);
    expect(res.body.message).toBe('Successfully created an account.');
    expect(res.body.user).toMatchObject({ email: form.email, username: form.username, isActive: true, role: 'user' });
    expect(res.body.token).toEqual(expect.any(String));
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('knack_refresh='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api\/v2\/auth/);

    const again = await request(app).post('/api/v2/auth/confirm').send({ token }).expect(400);
    expect(again.body.message).toBe('This activation link is invalid or has expired.');
  });

  it('when the activation link expired, then it is refused', async () => {
    const form = newSignup();
    await signup(form).expect(201);
    const token = tokenFromMail(await smtp.nextMailTo(form.email), '/confirm');
    await OneTimeTokenModel.updateMany({}, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    await request(app).post('/api/v2/auth/confirm').send({ token }).expect(400);
  });

  it('when the mail server cannot be reached, then sign-up still succeeds and its activation mail is kept in the outbox', async () => {
    const broken = createTestApp({ mailer: smtpMailer('smtp://127.0.0.1:1', 'x@knack.test') });
    const form = newSignup();
    const res = await request(broken).post('/api/v2/auth/signup').send(form).expect(201);
    expect(res.body.message).toBe('Check Your Email');
    expect(await UserModel.countDocuments({ email: form.email })).toBe(1);
    expect(await OutboxMailModel.find({ to: form.email }).lean()).toEqual([
      expect.objectContaining({ state: 'waiting', attempts: 1, subject: 'Activate your Knack account' }),
    ]);
  });

  it('when the activation mail is asked for again, then "Email Sent" whether or not the address has an account', async () => {
    const form = newSignup();
    await signup(form).expect(201);
    await smtp.nextMailTo(form.email);
    const res = await request(app)
      .get(`/api/v2/auth/confirm-email/${encodeURIComponent(form.email)}`)
      .expect(200);
    expect(res.body.message).toBe('Email Sent');
    expect(tokenFromMail(await smtp.nextMailTo(form.email), '/confirm')).toBeTruthy();
    await request(app).get('/api/v2/auth/confirm-email/nobody%40example.com').expect(200, { message: 'Email Sent' });
  });
});

describe('sign-in', () => {
  it('when the credentials are right, then user, token, message and reacted_contents come back', async () => {
    const member = await createActiveMember(app, smtp);
    const res = await signin({ email: member.form.email.toUpperCase(), password: member.form.password }).expect(200);
    expect(res.body).toMatchObject({ message: 'Success', reacted_contents: [], user: { id: member.user.id, role: 'user' } });
    expect(res.body.user.passwordHash).toBeUndefined();
    const claims = jwt.verify(res.body.token, testConfig().auth.keys.accessTokens, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    expect(claims).toMatchObject({ sub: member.user.id, iss: 'knack', aud: 'knack-web', ver: 0 });
    expect(claims.exp! - claims.iat!).toBe(900);
  });

  it('when the email is unknown or the password wrong, then the same 401 answer', async () => {
    const member = await createActiveMember(app, smtp);
    const unknown = await signin({ email: 'nobody@example.com', password: GOOD_PASSWORD }).expect(401);
    const wrong = await signin({ email: member.form.email, password: 'Wr0ng!pass' }).expect(401);
    expect(unknown.body.message).toBe('Incorrect email or password.');
    expect({ ...wrong.body, requestId: undefined }).toEqual({ ...unknown.body, requestId: undefined });
  });

  it.each([
    [{ password: GOOD_PASSWORD }, 'Please input email'],
    [{ email: 'ana@example.com' }, 'Please input password'],
    [{ email: '  ', password: GOOD_PASSWORD }, 'Please input email'],
  ])('when %p, then 400 "%s"', async (body, message) => {
    expect((await signin(body).expect(400)).body.message).toBe(message);
  });

  it.each([
    { email: { $ne: null }, password: GOOD_PASSWORD },
    { email: 'a@b.co', password: { $gt: '' } },
  ])('when an operator is smuggled in (%p), then 400 before any query', async (body) => {
    const res = await signin(body).expect(400);
    expect(res.body.code).toBe('bad_request');
  });

  it('when an account fails 5 times from one address, then the 6th try from there gets 429 with Retry-After, even with the right password', async () => {
    // A minute into a 15-minute window: 14 minutes are left.
    const clock = freezeInWindow(15 * 60_000, 60_000);
    try {
      const member = await createActiveMember(app, smtp);
      for (let i = 0; i < 5; i++) await signin({ email: member.form.email, password: 'Wr0ng!pass' }).expect(401);
      const locked = await signin({ email: member.form.email, password: member.form.password }).expect(429);
      expect(locked.headers['retry-after']).toBe('840');
      expect(locked.body.code).toBe('too_many_requests');
    } finally {
      clock.restore();
    }
  });

  it('when 60 guesses for one account arrive at once from one address, the right password last, then only 5 are checked: the rest, the right one among them, get 429', async () => {
    const clock = freezeInWindow(15 * 60_000, 60_000);
    try {
      const member = await createActiveMember(app, smtp);
      const guesses = [...Array.from({ length: 59 }, (_, i) => `Wr0ng!pass${i}`), member.form.password];
      const answers = await Promise.all(guesses.map((password) => signin({ email: member.form.email, password })));
      const statuses = answers.map((answer) => answer.status);
      // Each guess is counted, on all three counts, before its password is compared: no more than the limit are
      // ever compared (fewer when a guess within it was over another count, such as the address's 20).
      expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(LOGIN_LIMITS.accountFromAddress.max);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(60 - LOGIN_LIMITS.accountFromAddress.max);
      expect(statuses.filter((status) => status !== 429 && status !== 401 && status !== 200)).toEqual([]);
      expect(statuses[59]).toBe(429);
      expect(answers[59]!.body).toMatchObject({ code: 'too_many_requests', message: 'Too many failed sign-in attempts. Please wait and try again.' });
      // A success clears nothing of the counts that a burst filled: the owner waits for the window like anyone.
      await signin({ email: member.form.email, password: member.form.password }).expect(429);
    } finally {
      clock.restore();
    }
  }, 60_000);

  it('when one address fails 20 times across accounts, then it gets 429; another address still signs in', async () => {
    const proxied = createTestApp({ config: { trustProxy: 1 }, mailer: smtpMailer(smtp.url, 'x@knack.test') });
    const member = await createActiveMember(app, smtp);
    for (let i = 0; i < 20; i++) {
      await request(proxied)
        .post('/api/v2/auth/signin')
        .set('X-Forwarded-For', '203.0.113.9')
        .send({ email: `x${i}@example.com`, password: 'Wr0ng!pass' })
        .expect(401);
    }
    await request(proxied)
      .post('/api/v2/auth/signin')
      .set('X-Forwarded-For', '203.0.113.9')
      .send({ email: member.form.email, password: member.form.password })
      .expect(429);
    await request(proxied)
      .post('/api/v2/auth/signin')
      .set('X-Forwarded-For', '198.51.100.4')
      .send({ email: member.form.email, password: member.form.password })
      .expect(200);
  });

  it('when 25 members sign in from one address (an office), then none is refused; failures from it still count to 20', async () => {
    const proxied = createTestApp({ config: { trustProxy: 1 }, mailer: smtpMailer(smtp.url, 'x@knack.test') });
    const office = (body: object) => request(proxied).post('/api/v2/auth/signin').set('X-Forwarded-For', '203.0.113.77').send(body);
    const member = await createActiveMember(app, smtp);
    for (let i = 0; i < 25; i++) await office({ email: member.form.email, password: member.form.password }).expect(200);
    for (let i = 0; i < 20; i++) await office({ email: `y${i}@example.com`, password: 'Wr0ng!pass' }).expect(401);
    await office({ email: member.form.email, password: member.form.password }).expect(429);
  });

  it('when an attacker fails 5 times from one address, then only that address is locked out: the owner signs in from another', async () => {
    const clock = freezeInWindow(15 * 60_000, 5 * 60_000);
    try {
      const proxied = createTestApp({ config: { trustProxy: 1 }, mailer: smtpMailer(smtp.url, 'x@knack.test') });
      const from = (address: string, password: string) =>
        request(proxied).post('/api/v2/auth/signin').set('X-Forwarded-For', address).send({ email: owner.form.email, password });
      const owner = await createActiveMember(app, smtp);
      for (let i = 0; i < 5; i++) await from('203.0.113.66', 'Wr0ng!pass').expect(401);
      const locked = await from('203.0.113.66', owner.form.password).expect(429);
      expect(locked.body).toMatchObject({ code: 'too_many_requests', message: 'Too many failed sign-in attempts. Please wait and try again.' });
      expect(locked.headers['retry-after']).toBe('600');

      const res = await from('198.51.100.23', owner.form.password).expect(200);
      expect(res.body.user.id).toBe(owner.user.id);
    } finally {
      clock.restore();
    }
  });

  it('when an account fails 50 times in 15 minutes from many addresses, then it is locked out from every address until the window ends', async () => {
    const clock = freezeInWindow(15 * 60_000, 60_000);
    try {
      const proxied = createTestApp({ config: { trustProxy: 1 }, mailer: smtpMailer(smtp.url, 'x@knack.test') });
      const from = (address: string, password: string) =>
        request(proxied).post('/api/v2/auth/signin').set('X-Forwarded-For', address).send({ email: owner.form.email, password });
      const owner = await createActiveMember(app, smtp);
      // 45 failures from nine other addresses, counted as the limiter counts them (each failure through the API
      // costs a bcrypt comparison); the last 5 go through the API from a tenth address.
      for (let i = 0; i < 45; i++) await countHit(`login:account:${owner.form.email}`, LOGIN_LIMITS.account);
      for (let i = 0; i < 5; i++) await from('203.0.113.70', 'Wr0ng!pass').expect(401);

      const locked = await from('198.51.100.24', owner.form.password).expect(429);
      expect(locked.body.message).toBe('Too many failed sign-in attempts. Please wait and try again.');
      expect(locked.headers['retry-after']).toBe('840');

      clock.advance(14 * 60_000);
      await from('198.51.100.24', owner.form.password).expect(200);
    } finally {
      clock.restore();
    }
  });

  it('when the email is in ADMIN_EMAILS, then the server makes the account an admin', async () => {
    await UserModel.deleteMany({ email: 'admin@knack.example' });
    const admin = await createActiveMember(app, smtp, { email: 'Admin@Knack.example' });
    expect(admin.user.role).toBe('admin');
  });
});

describe('sign-up limits', () => {
  let proxied: ReturnType<typeof createTestApp>;
  beforeAll(() => {
    proxied = createTestApp({ config: { trustProxy: 1 }, mailer: smtpMailer(smtp.url, 'x@knack.test') });
  });
  const signupFrom = (address: string, body: object) => request(proxied).post('/api/v2/auth/signup').set('X-Forwarded-For', address).send(body);
  // A minute into an hour-long window: 59 minutes are left.
  let clock: ReturnType<typeof freezeInWindow>;
  beforeEach(() => {
    clock = freezeInWindow(60 * 60_000, 60_000);
  });
  afterEach(() => clock.restore());

  it('when one address makes 30 sign-up attempts in an hour, then the next gets 429 with Retry-After; another address still signs up', async () => {
    const first = newSignup();
    await signupFrom('203.0.113.30', first).expect(201);
    for (let i = 1; i < 30; i++) await signupFrom('203.0.113.30', newSignup({ username: first.username })).expect(400);

    const form = newSignup();
    const res = await signupFrom('203.0.113.30', form).expect(429);
    expect(res.body).toMatchObject({ code: 'too_many_requests', message: 'Too many sign-ups. Please wait and try again.' });
    expect(res.headers['retry-after']).toBe('3540');
    expect(await UserModel.countDocuments({ email: form.email })).toBe(0);

    await signupFrom('198.51.100.30', form).expect(201);
  });

  it('when one email is signed up for 5 times in an hour, then the next attempt gets 429 from any address; other emails are not held up', async () => {
    const form = newSignup();
    await signupFrom('203.0.113.31', form).expect(201);
    for (let i = 2; i <= 5; i++) await signupFrom(`203.0.113.${30 + i}`, newSignup({ email: form.email })).expect(409);

    const res = await signupFrom('198.51.100.31', newSignup({ email: form.email })).expect(429);
    expect(res.body.message).toBe('Too many sign-ups. Please wait and try again.');
    expect(res.headers['retry-after']).toBe('3540');
    await signupFrom('198.51.100.31', newSignup()).expect(201);
  });
});

describe('access tokens', () => {
  const ext = (id: string, token: string) => request(app).get(`/api/v2/user-setting/get-ext/${id}`).set('Authorization', `Bearer ${token}`);

  it('when the token is valid, then the member reads their own extension; another member’s is 404, as for nobody', async () => {
    const ana = await createActiveMember(app, smtp);
    const bea = await createActiveMember(app, smtp);
    const res = await ext(ana.user.id, ana.token).expect(200);
    expect(res.body).toEqual({ userExt: { country: null, city: '', state: '', timezone: null, pCredit: 0, sCredit: 0 } });
    expect((await ext(bea.user.id, ana.token).expect(404)).body).toMatchObject({ code: 'not_found', message: 'This member does not exist.' });
  });

  it('when an admin asks for another member’s extension, then it is allowed', async () => {
    await UserModel.deleteMany({ email: 'admin@knack.example' });
    const admin = await createActiveMember(app, smtp, { email: 'admin@knack.example' });
    const ana = await createActiveMember(app, smtp);
    await ext(ana.user.id, admin.token).expect(200);
  });

  it('when there is no token, then 401', async () => {
    const ana = await createActiveMember(app, smtp);
    await request(app).get(`/api/v2/user-setting/get-ext/${ana.user.id}`).expect(401);
  });

  it('when the token uses alg none, a wrong key (the raw JWT_SECRET too), the wrong audience or has expired, then 401', async () => {
    const ana = await createActiveMember(app, smtp);
    const claims = { ver: 0 };
    const common = { subject: ana.user.id, issuer: 'knack', audience: 'knack-web' };
    const unsigned = jwt.sign(claims, '', { ...common, algorithm: 'none' });
    const wrongKey = jwt.sign(claims, 'another-secret-another-secret-another', { ...common, algorithm: 'HS256' });
    // Signed with the access-token key itself, so that only the audience or the expiry is wrong.
    const accessKey = testConfig().auth.keys.accessTokens;
    const wrongAudience = jwt.sign(claims, accessKey, { ...common, audience: 'someone-else', algorithm: 'HS256' });
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, accessKey, { ...common, algorithm: 'HS256' });
    // The secret the keys are derived from is not a key: a token signed with it is refused.
    const rawSecret = jwt.sign(claims, TEST_JWT_SECRET, { ...common, algorithm: 'HS256' });
    await ext(ana.user.id, jwt.sign(claims, accessKey, { ...common, algorithm: 'HS256' })).expect(200);
    for (const token of [unsigned, wrongKey, wrongAudience, expired, rawSecret, 'not.a.jwt']) {
      const res = await ext(ana.user.id, token).expect(401);
      expect(res.body.code).toBe('unauthorized');
    }
  });

  it('when the member logs out everywhere, then older tokens (an old version) get 401', async () => {
    const ana = await createActiveMember(app, smtp);
    await request(app).post('/api/v2/auth/logout-all').set('Authorization', `Bearer ${ana.token}`).expect(200);
    const res = await ext(ana.user.id, ana.token).expect(401);
    expect(res.body.message).toBe('Your session has expired. Please log in again.');
    await request(app).post('/api/v2/auth/check-loggedin').set('Cookie', withCookie(ana.cookie)).expect(401);
  });
});

describe('session reload (refresh token rotation)', () => {
  it('when the refresh cookie is presented, then a new access token and a new cookie come back', async () => {
    const ana = await createActiveMember(app, smtp);
    const res = await request(app).post('/api/v2/auth/check-loggedin').set('Cookie', withCookie(ana.cookie)).send({}).expect(200);
    expect(res.body).toMatchObject({ message: 'Success', user: { id: ana.user.id }, reacted_contents: [] });
    const next = refreshCookieOf(res);
    expect(next).toBeDefined();
    expect(next).not.toBe(ana.cookie);
    await request(app).get(`/api/v2/user-setting/get-ext/${ana.user.id}`).set('Authorization', `Bearer ${res.body.token}`).expect(200);
  });

  it('when an already used refresh token is replayed, then 401 and the whole family is revoked', async () => {
    const ana = await createActiveMember(app, smtp);
    const first = await request(app).post('/api/v2/auth/check-loggedin').set('Cookie', withCookie(ana.cookie)).expect(200);
    await request(app).post('/api/v2/auth/check-loggedin').set('Cookie', withCookie(ana.cookie)).expect(401);
    await request(app)
      .post('/api/v2/auth/check-loggedin')
      .set('Cookie', withCookie(refreshCookieOf(first)!))
      .expect(401);
  });

  it('when there is no cookie, then 401', async () => {
    await request(app).post('/api/v2/auth/check-loggedin').expect(401);
  });

  it('when the member logs out, then the cookie is cleared and cannot be used again', async () => {
    const ana = await createActiveMember(app, smtp);
    const res = await request(app).post('/api/v2/auth/logout').set('Cookie', withCookie(ana.cookie)).expect(200);
    expect(res.body.message).toBe('You are logged out.');
    expect(([] as string[]).concat(res.headers['set-cookie'] ?? []).join()).toMatch(/knack_refresh=;/);
    await request(app).post('/api/v2/auth/check-loggedin').set('Cookie', withCookie(ana.cookie)).expect(401);
    expect(await SessionModel.countDocuments({ userId: ana.user.id })).toBe(0);
  });
});

describe('forgot and reset password', () => {
  async function resetToken(email: string): Promise<string> {
    await request(app).post('/api/v2/auth/request-reset-password').send({ email }).expect(200, { message: 'Email Sent' });
    const mail: ReceivedMail = await smtp.nextMailTo(email);
    expect(mail.raw).toContain('Subject: Reset your Knack password');
    return tokenFromMail(mail, 'http://knack.test/auth/reset-password');
  }
  const reset = (body: object) => request(app).post('/api/v2/auth/reset-password').send(body);

  it('when the email is empty, then "Please input email"', async () => {
    expect((await request(app).post('/api/v2/auth/request-reset-password').send({ email: '' }).expect(400)).body.message).toBe('Please input email');
  });

  it('when no account has the email, then the same "Email Sent" and no mail', async () => {
    await request(app).post('/api/v2/auth/request-reset-password').send({ email: 'ghost@example.com' }).expect(200, { message: 'Email Sent' });
    await expect(smtp.nextMailTo('ghost@example.com', 500)).rejects.toThrow(/no mail/);
  });

  it.each([
    [{ newPassword: '' }, 'Please input password'],
    [
      { newPassword: 'weakpass', passwordConfirm: 'weakpass' },
      'Password should include at least one uppercase, numeric, special charater and also should have 8 or more length',
    ],
    [{ newPassword: 'N3w!password', passwordConfirm: 'N3w!passwordX' }, 'Password and confirmed password should be match.'],
  ])('when %p, then 400 "%s" and the token still works', async (body, message) => {
    const ana = await createActiveMember(app, smtp);
    const token = await resetToken(ana.form.email);
    expect((await reset({ token, ...body }).expect(400)).body.message).toBe(message);
    await reset({ token, newPassword: 'N3w!password', passwordConfirm: 'N3w!password' }).expect(200);
  });

  it('when the new password is set, then the old one fails, the new one works, old tokens are revoked and the link is spent', async () => {
    const ana = await createActiveMember(app, smtp);
    const token = await resetToken(ana.form.email);
    const res = await reset({ token, newPassword: 'N3w!password', passwordConfirm: 'N3w!password' }).expect(200);
    expect(res.body.message).toBe('Your password has been reset. Log in with your new password.');
    await signin({ email: ana.form.email, password: ana.form.password }).expect(401);
    await signin({ email: ana.form.email, password: 'N3w!password' }).expect(200);
    await request(app).get(`/api/v2/user-setting/get-ext/${ana.user.id}`).set('Authorization', `Bearer ${ana.token}`).expect(401);
    await request(app).post('/api/v2/auth/check-loggedin').set('Cookie', withCookie(ana.cookie)).expect(401);
    const again = await reset({ token, newPassword: 'Another!1pass', passwordConfirm: 'Another!1pass' }).expect(400);
    expect(again.body.message).toBe('This reset link is invalid or has expired.');
  });

  it('when reset mails are asked for too often from one address, then 429', async () => {
    for (let i = 0; i < 5; i++)
      await request(app)
        .post('/api/v2/auth/request-reset-password')
        .send({ email: `nobody${i}@example.com` })
        .expect(200);
    const res = await request(app).post('/api/v2/auth/request-reset-password').send({ email: 'nobody@example.com' }).expect(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('user look-ups', () => {
  it('when an email has an account, then 200; otherwise 404', async () => {
    const ana = await createActiveMember(app, smtp);
    await request(app)
      .get(`/api/v2/user/get-user-by-email/${encodeURIComponent(ana.form.email.toUpperCase())}`)
      .expect(200, { exists: true });
    await request(app).get('/api/v2/user/get-user-by-email/free%40example.com').expect(404);
  });

  it('when a username is taken (normalized), then 200; otherwise 404', async () => {
    await createActiveMember(app, smtp, { username: 'look_up_me' });
    await request(app).get('/api/v2/user/get-user-by-username/Look%20Up%20Me').expect(200, { exists: true });
    await request(app).get('/api/v2/user/get-user-by-username/free_name_here').expect(404);
  });

  it('when a public profile is read, then it carries no email or secrets', async () => {
    const ana = await createActiveMember(app, smtp);
    const res = await request(app).get(`/api/v2/user/get-data/${ana.user.id}`).expect(200);
    expect(res.body.user).toMatchObject({ id: ana.user.id, username: ana.form.username, firstName: 'Ana' });
    expect(JSON.stringify(res.body)).not.toMatch(/email|password|tokenVersion/i);
  });

  it('when the member has no subscription, then null; plans 1 and 2 are listed', async () => {
    const ana = await createActiveMember(app, smtp);
    const sub = await request(app).get(`/api/v2/subscription/${ana.user.id}`).set('Authorization', `Bearer ${ana.token}`).expect(200);
    expect(sub.body).toEqual({ subscription: null });
    const { seedPlans } = await import('../../server/modules/subscriptions');
    await seedPlans();
    const plans = await request(app).get('/api/v2/subscription/all-plans').expect(200);
    expect(plans.body.plans.map((p: { planId: number }) => p.planId)).toEqual([1, 2]);
  });

  it('when no provider is configured, then none is offered', async () => {
    await request(app).get('/api/v2/auth/providers').expect(200, { google: null, facebook: null });
  });
});
