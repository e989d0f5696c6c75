/**
 * The audit log on the real database: each admin action leaves exactly one entry saying who, which call, the target,
 * its changed fields before and after, when and from where; a refused or failed call leaves none; admins read it
 * newest first, by key, filtered by actor, call, target and time; members are refused; and an admin's entries stay
 * when their account is deleted.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcrypt';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { sandboxPayoutProvider } from '../../server/integrations/payouts';
import { AuditEntryModel } from '../../server/modules/audit/testing';
import { UserModel } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { GOOD_PASSWORD } from '../helpers/auth';
import { freezeDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { signedInNow } from '../helpers/flaggers';
import { adminMember, bearer, createMember, createPiece, credit, type TestMember } from '../helpers/ledger-factory';

useTestDatabase();

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AuditTest/1.0';
const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$/;

let app: ReturnType<typeof createTestApp>;
let admin: TestMember;
let ana: TestMember;

const postAs = (url: string, caller: TestMember, body: object, to = app) =>
  request(to).post(`/api/v2${url}`).set(bearer(caller)).set('User-Agent', BROWSER).send(body);
const readLog = (caller: TestMember, query: Record<string, string | number> = {}) => request(app).get('/api/v2/admin/audit').query(query).set(bearer(caller));

/** The entries recorded by the calls `act` makes. */
async function entriesOf(act: () => Promise<unknown>) {
  const before = new Set((await AuditEntryModel.find({}, { _id: 1 }).lean()).map((entry) => entry._id));
  await act();
  return (await AuditEntryModel.find({}).lean()).filter((entry) => !before.has(entry._id));
}

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp({ payoutProvider: sandboxPayoutProvider(mkdtempSync(path.join(os.tmpdir(), 'knack-audit-payouts-'))) });
  [admin, ana] = await Promise.all([adminMember(), createMember()]);
});

describe('an entry that cannot be written', () => {
  it('when the database refuses the entry, then the admin is answered 500, not success, though the change was made', async () => {
    // The log is empty yet in this file's database: a unique index on the call refuses its second entry.
    await AuditEntryModel.collection.createIndex({ action: 1 }, { unique: true, name: 'one_entry_per_action' });
    try {
      await postAs('/user-setting/update-pcredits', admin, { userId: ana.id, amount: 2 }).expect(200);
      const refused = await postAs('/user-setting/update-pcredits', admin, { userId: ana.id, amount: 2 }).expect(500);
      expect(refused.body).toEqual({ code: 'internal', message: 'Something went wrong on our side. Please try again.', requestId: expect.any(String) });
      expect(await AuditEntryModel.countDocuments({ action: 'updatePremiumCredits' })).toBe(1);
      // The change itself was made: the admin sees the failure and checks, rather than believing it done unrecorded.
      expect((await request(app).get(`/api/v2/user-setting/credits/${ana.id}`).set(bearer(admin)).expect(200)).body.credits.pCredit).toBe(4);
    } finally {
      await AuditEntryModel.collection.dropIndex('one_entry_per_action');
    }
  });
});

