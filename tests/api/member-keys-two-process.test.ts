/**
 * Member keys (users/users.keys.ts) across two app processes: sign-in, sign-up's checks and the look-ups by email
 * and username read a key document by `_id`, claimed by insert. So of two sign-ups with one email, or two members
 * taking one username, at once through two processes, exactly one wins; the keys then equal their rebuild from the
 * accounts (the `member-keys` kept state), and the calls answer as the accounts say. The file first marks the keys
 * complete (the rebuild), so no read falls back to the accounts: an account change that did not keep its key
 * shows as a wrong answer here.
 */
import request from 'supertest';
import { smtpMailer } from '../../server/integrations/mail';
import { ensureMemberKeys, memberKeysState, UserExtModel, UserModel } from '../../server/modules/users';
import { CLAIM_GRACE_MS } from '../../server/lib/key-documents';
import { MemberKeyModel } from '../../server/modules/users/testing';
import { Types } from 'mongoose';
import { createTestApp } from '../helpers/app';
import { createActiveMember, GOOD_PASSWORD, newSignup } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { startSecondApp, type SecondApp } from '../helpers/second-process';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let second: SecondApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
  second = await startSecondApp();
  // An empty database gets its mark of complete keys, as the app's start gives it.
  expect(await ensureMemberKeys()).toBe(true);
}, 90_000);
afterAll(async () => {
  await second?.stop();
  await smtp.stop();
});

/** Every other request goes to the other process: only what the database holds can keep them apart. */
const either = (i: number) => (i % 2 ? second.url : app);
const EMAIL_TAKEN = 'An account with this email already exists. Please log in.';
const USERNAME_TAKEN = 'That username is taken. Try another.';

async function expectKeysExact(): Promise<void> {
  const report = await memberKeysState.check();
  expect(report.differences).toEqual([]);
  expect(report.checked).toBeGreaterThan(0);
}

describe('sign-ups racing through two app processes', () => {
  // Five: the sign-up limit of one address per hour.
  it('when 5 sign-ups with one email (each its own username) arrive at once, then exactly one is made, the others are told the email is taken, and the keys are exact', async () => {
    const email = `race.${Date.now()}@example.com`;
    const forms = Array.from({ length: 5 }, () => newSignup({ email }));
    const answers = await Promise.all(forms.map((form, i) => request(either(i)).post('/api/v2/auth/signup').send(form)));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(answers.filter((res) => res.status === 409).every((res) => res.body.message === EMAIL_TAKEN)).toBe(true);
    const winner = forms[answers.findIndex((res) => res.status === 201)]!;
    expect(await UserModel.countDocuments({ email })).toBe(1);
    expect((await UserModel.findOne({ email }).lean())?.username).toBe(winner.username);
    // The losers' usernames were given back: each is free again.
    for (const form of forms.filter((f) => f !== winner)) await request(app).get(`/api/v2/user/get-user-by-username/${form.username}`).expect(404);
    await request(second.url).get(`/api/v2/user/get-user-by-email/${email}`).expect(200);
    await request(app).get(`/api/v2/user/get-user-by-username/${winner.username}`).expect(200);
    await expectKeysExact();
  }, 60_000);

  it('when 6 sign-ups with one username (each its own email) arrive at once, then exactly one is made and the others are told the username is taken', async () => {
    const username = `race_${Date.now()}`;
    const forms = Array.from({ length: 6 }, () => newSignup({ username }));
    const answers = await Promise.all(forms.map((form, i) => request(either(i)).post('/api/v2/auth/signup').send(form)));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    expect(answers.filter((res) => res.status === 400).every((res) => res.body.message === USERNAME_TAKEN)).toBe(true);
    expect(await UserModel.countDocuments({ username })).toBe(1);
    const winner = forms[answers.findIndex((res) => res.status === 201)]!;
    for (const form of forms.filter((f) => f !== winner)) await request(second.url).get(`/api/v2/user/get-user-by-email/${form.email}`).expect(404);
    await expectKeysExact();
  }, 60_000);
});

