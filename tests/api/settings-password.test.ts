/**
 * Changing one's password from the settings, on the real database: the current password first, the sign-up rule for
 * the new one, every other session and access token signed out, and the caller signed in anew.
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { MESSAGES } from '../../generated/validation';
import { createTestApp } from '../helpers/app';
import { createActiveMember, GOOD_PASSWORD, refreshCookieOf } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import type { Member } from '../helpers/e2e-pieces';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

const NEW_PASSWORD = 'N3w!secret';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;

const signin = (email: string, password: string) => request(app).post('/api/v2/auth/signin').send({ email, password });
const change = (token: string, id: string, body: Record<string, string>) =>
  request(app).post(`/api/v2/user-setting/reset-password/${id}`).set('Authorization', `Bearer ${token}`).send(body);
/** A call that needs a live session: the member's own extension. */
const whoAmI = (token: string, id: string) => request(app).get(`/api/v2/user-setting/get-ext/${id}`).set('Authorization', `Bearer ${token}`);

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
});

afterAll(async () => smtp.stop());

async function memberWithTwoSessions(): Promise<{ member: Member; laptop: request.Response; phone: request.Response }> {
  const member = await createActiveMember(app, smtp);
  const laptop = await signin(member.form.email, GOOD_PASSWORD).expect(200);
  const phone = await signin(member.form.email, GOOD_PASSWORD).expect(200);
  return { member, laptop, phone };
}

describe('POST /user-setting/reset-password/{id}', () => {
  it('when a member changes her password on her laptop, then her phone is signed out and the laptop goes on with a new session', async () => {
    const { member, laptop, phone } = await memberWithTwoSessions();
    const res = await change(laptop.body.token as string, member.user.id, { password: GOOD_PASSWORD, newPassword: NEW_PASSWORD }).expect(200);
    expect(res.body.user.id).toBe(member.user.id);
    expect(refreshCookieOf(res)).toBeTruthy();

    // The phone's access token and its refresh cookie no longer work; nor does the laptop's old token.
    await whoAmI(phone.body.token as string, member.user.id).expect(401);
    await request(app)
      .post('/api/v2/auth/check-loggedin')
      .set('Cookie', `knack_refresh=${refreshCookieOf(phone)!}`)
      .expect(401);
    await whoAmI(laptop.body.token as string, member.user.id).expect(401);
    // The new session does.
    await whoAmI(res.body.token as string, member.user.id).expect(200);
    await request(app)
      .post('/api/v2/auth/check-loggedin')
      .set('Cookie', `knack_refresh=${refreshCookieOf(res)!}`)
      .expect(200);

    expect((await signin(member.form.email, GOOD_PASSWORD).expect(401)).body.message).toBe(MESSAGES.badCredentials);
    await signin(member.form.email, NEW_PASSWORD).expect(200);
  });

  it('when the current password is wrong or the new one is weak, then 400 on its field and nothing changes', async () => {
    const { member, laptop, phone } = await memberWithTwoSessions();
    const token = laptop.body.token as string;
    const wrong = await change(token, member.user.id, { password: 'Not!mine1', newPassword: NEW_PASSWORD }).expect(400);
    expect(wrong.body.errors).toEqual([{ path: 'password', message: 'Incorrect password.' }]);
    const weak = await change(token, member.user.id, { password: GOOD_PASSWORD, newPassword: 'weakpass' }).expect(400);
    expect(weak.body.errors).toEqual([{ path: 'newPassword', message: MESSAGES.passwordRule }]);
    await whoAmI(phone.body.token as string, member.user.id).expect(200);
    await signin(member.form.email, GOOD_PASSWORD).expect(200);
  });

  it('when someone asks for another member, even an admin, then 404; a visitor gets 401', async () => {
    const { member } = await memberWithTwoSessions();
    const other = await createActiveMember(app, smtp);
    const admin = await createActiveMember(app, smtp, { email: 'admin@knack.example' });
    expect((await change(other.token, member.user.id, { password: GOOD_PASSWORD, newPassword: NEW_PASSWORD }).expect(404)).body.message).toBe(
      'This member does not exist.',
    );
    await change(admin.token, member.user.id, { password: GOOD_PASSWORD, newPassword: NEW_PASSWORD }).expect(404);
    await request(app).post(`/api/v2/user-setting/reset-password/${member.user.id}`).send({ password: GOOD_PASSWORD, newPassword: NEW_PASSWORD }).expect(401);
    await signin(member.form.email, GOOD_PASSWORD).expect(200);
  });
});