describe('each admin action leaves exactly one entry', () => {
  it('when an admin takes a flagged piece down, then one entry names the admin, the call, the piece, its state before and after, and where from', async () => {
    const bea = await createMember();
    const piece = await createPiece(bea);
    await postAs('/flag/set', ana, { contentId: piece.id, userId: ana.id, reason: 'Wrong market for content genre' }).expect(200);
    const entries = await entriesOf(() => postAs('/flag/resolve', admin, { contentId: piece.id, decision: 'hide' }).expect(200));
    expect(entries).toEqual([
      {
        _id: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z-[0-9a-f]{12}$/),
        at: expect.any(Date),
        actorId: expect.anything(),
        actorEmail: 'admin@knack.example',
        action: 'resolveFlags',
        targetKind: 'piece',
        targetId: piece.id,
        before: { openFlags: 1, isHide: false, takenDown: false, listed: true },
        after: { openFlags: 0, isHide: true, takenDown: true, listed: false, ownerTold: true, note: null },
        ip: expect.stringMatching(LOOPBACK),
        userAgent: BROWSER,
        requestId: expect.any(String),
      },
    ]);
    expect(String(entries[0]!.actorId)).toBe(admin.id);
    expect(entries[0]!._id.startsWith(entries[0]!.at.toISOString())).toBe(true);
  });

  it('when an admin re-posts a piece, then one entry holds when it was featured before (never) and after', async () => {
    const piece = await createPiece(ana);
    let answer: request.Response | undefined;
    const entries = await entriesOf(async () => {
      answer = await postAs('/content/trend', admin, { contentId: piece.id }).expect(200);
    });
    expect(answer!.body).toEqual({ message: 'This content is re-posted successfully.' });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'trendContent',
      actorEmail: 'admin@knack.example',
      targetKind: 'piece',
      targetId: piece.id,
      before: { featuredAt: null },
      after: { featuredAt: expect.stringMatching(/^\d{4}-.*Z$/) },
    });
  });

  it('when an admin adds standard credits with a note, then one entry holds the member’s credits before and after, and the note', async () => {
    const entries = await entriesOf(() => postAs('/user-setting/update-scredits', admin, { userId: ana.id, amount: 3, note: 'Goodwill' }).expect(200));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'updateStandardCredits',
      targetKind: 'member',
      targetId: ana.id,
      before: { sCredit: 0 },
      after: { sCredit: 3, note: 'Goodwill' },
    });
  });

  it('when an admin creates a discount code, then one entry holds the new code, with nothing before it', async () => {
    const entries = await entriesOf(() => postAs('/code/create', admin, { code: 'SPRING-25', maxUses: 5, covers: 'standard' }).expect(201));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'createDiscountCode',
      targetKind: 'discountCode',
      targetId: 'SPRING-25',
      before: null,
      after: { covers: 'standard', maxUses: 5, expiresAt: null },
    });
  });

  it('when an admin approves a cash-out, then one entry holds the request, pending before and approved and sent after', async () => {
    const cara = await createMember({ paypal: 'cara@example.com' });
    await credit(cara, 10_000_000);
    const { historyId } = (await postAs('/user-history/earn', cara, { userId: cara.id }).expect(201)).body.item as { historyId: string };
    const entries = await entriesOf(() => postAs('/user-history/approve', admin, { historyId }).expect(200));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'approveCashOut',
      targetKind: 'cashOutRequest',
      targetId: historyId,
      before: { status: 'pending' },
      after: { status: 'approved', payoutStatus: 'sent' },
    });
  });

  it('when an admin changes a plan, then one entry holds only the fields changed, before and after', async () => {
    const entries = await entriesOf(() => postAs('/subscription/update-plan', admin, { planId: 1, name: 'Starter plus' }).expect(200));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'updatePlan',
      targetKind: 'plan',
      targetId: '1',
      before: { name: expect.any(String) },
      after: { name: 'Starter plus' },
    });
    expect(Object.keys(entries[0]!.after!)).toEqual(['name']);
  });

  it('when the app trusts one proxy, then the entry holds the address the proxy forwarded', async () => {
    const behindProxy = createTestApp({ config: { trustProxy: 1 } });
    const piece = await createPiece(ana);
    const entries = await entriesOf(() =>
      postAs('/content/trend', admin, { contentId: piece.id }, behindProxy).set('X-Forwarded-For', '203.0.113.7').expect(200),
    );
    expect(entries.map((entry) => entry.ip)).toEqual(['203.0.113.7']);
  });

  it('when the app trusts no proxy, then a forwarded address is not believed', async () => {
    const piece = await createPiece(ana);
    const entries = await entriesOf(() => postAs('/content/trend', admin, { contentId: piece.id }).set('X-Forwarded-For', '203.0.113.7').expect(200));
    expect(entries.map((entry) => entry.ip)).toEqual([expect.stringMatching(LOOPBACK)]);
  });
});

describe('no entry without a successful admin action', () => {
  it('when a member tries an admin call, then 403 and nothing is recorded', async () => {
    const piece = await createPiece(ana);
    const entries = await entriesOf(async () => {
      const refused = await postAs('/content/trend', ana, { contentId: piece.id }).expect(403);
      expect(refused.body).toEqual({ code: 'forbidden', message: 'Only admins can re-post pieces.', requestId: expect.any(String) });
    });
    expect(entries).toEqual([]);
  });

  it('when an admin’s call fails (its target does not exist), then nothing is recorded', async () => {
    const entries = await entriesOf(async () => {
      await postAs('/content/trend', admin, { contentId: '0123456789abcdef01234567' }).expect(404);
      await postAs('/user-history/approve', admin, { historyId: '0123456789abcdef01234567' }).expect(404);
      await postAs('/user-setting/update-pcredits', admin, { userId: ana.id, amount: -1000 }).expect(400);
    });
    expect(entries).toEqual([]);
  });

  it('when an admin reads (the open flags, the log itself), then nothing is recorded', async () => {
    const entries = await entriesOf(async () => {
      await request(app).get('/api/v2/flag/get-open').set(bearer(admin)).expect(200);
      await readLog(admin).expect(200);
    });
    expect(entries).toEqual([]);
  });
});