describe('renames racing through two app processes', () => {
  it('when 4 members ask for one free name at once, then one has it, the others are told it is taken; the winner is found by the new name and by the old one, and signs in', async () => {
    const members = await Promise.all([0, 1, 2, 3].map(() => createActiveMember(app, smtp)));
    const wanted = `wanted_${Date.now()}`;
    const answers = await Promise.all(
      members.map((member, i) =>
        request(either(i))
          .post(`/api/v2/user-setting/update-username/${member.user.id}`)
          .set('Authorization', `Bearer ${member.token}`)
          .send({ username: wanted }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400, 400, 400]);
    expect(answers.filter((res) => res.status === 400).every((res) => res.body.message === USERNAME_TAKEN)).toBe(true);
    const winner = members[answers.findIndex((res) => res.status === 200)]!;

    const byNew = await request(second.url).get(`/api/v2/user/profile/${wanted}`).expect(200);
    expect(byNew.body.user).toMatchObject({ id: winner.user.id, username: wanted });
    // The old name answers as before a rename: the member as they are now.
    const byOld = await request(app).get(`/api/v2/user/profile/${winner.form.username}`).expect(200);
    expect(byOld.body.user).toMatchObject({ id: winner.user.id, username: wanted });
    await request(app).get(`/api/v2/user/get-user-by-username/${winner.form.username}`).expect(200);
    // The losers keep their names.
    for (const member of members.filter((m) => m !== winner)) {
      expect((await request(second.url).get(`/api/v2/user/profile/${member.form.username}`).expect(200)).body.user.id).toBe(member.user.id);
    }
    const signin = await request(second.url).post('/api/v2/auth/signin').send({ email: winner.form.email, password: GOOD_PASSWORD }).expect(200);
    expect(signin.body.user).toMatchObject({ id: winner.user.id, username: wanted });
    await expectKeysExact();
  }, 90_000);
});

describe('a member’s extension by key', () => {
  it('when a new member saves regional settings 6 times at once through two processes, then one extension is made, found by its key, and the keys are exact', async () => {
    const gil = await createActiveMember(app, smtp);
    const places = [
      { country: 'PT', state: 'Lisboa', city: 'Lisbon', timezone: 'Europe/Lisbon' },
      { country: 'PT', state: 'Porto', city: 'Porto', timezone: 'Europe/Lisbon' },
    ];
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        request(either(i))
          .post(`/api/v2/user-setting/update-regional/${gil.user.id}`)
          .set('Authorization', `Bearer ${gil.token}`)
          .send(places[i % 2]),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await UserExtModel.countDocuments({ userId: gil.user.id })).toBe(1);
    const ext = await request(second.url).get(`/api/v2/user-setting/get-ext/${gil.user.id}`).set('Authorization', `Bearer ${gil.token}`).expect(200);
    expect(places).toContainEqual({
      country: ext.body.userExt.country,
      state: ext.body.userExt.state,
      city: ext.body.userExt.city,
      timezone: ext.body.userExt.timezone,
    });
    await expectKeysExact();
  }, 60_000);
});

describe('keys the accounts no longer match', () => {
  it('when an account is closed, then its email and username are free again, and the keys are exact', async () => {
    const ana = await createActiveMember(app, smtp);
    await request(app)
      .post(`/api/v2/user-setting/delete-account/${ana.user.id}`)
      .set('Authorization', `Bearer ${ana.token}`)
      .send({ password: GOOD_PASSWORD })
      .expect(200);
    const closed = await UserModel.findById(ana.user.id).lean();
    // Whether removed at once or kept nameless until removal, the account no longer has its values.
    expect(closed?.email ?? null).not.toBe(ana.form.email);
    await request(second.url).get(`/api/v2/user/get-user-by-email/${ana.form.email}`).expect(404);
    await request(second.url).get(`/api/v2/user/get-user-by-username/${ana.form.username}`).expect(404);
    await request(app)
      .post('/api/v2/auth/signup')
      .send(newSignup({ email: ana.form.email, username: ana.form.username }))
      .expect(201);
    await expectKeysExact();
  }, 60_000);

  it('when a claim was left by a process that stopped, then it holds the email for a short while only', async () => {
    const email = `left.${Date.now()}@example.com`;
    const nobody = new Types.ObjectId();
    await MemberKeyModel.collection.insertOne({ _id: `email:${email}` as never, ref: nobody, state: 'claimed', at: new Date() });
    // Fresh: taken to be a sign-up in progress.
    expect((await request(app).post('/api/v2/auth/signup').send(newSignup({ email })).expect(409)).body.message).toBe(EMAIL_TAKEN);
    await MemberKeyModel.collection.updateOne({ _id: `email:${email}` as never }, { $set: { at: new Date(Date.now() - CLAIM_GRACE_MS - 1_000) } });
    await request(second.url).post('/api/v2/auth/signup').send(newSignup({ email })).expect(201);
    await request(app).get(`/api/v2/user/get-user-by-email/${email}`).expect(200);
    await expectKeysExact();
  }, 60_000);

  it('when a database has accounts but no keys (written before keys existed), then the check lists them, and the start-up rebuild makes sign-in and look-ups work by key', async () => {
    const bea = await createActiveMember(app, smtp);
    await MemberKeyModel.deleteMany({});
    const report = await memberKeysState.check();
    expect(report.differences).toContain(`email:${bea.form.email}: no key, held by ${bea.user.id}`);
    expect(report.differences).toContain('the keys are not marked complete: the rebuild has not run on this database');
    expect(await ensureMemberKeys()).toBe(true);
    expect(await ensureMemberKeys()).toBe(false);
    await expectKeysExact();
    await request(second.url).post('/api/v2/auth/signin').send({ email: bea.form.email, password: GOOD_PASSWORD }).expect(200);
    await request(app).get(`/api/v2/user/profile/${bea.form.username}`).expect(200);
  }, 60_000);

  it('when keys are complete and an account has lost its key, then it is not found by that value (no scan), and the check names it', async () => {
    const cara = await createActiveMember(app, smtp);
    await MemberKeyModel.deleteOne({ _id: `username:${cara.form.username}` });
    await request(app).get(`/api/v2/user/get-user-by-username/${cara.form.username}`).expect(404);
    expect((await memberKeysState.check()).differences).toEqual([`username:${cara.form.username}: no key, held by ${cara.user.id}`]);
    await memberKeysState.rebuild();
    await request(app).get(`/api/v2/user/get-user-by-username/${cara.form.username}`).expect(200);
    await expectKeysExact();
  }, 60_000);
});
