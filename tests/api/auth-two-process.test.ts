/**
 * Tokens spent once across app processes: a refresh cookie or a reset link used at the same moment through two
 * processes works for exactly one request, as it would through one.
 */
import request from 'supertest';
import { smtpMailer } from '../../server/integrations/mail';
import { SessionModel } from '../../server/modules/auth';
import { createTestApp } from '../helpers/app';
import { createActiveMember, refreshCookieOf } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { startSecondApp, type SecondApp } from '../helpers/second-process';
import { startSmtpServer, tokenFromMail } from '../helpers/smtp';

useTestDatabase();

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let second: SecondApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
  second = await startSecondApp();
}, 90_000);
afterAll(async () => {
  await second?.stop();
  await smtp.stop();
});

const withCookie = (value: string) => `knack_refresh=${value}`;
/** Every other request goes to the other process: only what the database holds can keep them apart. */
const either = (i: number) => (i % 2 ? second.url : app);
const SESSION_EXPIRED = 'Your session has expired. Please log in again.';

describe('refresh-token rotation through two app processes', () => {
  it('when one refresh cookie is replayed 10 times at once, then exactly one gets a new token, the rest 401, and the whole family is revoked', async () => {
    const ana = await createActiveMember(app, smtp);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => request(either(i)).post('/api/v2/auth/check-loggedin').set('Cookie', withCookie(ana.cookie)).send({})),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401, 401, 401]);
    expect(answers.filter((a) => a.status === 401).every((a) => a.body.message === SESSION_EXPIRED)).toBe(true);
    const winner = answers.find((a) => a.status === 200)!;
    expect(winner.body).toMatchObject({ message: 'Success', user: { id: ana.user.id } });
    const next = refreshCookieOf(winner)!;
    expect(next).toBeDefined();
    expect(next).not.toBe(ana.cookie);

    // A replay means the cookie was stolen: the chain is revoked, the cookie just issued included.
    const after = await request(second.url).post('/api/v2/auth/check-loggedin').set('Cookie', withCookie(next)).send({}).expect(401);
    expect(after.body.message).toBe(SESSION_EXPIRED);
    await request(app).post('/api/v2/auth/check-loggedin').set('Cookie', withCookie(next)).send({}).expect(401);
    expect(await SessionModel.countDocuments({ userId: ana.user.id })).toBe(0);
  }, 60_000);

  it('when a refresh cookie is used once, then its successor keeps working through either process', async () => {
    const ana = await createActiveMember(app, smtp);
    let cookie = ana.cookie;
    for (let i = 0; i < 4; i++) {
      const res = await request(either(i)).post('/api/v2/auth/check-loggedin').set('Cookie', withCookie(cookie)).send({}).expect(200);
      cookie = refreshCookieOf(res)!;
    }
  }, 60_000);
});

describe('one reset link through two app processes', () => {
  it('when each of 3 reset links is used 20 times at once with 20 passwords, then exactly one password per link is set and only it signs in', async () => {
    const members = await Promise.all([0, 1, 2].map(() => createActiveMember(app, smtp)));
    const tokens: string[] = [];
    for (const member of members) {
      await request(app).post('/api/v2/auth/request-reset-password').send({ email: member.form.email }).expect(200);
      tokens.push(tokenFromMail(await smtp.nextMailTo(member.form.email), 'http://knack.test/auth/reset-password'));
    }
    const passwords = Array.from({ length: 20 }, (_, i) => `N3w!password${i}`);
    const rounds = await Promise.all(
      tokens.map((token) =>
        Promise.all(
          passwords.map((password, i) =>
            request(either(i)).post('/api/v2/auth/reset-password').send({ token, newPassword: password, passwordConfirm: password }),
          ),
        ),
      ),
    );
    for (const [m, answers] of rounds.entries()) {
      expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(19).fill(400)]);
      expect(answers.filter((a) => a.status === 400).every((a) => a.body.message === 'This reset link is invalid or has expired.')).toBe(true);
      const chosen = passwords[answers.findIndex((a) => a.status === 200)]!;
      const other = passwords.find((p) => p !== chosen)!;
      const { email } = members[m]!.form;
      await request(app).post('/api/v2/auth/signin').send({ email, password: other }).expect(401);
      await request(app).post('/api/v2/auth/signin').send({ email, password: chosen }).expect(200);
    }
  }, 90_000);
});
