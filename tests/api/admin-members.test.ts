/**
 * The admin area's members, on the real database:
 * - the list: newest first, searched by the start of a username, name or email word, filtered by status (active,
 *   waiting, deactivated, admins), paged by key without repeats, a broken cursor refused;
 * - a member's view: account, status, balance, credits, pieces with the flags waiting on each; 404 for nobody;
 * - deactivating ends every session and access token at once and refuses sign-in; reactivating lets them in again;
 *   each leaves one audit entry with before and after;
 * - deleting follows the account deletion's rules: $10 or more must be given up explicitly, then everything goes;
 * - creating an account: the form's messages for each blank field, the sign-up rules, an inactive account whose
 *   activation mail is in the outbox and activates it;
 * - the test mailbox: a fresh address on the outbox's domain, whose mail the outbox page lists.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { outboxMailer, smtpMailer, TEST_MAILBOX_DOMAIN } from '../../server/integrations/mail';
import { listOutbox } from '../../server/integrations/mail/outbox.driver';
import { AuditEntryModel } from '../../server/modules/audit/testing';
import { LedgerEntryModel } from '../../server/modules/ledger';
import { UserModel } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { createActiveMember, GOOD_PASSWORD, outboxMailbox } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, credit, type TestMember } from '../helpers/ledger-factory';
import { tokenFromMail } from '../helpers/smtp';

useTestDatabase();

const outboxDir = mkdtempSync(path.join(os.tmpdir(), 'knack-admin-members-outbox-'));
const app = createTestApp({ mailer: outboxMailer(outboxDir, 'Knack <no-reply@knack.test>') });
const mailbox = outboxMailbox(outboxDir);
const withCookie = (value: string) => `knack_refresh=${value}`;

let admin: TestMember;

beforeAll(async () => {
  admin = await adminMember();
});

const list = (query: Record<string, string | number>) => request(app).get('/api/v2/admin/members').query(query).set(bearer(admin));
const auditOf = (action: string, targetId: string) => AuditEntryModel.find({ action, targetId }).lean();

describe('the members list', () => {
  it('when an admin searches, then the start of a username, a name word or the email finds the member', async () => {
    const zed = await createMember({ username: 'zed_qwerty_9', email: 'zorro.mail@example.com' });
    await UserModel.updateOne({ _id: zed.id }, { $set: { fullName: 'Xavier Plumtree', searchWords: ['zed', 'qwerty', '9', 'xavier', 'plumtree'] } });
    for (const q of ['zed_qw', 'plumt', 'zorro.ma', 'ZORRO']) {
      const res = await list({ q }).expect(200);
      expect(res.body.members.map((member: { id: string }) => member.id)).toEqual([zed.id]);
    }
    expect((await list({ q: 'nobody-like-this' }).expect(200)).body.members).toEqual([]);
  });

  it('when an admin filters by status, then each filter answers only its members', async () => {
    const active = await createMember();
    const waiting = await createMember();
    await UserModel.updateOne({ _id: waiting.id }, { $set: { isActive: false } });
    // An account a visitor's Top 50 upload made, waiting to be registered from its mailed link.
    const upload = await createMember();
    await UserModel.updateOne({ _id: upload.id }, { $set: { isActive: false, awaitsRegistration: true } });
    const gone = await createMember();
    await request(app).post(`/api/v2/admin/members/${gone.id}/deactivate`).set(bearer(admin)).expect(200);
    const ids = async (status: string) => (await list({ status, limit: 50 }).expect(200)).body.members.map((member: { id: string }) => member.id);
    expect(await ids('unregistered')).toEqual([upload.id]);
    expect(await ids('waiting')).not.toContain(upload.id);
    expect((await list({ q: upload.username }).expect(200)).body.members[0]).toMatchObject({ id: upload.id, status: 'unregistered' });
    expect(await ids('active')).toEqual(expect.arrayContaining([active.id, admin.id]));
    expect(await ids('active')).not.toContain(waiting.id);
    expect(await ids('waiting')).toContain(waiting.id);
    expect(await ids('waiting')).not.toContain(active.id);
    expect(await ids('deactivated')).toEqual([gone.id]);
    expect(await ids('admins')).toEqual([admin.id]);
    const row = (await list({ q: gone.username }).expect(200)).body.members[0];
    expect(row).toMatchObject({ id: gone.id, username: gone.username, email: gone.email, status: 'deactivated', role: 'user' });
  });

  it('when the list is read page by page, then every member comes once, newest first, and a broken cursor is refused', async () => {
    for (let i = 0; i < 5; i++) await createMember({ username: `pager_${i}_${Date.now() % 100000}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await list({ q: 'pager_', limit: 2, ...(cursor ? { cursor } : {}) }).expect(200);
      expect(res.body.members.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.members.map((member: { id: string }) => member.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect([...seen].sort().reverse()).toEqual(seen);
    const broken = await list({ cursor: 'not-a-cursor' }).expect(400);
    expect(broken.body.message).toBe(
      'This cursor is not one this server gave (it was cut short or changed). Pass back nextCursor exactly as it came, or reload the list from its start.',
    );
  });

  it('when a member asks for the list, then 403 with the call’s message', async () => {
    const ana = await createMember();
    const res = await request(app).get('/api/v2/admin/members').set(bearer(ana)).expect(403);
    expect(res.body).toMatchObject({ code: 'forbidden', message: 'Only admins can manage members.' });
  });
});

describe('a member’s view', () => {
  it('when an admin opens a member, then their balance, credits, pieces and the flags on each show', async () => {
    const bea = await createMember();
    const flagger = await createMember();
    const piece = await createPiece(bea, { title: 'Flagged sunrise' });
    await request(app)
      .post('/api/v2/flag/set')
      .set(bearer(flagger))
      .send({ contentId: piece.id, userId: flagger.id, reason: 'Wrong market for content genre' })
      .expect(200);
    await credit(bea, 12_340_000);
    await request(app).post('/api/v2/user-setting/update-scredits').set(bearer(admin)).send({ userId: bea.id, amount: 3, note: 'Welcome gift' }).expect(200);

    const res = await request(app).get(`/api/v2/admin/members/${bea.id}`).set(bearer(admin)).expect(200);
    expect(res.body).toMatchObject({
      member: { id: bea.id, username: bea.username, status: 'active', role: 'user' },
      deactivatedAt: null,
      balanceMicros: 12_340_000,
      credits: { sCredit: 3, pCredit: 0 },
    });
    const flagged = res.body.pieces.find((shown: { id: string }) => shown.id === piece.id);
    expect(flagged).toMatchObject({ title: 'Flagged sunrise', openFlags: 1 });
    expect(res.body.pieces).toHaveLength(2);
  });

  it('when the id is nobody’s, then 404', async () => {
    const res = await request(app).get('/api/v2/admin/members/0123456789abcdef01234567').set(bearer(admin)).expect(404);
    expect(res.body.message).toBe('This member does not exist.');
  });
});

describe('deactivating and reactivating', () => {
  it('when an admin deactivates a member, then their sessions end at once, they cannot sign in, and one audit entry says so', async () => {
    const cleo = await createActiveMember(app, mailbox);
    await request(app).get(`/api/v2/user-setting/get-ext/${cleo.user.id}`).set('Authorization', `Bearer ${cleo.token}`).expect(200);

    const res = await request(app).post(`/api/v2/admin/members/${cleo.user.id}/deactivate`).set(bearer(admin)).expect(200);
    expect(res.body).toMatchObject({ message: 'The member is deactivated.', member: { id: cleo.user.id, status: 'deactivated' } });

    const refused = await request(app).get(`/api/v2/user-setting/get-ext/${cleo.user.id}`).set('Authorization', `Bearer ${cleo.token}`).expect(401);
    expect(refused.body.message).toBe('Your session has expired. Please log in again.');
    await request(app).post('/api/v2/auth/check-loggedin').set('Cookie', withCookie(cleo.cookie)).expect(401);
    const signin = await request(app).post('/api/v2/auth/signin').send({ email: cleo.form.email, password: GOOD_PASSWORD }).expect(403);
    expect(signin.body.message).toBe('This account is deactivated.');

    const [entry, ...more] = await auditOf('deactivateMember', cleo.user.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actorEmail: admin.email, targetKind: 'member', before: { status: 'active' }, after: { status: 'deactivated' } });

    // Twice changes nothing more, and is not a second action.
    await request(app).post(`/api/v2/admin/members/${cleo.user.id}/deactivate`).set(bearer(admin)).expect(200);
    const back = await request(app).post(`/api/v2/admin/members/${cleo.user.id}/reactivate`).set(bearer(admin)).expect(200);
    expect(back.body).toMatchObject({ message: 'The member is active again.', member: { status: 'active' } });
    await request(app).post('/api/v2/auth/signin').send({ email: cleo.form.email, password: GOOD_PASSWORD }).expect(200);
    expect(await auditOf('reactivateMember', cleo.user.id)).toMatchObject([{ before: { status: 'deactivated' }, after: { status: 'active' } }]);
  });

  it('when an admin deactivates themself, then 409 and nothing changes', async () => {
    const res = await request(app).post(`/api/v2/admin/members/${admin.id}/deactivate`).set(bearer(admin)).expect(409);
    expect(res.body.message).toBe('You cannot deactivate your own account.');
    expect(await UserModel.findById(admin.id, { deactivatedAt: 1 }).lean()).toMatchObject({ deactivatedAt: null });
  });
});

describe('deleting a member', () => {
  it('when the member has $10 or more, then the admin must give it up explicitly, and then the account and its sessions go', async () => {
    const dan = await createMember();
    await credit(dan, 15_000_000);
    const refused = await request(app).post(`/api/v2/user/delete/${dan.id}`).set(bearer(admin)).send({}).expect(409);
    expect(refused.body).toMatchObject({
      code: 'balance_unpaid',
      message: 'This member has $15.00 not paid out yet. Choose to give it up to delete the account.',
    });
    expect(await UserModel.exists({ _id: dan.id })).toBeTruthy();

    const done = await request(app).post(`/api/v2/user/delete/${dan.id}`).set(bearer(admin)).send({ giveUpBalance: true }).expect(200);
    expect(done.body.message).toBe('The account is deleted.');
    expect(await UserModel.exists({ _id: dan.id })).toBeNull();
    expect(await LedgerEntryModel.findById(`forfeit:${dan.id}`).lean()).toMatchObject({ kind: 'forfeit', amountMicros: 15_000_000 });
    await request(app).get(`/api/v2/user-setting/get-ext/${dan.id}`).set(bearer(dan)).expect(401);
    expect(await auditOf('deleteMember', dan.id)).toMatchObject([
      { targetKind: 'member', before: { username: dan.username, email: dan.email }, after: { deleted: true, balanceGivenUp: true } },
    ]);
  });

  it('when an admin names their own account, or nobody’s, then it is refused', async () => {
    const own = await request(app).post(`/api/v2/user/delete/${admin.id}`).set(bearer(admin)).send({}).expect(409);
    expect(own.body.message).toBe('Delete your own account from Settings.');
    await request(app).post('/api/v2/user/delete/0123456789abcdef01234567').set(bearer(admin)).send({}).expect(404);
  });
});

describe('creating an account', () => {
  const form = (overrides: Record<string, string> = {}) => ({
    firstName: 'Nora',
    lastName: 'Quinn',
    username: `nora_${Date.now() % 1_000_000}`,
    email: `nora.${Date.now()}@example.com`,
    password: GOOD_PASSWORD,
    ...overrides,
  });
  const create = (body: Record<string, string>) => request(app).post('/api/v2/user/create-account').set(bearer(admin)).send(body);

  it('when a field is blank, then the form’s own message for it', async () => {
    const cases: [string, string][] = [
      ['firstName', 'You should input your first name.'],
      ['lastName', 'You should input your last name.'],
      ['username', 'You should input your username.'],
      ['email', 'You should input your email.'],
      ['password', 'You should input your password.'],
    ];
    for (const [field, message] of cases) {
      const res = await create(form({ [field]: '  ' })).expect(400);
      expect(res.body).toMatchObject({ message, errors: [{ path: field, message }] });
    }
  });

  it('when the sign-up rules are broken, then their messages', async () => {
    const taken = await createMember();
    expect((await create(form({ username: 'abc' })).expect(400)).body.message).toBe('Sorry, your username must be between 6 and 30 characters long.');
    expect((await create(form({ username: taken.username })).expect(400)).body.message).toBe('That username is taken. Try another.');
    expect((await create(form({ email: taken.email })).expect(409)).body.message).toBe('An account with this email already exists. Please log in.');
    expect((await create(form({ email: 'not-an-email' })).expect(400)).body.message).toBe('You should input an correct email');
    expect((await create(form({ password: 'weakpass' })).expect(400)).body.message).toBe(
      'Password should include at least one uppercase, numeric, special charater and also should have 8 or more length',
    );
  });

  it('when the form is good, then the account waits for activation, its mail is in the outbox, and one audit entry names it', async () => {
    const body = form({ username: 'Nora Q Test' });
    const res = await create(body).expect(201);
    expect(res.body).toMatchObject({
      message: 'The account is created. Its activation mail is sent.',
      member: { username: 'nora_q_test', email: body.email, status: 'waiting', role: 'user' },
    });
    const mail = await mailbox.nextMailTo(body.email);
    const activated = await request(app)
      .post('/api/v2/auth/confirm')
      .send({ token: tokenFromMail(mail, '/confirm') })
      .expect(200);
    expect(activated.body.user).toMatchObject({ username: 'nora_q_test', isActive: true });
    expect(await auditOf('createMemberAccount', res.body.member.id)).toMatchObject([
      { targetKind: 'member', before: null, after: { username: 'nora_q_test', email: body.email } },
    ]);
  });
});

describe('the test mailbox', () => {
  it('when an admin asks for a test address, then each is new, on the outbox’s domain, and its mail is listed on the outbox page', async () => {
    const first = (await request(app).get('/api/v2/admin/test-mailbox').set(bearer(admin)).expect(200)).body;
    const second = (await request(app).get('/api/v2/admin/test-mailbox').set(bearer(admin)).expect(200)).body;
    expect(first.email).toMatch(new RegExp(`^test-[0-9a-f]{10}@${TEST_MAILBOX_DOMAIN.replace(/\./g, '\\.')}$`));
    expect(second.email).not.toBe(first.email);
    expect(first).toMatchObject({ delivery: 'outbox', outboxUrl: `/dev/mail?to=${encodeURIComponent(first.email)}` });

    await request(app)
      .post('/api/v2/user/create-account')
      .set(bearer(admin))
      .send({ firstName: 'Tess', lastName: 'Box', username: `tess_${Date.now() % 1_000_000}`, email: first.email, password: GOOD_PASSWORD })
      .expect(201);
    expect((await listOutbox(outboxDir)).some((mail) => mail.to === first.email)).toBe(true);
    const page = await request(app).get(first.outboxUrl).expect(200);
    expect(page.text).toContain(first.email);
    expect(page.text).toContain('Activate your Knack account');
    expect(page.text).not.toContain(second.email);
    const others = await request(app).get('/dev/mail').expect(200);
    expect(others.text).toContain(first.email);
  });

  it('when mail goes out by SMTP, then the address is still made, and the answer says the outbox is not there', async () => {
    const smtpApp = createTestApp({ mailer: smtpMailer('smtp://127.0.0.1:9', 'Knack <no-reply@knack.test>') });
    const res = await request(smtpApp).get('/api/v2/admin/test-mailbox').set(bearer(admin)).expect(200);
    expect(res.body).toMatchObject({ delivery: 'smtp', outboxUrl: null });
  });
});