describe('reading the log', () => {
  const T0 = Date.UTC(2031, 4, 1, 9, 0, 0);
  const pieces: string[] = [];

  beforeAll(async () => {
    // Five re-posts one minute apart, far from the other tests' entries in time.
    const clock = freezeDate(T0);
    try {
      for (let minute = 0; minute < 5; minute += 1) {
        const piece = await createPiece(ana);
        pieces.push(piece.id);
        // A token signed at the frozen time, which is years past the real one's expiry.
        await postAs('/content/trend', signedInNow(admin), { contentId: piece.id }).expect(200);
        clock.advance(60_000);
      }
    } finally {
      clock.restore();
    }
  });

  const window = { from: new Date(T0).toISOString(), to: new Date(T0 + 5 * 60_000).toISOString() };

  it('when a member reads the log, then 403 with the call’s message', async () => {
    const refused = await readLog(ana).expect(403);
    expect(refused.body).toEqual({ code: 'forbidden', message: 'Only admins can read the audit log.', requestId: expect.any(String) });
  });

  it('when an admin pages through a time range, then every entry comes once, newest first, and the last page has no cursor', async () => {
    const first = (await readLog(admin, { ...window, limit: 2 }).expect(200)).body;
    expect(first.entries.map((entry: { target: { id: string } }) => entry.target.id)).toEqual([pieces[4], pieces[3]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await readLog(admin, { ...window, limit: 2, cursor: first.nextCursor }).expect(200)).body;
    expect(second.entries.map((entry: { target: { id: string } }) => entry.target.id)).toEqual([pieces[2], pieces[1]]);
    const third = (await readLog(admin, { ...window, limit: 2, cursor: second.nextCursor }).expect(200)).body;
    expect(third.entries.map((entry: { target: { id: string } }) => entry.target.id)).toEqual([pieces[0]]);
    expect(third.nextCursor).toBeNull();
    expect(first.entries[0]).toEqual({
      id: expect.stringMatching(/^2031-05-01T09:04:00\.000Z-[0-9a-f]{12}$/),
      at: '2031-05-01T09:04:00.000Z',
      actor: { id: admin.id, email: 'admin@knack.example' },
      action: 'trendContent',
      target: { kind: 'piece', id: pieces[4] },
      before: { featuredAt: null },
      after: { featuredAt: '2031-05-01T09:04:00.000Z' },
      ip: expect.stringMatching(LOOPBACK),
      userAgent: BROWSER,
    });
  });

  it('when an admin filters by time, then `from` is inclusive and `to` exclusive', async () => {
    const body = (await readLog(admin, { from: new Date(T0 + 60_000).toISOString(), to: new Date(T0 + 3 * 60_000).toISOString() }).expect(200)).body;
    expect(body.entries.map((entry: { target: { id: string } }) => entry.target.id)).toEqual([pieces[2], pieces[1]]);
  });

  it('when an admin filters by target, call or actor, then only those entries come', async () => {
    const byTarget = (await readLog(admin, { targetId: pieces[3]! }).expect(200)).body;
    expect(byTarget.entries.map((entry: { target: { id: string } }) => entry.target.id)).toEqual([pieces[3]]);

    const byAction = (await readLog(admin, { action: 'createDiscountCode' }).expect(200)).body;
    expect(byAction.entries.map((entry: { action: string; target: { id: string } }) => [entry.action, entry.target.id])).toEqual([
      ['createDiscountCode', 'SPRING-25'],
    ]);

    const byAdmin = (await readLog(admin, { actorId: admin.id, ...window }).expect(200)).body;
    expect(byAdmin.entries).toHaveLength(5);
    const byNobody = (await readLog(admin, { actorId: ana.id }).expect(200)).body;
    expect(byNobody).toEqual({ entries: [], nextCursor: null });
  });

  it('when the cursor was not made by the server, then 400 and the member is told to reload', async () => {
    const refused = await readLog(admin, { cursor: 'bm90LWEtY3Vyc29yLWF0LWFsbA' }).expect(400);
    expect(refused.body.message).toBe(
      'This cursor is not one this server gave (it was cut short or changed). Pass back nextCursor exactly as it came, or reload the list from its start.',
    );
  });
});

describe('an admin’s account deleted', () => {
  it('when an admin deletes their own account, then their entries stay, with the email they had', async () => {
    const kept = await AuditEntryModel.countDocuments({ actorEmail: 'admin@knack.example' });
    expect(kept).toBeGreaterThan(0);
    await UserModel.updateOne({ _id: admin.id }, { $set: { passwordHash: await bcrypt.hash(GOOD_PASSWORD, 10) } });
    await postAs(`/user-setting/delete-account/${admin.id}`, admin, { password: GOOD_PASSWORD }).expect(200);
    expect(await UserModel.exists({ _id: admin.id })).toBeNull();
    expect(await AuditEntryModel.countDocuments({ actorEmail: 'admin@knack.example' })).toBe(kept);
  });
});
