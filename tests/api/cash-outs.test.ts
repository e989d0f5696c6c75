/**
 * Cash-outs on the real database, as members and admins see them: a member cancels a waiting request and the
 * next monthly payout pays the balance once; a request still waiting when the monthly payout runs is closed as
 * paid by it (one payment, whichever comes first, also when an admin approves at the same moment); an admin
 * declines with a reason the member reads in their history and in a mail, and approving mails the member too;
 * the admins' list puts the waiting requests first, the oldest first, flags those waiting more than 7 days,
 * filters by state and member, and pages by key; an admin restores a declined or cancelled request while the balance
 * still covers it and no other request waits. Mails go to a real SMTP server on loopback.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { smtpMailer } from '../../server/integrations/mail';
import { sandboxPayoutProvider, type PayoutProvider, type PayoutRequest } from '../../server/integrations/payouts';
import { createLogger } from '../../server/lib/logger';
import { AuditEntryModel } from '../../server/modules/audit/testing';
import { balanceOf, LedgerEntryModel } from '../../server/modules/ledger';
import { CashOutRequestModel, createPayouts } from '../../server/modules/wallet';
import { createTestApp, testConfig } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, credit, userAccount, type TestMember } from '../helpers/ledger-factory';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

const sent: PayoutRequest[] = [];
const sandbox = sandboxPayoutProvider(mkdtempSync(path.join(os.tmpdir(), 'knack-cash-outs-')));
/** The sandbox driver, counting what reaches it. */
const provider: PayoutProvider = { kind: 'sandbox', send: async (req) => (sent.push(req), sandbox.send(req)) };
const payouts = createPayouts({ provider, fees: testConfig().payouts, logger: createLogger('silent') });
const MARCH_1 = new Date('2025-03-01T00:00:00.000Z');
const DAY = 86_400_000;

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let admin: TestMember;

const postAs = (url: string, caller: TestMember, body: object) => request(app).post(`/api/v2${url}`).set(bearer(caller)).send(body);
const getAs = (url: string, caller: TestMember, query: Record<string, string | number> = {}) =>
  request(app).get(`/api/v2${url}`).query(query).set(bearer(caller));
const balance = (member: TestMember) => balanceOf(userAccount(member.id));
const askCashOut = async (member: TestMember): Promise<string> =>
  (await postAs('/user-history/earn', member, { userId: member.id }).expect(201)).body.item.historyId as string;
const earnItems = async (member: TestMember) =>
  (await getAs(`/user-history/get-all/${member.id}`, member).expect(200)).body.items.filter((item: { activityType: string }) => item.activityType === 'Earn');
/** The entries of the ledger that took money out of the member's balance (payouts and cash-outs). */
const debitsOf = async (member: TestMember) =>
  (await LedgerEntryModel.find({ accounts: userAccount(member.id) }).lean()).filter((entry) => entry.kind === 'payout' || entry.kind === 'cash-out');

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = createTestApp({ payoutProvider: provider, mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
});
afterAll(() => smtp.stop());

beforeEach(async () => {
  await clearDatabase();
  sent.length = 0;
  smtp.received.length = 0;
  admin = await adminMember();
});

describe('a member cancels a waiting cash-out', () => {
  it('when they cancel it, then the balance is available again and the next monthly payout pays it once', async () => {
    const [ana, bea] = await Promise.all([createMember({ paypal: 'ana@example.com' }), createMember()]);
    await credit(ana, 20_000_000);
    const historyId = await askCashOut(ana);

    const refused = await postAs('/user-history/cancel', bea, { historyId }).expect(404);
    expect(refused.body.message).toBe('This cash-out request was not found.');

    const cancelled = await postAs('/user-history/cancel', ana, { historyId }).expect(200);
    expect(cancelled.body).toMatchObject({
      message: 'The cash-out request was cancelled.',
      item: { historyId, status: 'cancelled', activity: 'Your cash-out of $20.00 was cancelled' },
    });
    expect((await getAs(`/wallet/summary/${ana.id}`, ana).expect(200)).body).toMatchObject({
      balanceMicros: 20_000_000,
      pendingCashOutMicros: 0,
      canCashOut: true,
    });

    expect(await payouts.runMonthly(MARCH_1)).toMatchObject({ paid: 1, totalMicros: 20_000_000, failed: 0 });
    expect(await payouts.runMonthly(MARCH_1)).toMatchObject({ paid: 0, totalMicros: 0 });
    const debits = await debitsOf(ana);
    expect(debits.map((entry) => entry._id)).toEqual([`payout:${ana.id}:2025-02`]);
    expect(sent).toEqual([{ payoutId: `payout:${ana.id}:2025-02`, email: 'ana@example.com', amountMicros: 19_600_000, note: 'Your Knack payout for 2025-02' }]);
    expect(await balance(ana)).toBe(0);
    expect((await earnItems(ana)).map((item: { status: string }) => item.status)).toEqual(['cancelled']);
    // Decided: nobody can approve it now.
    expect((await postAs('/user-history/approve', admin, { historyId }).expect(409)).body.message).toBe(
      'This cash-out request was already approved, declined or cancelled.',
    );
  });
});

describe('the monthly payout and a waiting cash-out: one decision, made once', () => {
  it('when the monthly payout runs while a request waits, then it pays the whole balance once and closes the request as paid by it', async () => {
    const ana = await createMember({ paypal: 'ana@example.com' });
    await credit(ana, 20_000_000);
    const historyId = await askCashOut(ana);
    await credit(ana, 5_000_000); // earned after asking: the payout pays it too

    expect(await payouts.runMonthly(MARCH_1)).toMatchObject({ paid: 1, skipped: 0, totalMicros: 25_000_000, failed: 0 });
    expect(sent).toEqual([{ payoutId: `payout:${ana.id}:2025-02`, email: 'ana@example.com', amountMicros: 24_500_000, note: 'Your Knack payout for 2025-02' }]);
    expect((await debitsOf(ana)).map((entry) => entry._id)).toEqual([`payout:${ana.id}:2025-02`]);
    expect(await balance(ana)).toBe(0);

    const [earn] = await earnItems(ana);
    expect(earn).toMatchObject({ historyId, status: 'paidByPayout', activity: 'Your cash-out of $20.00 was paid by the monthly payout for 2025-02' });
    expect((await getAs(`/wallet/summary/${ana.id}`, ana).expect(200)).body).toMatchObject({
      balanceMicros: 0,
      pendingCashOutMicros: 0,
      paidOutMicros: 25_000_000,
    });

    // Nothing more can be paid for it, by an admin or by the next run.
    const approve = await postAs('/user-history/approve', admin, { historyId }).expect(409);
    expect(approve.body.message).toBe('This cash-out request was already paid by the monthly payout.');
    expect((await postAs('/user-history/cancel', ana, { historyId }).expect(409)).body.message).toBe(
      'This cash-out request was already paid by the monthly payout.',
    );
    expect(await payouts.runMonthly(new Date('2025-04-01T00:00:00.000Z'))).toMatchObject({ paid: 0 });
    expect(sent).toHaveLength(1);
  });

  it('when a request waits but the member’s PayPal email is on hold, then the payout pays nothing and the request keeps waiting', async () => {
    const ana = await createMember({ paypal: 'ana@example.com' });
    await credit(ana, 20_000_000);
    const historyId = await askCashOut(ana);
    const { UserExtModel } = await import('../../server/modules/users');
    await UserExtModel.updateOne({ userId: ana.id }, { $set: { paypalHeld: true } });

    expect(await payouts.runMonthly(MARCH_1)).toMatchObject({ paid: 0, skipped: 1 });
    expect(sent).toHaveLength(0);
    expect((await earnItems(ana))[0]).toMatchObject({ historyId, status: 'pending' });
  });

  it('when an admin approves while the monthly payout runs, then each member is paid exactly once and their request is closed', async () => {
    const members = await Promise.all(Array.from({ length: 4 }, (_, i) => createMember({ paypal: `m${i}@example.com` })));
    await Promise.all(members.map((member) => credit(member, 20_000_000)));
    const requestIds = await Promise.all(members.map(askCashOut));

    const [summary, ...approvals] = await Promise.all([
      payouts.runMonthly(MARCH_1),
      ...requestIds.map((historyId) => postAs('/user-history/approve', admin, { historyId })),
    ]);
    expect(summary.failed).toBe(0);
    for (const [i, member] of members.entries()) {
      const approval = approvals[i]!;
      const debits = await debitsOf(member);
      expect(debits).toHaveLength(1);
      expect(debits[0]!.legs.find((leg) => leg.account === userAccount(member.id))!.amountMicros).toBe(-20_000_000);
      expect(await balance(member)).toBe(0);
      expect(sent.filter((payout) => payout.email === `m${i}@example.com`)).toHaveLength(1);
      const stored = await CashOutRequestModel.findById(requestIds[i]).lean();
      if (approval.status === 200) {
        expect(debits[0]!._id).toBe(`cash-out:${requestIds[i]}`);
        expect(stored!.status).toBe('approved');
      } else {
        expect({ status: approval.status, message: approval.body.message }).toEqual({
          status: 409,
          message: 'This cash-out request was already paid by the monthly payout.',
        });
        expect(debits[0]!._id).toBe(`payout:${member.id}:2025-02`);
        expect(stored!.status).toBe('paidByPayout');
      }
    }
  }, 60_000);
});

describe('an admin approves or declines', () => {
  it('when an admin approves, then the member is paid and mailed what was sent where', async () => {
    const ana = await createMember({ paypal: 'ana.pay@example.com' });
    await credit(ana, 20_000_000);
    const historyId = await askCashOut(ana);
    const approved = await postAs('/user-history/approve', admin, { historyId }).expect(200);
    expect(approved.body).toMatchObject({ message: 'The cash-out was approved and sent.', item: { historyId, status: 'approved' } });

    const mail = await smtp.nextMailTo(ana.email);
    expect(mail.text).toContain('Subject: Your Knack cash-out was sent');
    expect(mail.text).toContain('Your cash-out of $20.00 was approved: $19.60 was sent to your PayPal account an***@example.com');
    expect(mail.text).toContain('The payout provider kept its fee of $0.40.');
  });

  it('when an admin declines with a reason, then nothing is paid, the member reads the reason in their history and a mail, and the audit log has it', async () => {
    const [ana, bea] = await Promise.all([createMember({ paypal: 'ana@example.com' }), createMember()]);
    await credit(ana, 20_000_000);
    const historyId = await askCashOut(ana);
    const reason = 'Your PayPal account refused the last payout. Please check the email in payment settings.';

    const byMember = await postAs(`/admin/cash-outs/${historyId}/decline`, bea, { reason }).expect(403);
    expect(byMember.body.message).toBe('Only an admin can decline a cash-out.');
    const blank = await postAs(`/admin/cash-outs/${historyId}/decline`, admin, { reason: '   ' }).expect(400);
    expect(blank.body.message).toBe('Please tell the member why the cash-out is declined.');
    const unknown = await postAs('/admin/cash-outs/0123456789abcdef01234567/decline', admin, { reason }).expect(404);
    expect(unknown.body.message).toBe('This cash-out request was not found.');
    expect(await AuditEntryModel.countDocuments({ action: 'declineCashOut' })).toBe(0);

    const [first, second] = await Promise.all([
      postAs(`/admin/cash-outs/${historyId}/decline`, admin, { reason }),
      postAs(`/admin/cash-outs/${historyId}/decline`, admin, { reason }),
    ]);
    const [won, lost] = first.status === 200 ? [first, second] : [second, first];
    expect(won.status).toBe(200);
    expect(won.body).toEqual({
      message: 'The cash-out request was declined, and the member was told why.',
      item: expect.objectContaining({ historyId, status: 'declined', activity: `Your cash-out of $20.00 was declined: ${reason}` }),
    });
    expect({ status: lost.status, message: lost.body.message }).toEqual({
      status: 409,
      message: 'This cash-out request was already approved, declined or cancelled.',
    });

    expect((await earnItems(ana))[0]).toMatchObject({ historyId, status: 'declined', activity: `Your cash-out of $20.00 was declined: ${reason}` });
    expect(sent).toHaveLength(0);
    expect(await balance(ana)).toBe(20_000_000);
    const mail = await smtp.nextMailTo(ana.email);
    expect(mail.text).toContain('Subject: Your Knack cash-out was declined');
    expect(mail.text).toContain('Your cash-out request of $20.00 was declined. The reason:');
    expect(mail.text).toContain(reason);
    expect(smtp.received.filter((m) => m.to.includes(ana.email))).toHaveLength(0); // one mail, not two

    const entries = await AuditEntryModel.find({ action: 'declineCashOut' }).lean();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorEmail: admin.email,
      targetKind: 'cashOutRequest',
      targetId: historyId,
      before: { status: 'pending' },
      after: { status: 'declined', reason },
    });

    // The balance is the member's again: they may ask again, and the approval of the declined one is refused.
    expect((await postAs('/user-history/approve', admin, { historyId }).expect(409)).body.message).toBe(
      'This cash-out request was already approved, declined or cancelled.',
    );
    await askCashOut(ana);
  });

  it('when an admin declines an approved request, then it is 409 and nothing changes', async () => {
    const ana = await createMember({ paypal: 'ana@example.com' });
    await credit(ana, 10_000_000);
    const historyId = await askCashOut(ana);
    await postAs('/user-history/approve', admin, { historyId }).expect(200);
    const refused = await postAs(`/admin/cash-outs/${historyId}/decline`, admin, { reason: 'Too late' }).expect(409);
    expect(refused.body.message).toBe('This cash-out request was already approved, declined or cancelled.');
    expect((await CashOutRequestModel.findById(historyId).lean())!.status).toBe('approved');
  });
});

describe('an admin restores a declined or cancelled request', () => {
  it('when an admin restores a declined request, then it waits again, the member is mailed, the audit log has it and the next monthly payout pays it once', async () => {
    const [ana, bea] = await Promise.all([createMember({ paypal: 'ana@example.com' }), createMember()]);
    await credit(ana, 20_000_000);
    const historyId = await askCashOut(ana);
    await postAs(`/admin/cash-outs/${historyId}/decline`, admin, { reason: 'Checking your PayPal email' }).expect(200);
    await smtp.nextMailTo(ana.email); // the decline's mail

    const byMember = await postAs(`/admin/cash-outs/${historyId}/restore`, bea, {}).expect(403);
    expect(byMember.body.message).toBe('Only an admin can restore a cash-out.');
    const byOwner = await postAs(`/admin/cash-outs/${historyId}/restore`, ana, {}).expect(403);
    expect(byOwner.body.message).toBe('Only an admin can restore a cash-out.');
    const unknown = await postAs('/admin/cash-outs/0123456789abcdef01234567/restore', admin, {}).expect(404);
    expect(unknown.body.message).toBe('This cash-out request was not found.');

    const [first, second] = await Promise.all([
      postAs(`/admin/cash-outs/${historyId}/restore`, admin, {}),
      postAs(`/admin/cash-outs/${historyId}/restore`, admin, {}),
    ]);
    const [won, lost] = first.status === 200 ? [first, second] : [second, first];
    expect(won.body).toEqual({
      message: 'The cash-out request is waiting again, and the member was told.',
      item: expect.objectContaining({ historyId, status: 'pending', activity: 'You asked to cash out $20.00' }),
    });
    expect({ status: lost.status, message: lost.body.message }).toEqual({ status: 409, message: 'This cash-out request is waiting already.' });
    expect((await earnItems(ana))[0]).toMatchObject({ historyId, status: 'pending', activity: 'You asked to cash out $20.00' });
    expect(await CashOutRequestModel.findById(historyId).lean()).toMatchObject({ status: 'pending', reason: null, decidedAt: null, decidedBy: null });
    // One waiting request per member still: asking again is refused.
    expect((await postAs('/user-history/earn', ana, { userId: ana.id }).expect(409)).body.message).toBe(
      'You already have a cash-out request waiting for approval.',
    );

    const mail = await smtp.nextMailTo(ana.email);
    expect(mail.subject).toBe('Your Knack cash-out request is waiting again');
    expect(mail.text).toContain('Your cash-out request of $20.00 is waiting for approval again');
    expect(await AuditEntryModel.find({ action: 'restoreCashOut' }).lean()).toEqual([
      expect.objectContaining({
        actorEmail: admin.email,
        targetKind: 'cashOutRequest',
        targetId: historyId,
        before: { status: 'declined' },
        after: { status: 'pending' },
      }),
    ]);

    // The monthly payout finds it (the member's latest request) and pays the balance once, closing it.
    const summary = await payouts.runMonthly(MARCH_1);
    expect(summary).toMatchObject({ paid: 1, totalMicros: 20_000_000 });
    expect(await balance(ana)).toBe(0);
    expect((await CashOutRequestModel.findById(historyId).lean())!.status).toBe('paidByPayout');
    expect(await debitsOf(ana)).toHaveLength(1);
    expect((await postAs(`/admin/cash-outs/${historyId}/restore`, admin, {}).expect(409)).body.message).toBe('A paid cash-out request cannot be restored.');
  });

  it('when the member asked anew, or spent the balance meanwhile, then restoring an older request is refused and nothing changes', async () => {
    const ana = await createMember({ paypal: 'ana@example.com' });
    await credit(ana, 20_000_000);
    const cancelled = await askCashOut(ana);
    await postAs('/user-history/cancel', ana, { historyId: cancelled }).expect(200);
    const asked = await askCashOut(ana);

    const another = await postAs(`/admin/cash-outs/${cancelled}/restore`, admin, {}).expect(409);
    expect(another.body.message).toBe('This member already has another cash-out request waiting.');
    expect((await CashOutRequestModel.findById(cancelled).lean())!.status).toBe('cancelled');

    // The newer request is approved and paid: the balance no longer covers the cancelled one.
    await postAs('/user-history/approve', admin, { historyId: asked }).expect(200);
    const uncovered = await postAs(`/admin/cash-outs/${cancelled}/restore`, admin, {}).expect(409);
    expect(uncovered.body.message).toBe("The member's balance no longer covers this cash-out. Cancel it instead.");
    expect((await CashOutRequestModel.findById(cancelled).lean())!.status).toBe('cancelled');
    expect(await AuditEntryModel.countDocuments({ action: 'restoreCashOut' })).toBe(0);
  });
});

describe('the admins’ list of cash-outs', () => {
  it('lists the waiting requests first, the oldest first, flags those over 7 days, filters, searches and pages by key', async () => {
    const [ana, bea, cid, dee, eve] = await Promise.all([
      createMember({ username: 'ana_list', email: 'ana.list@example.com', paypal: 'ana.pay@example.com' }),
      createMember({ username: 'bea_list', email: 'bea.list@example.com', paypal: 'bea.pay@example.com' }),
      createMember({ username: 'cid_list', email: 'cid.list@example.com', paypal: 'cid.pay@example.com' }),
      createMember({ username: 'dee_list', email: 'dee.list@example.com', paypal: 'dee.pay@example.com' }),
      createMember({ username: 'eve_list', email: 'eve.list@example.com', paypal: 'eve.pay@example.com' }),
    ]);
    await Promise.all([credit(ana, 20_000_000), credit(bea, 12_000_000), credit(cid, 10_000_000), credit(dee, 11_000_000), credit(eve, 13_000_000)]);
    const now = Date.now();
    const ids: Record<string, string> = {};
    // Asked in this order, at these times: Ana 10 days ago, Bea 2 days ago, then Cid, Dee and Eve today.
    for (const [member, daysAgo] of [
      [ana, 10],
      [bea, 2],
      [cid, 0.003],
      [dee, 0.002],
      [eve, 0.001],
    ] as const) {
      ids[member.username] = await askCashOut(member);
      await CashOutRequestModel.updateOne({ _id: ids[member.username] }, { $set: { at: new Date(now - daysAgo * DAY) } });
    }
    await postAs('/user-history/approve', admin, { historyId: ids.cid_list }).expect(200);
    await postAs(`/admin/cash-outs/${ids.dee_list}/decline`, admin, { reason: 'Please confirm your PayPal email first.' }).expect(200);
    await postAs('/user-history/cancel', eve, { historyId: ids.eve_list }).expect(200);

    const refused = await getAs('/admin/cash-outs', ana).expect(403);
    expect(refused.body.message).toBe('Only admins can see cash-out requests.');

    const all = (await getAs('/admin/cash-outs', admin).expect(200)).body;
    expect(all.nextCursor).toBeNull();
    expect(all.cashOuts.map((row: { member: { username: string } }) => row.member.username)).toEqual([
      'ana_list',
      'bea_list',
      'eve_list',
      'dee_list',
      'cid_list',
    ]);
    expect(all.cashOuts[0]).toEqual({
      historyId: ids.ana_list,
      status: 'waiting',
      paidBy: null,
      member: { id: ana.id, username: 'ana_list', email: 'ana.list@example.com' },
      amount: 20,
      amountMicros: 20_000_000,
      requestedAt: new Date(now - 10 * DAY).toISOString(),
      decidedAt: null,
      overdue: true,
      reason: null,
      balance: 20,
      balanceMicros: 20_000_000,
      payoutAccount: { paypal: 'ana.pay@example.com', held: false },
      historyPath: `/user-history/get-all/${ana.id}`,
    });
    expect(all.cashOuts[1]).toMatchObject({ status: 'waiting', overdue: false, balanceMicros: 12_000_000 });
    expect(all.cashOuts[2]).toMatchObject({ status: 'cancelled', overdue: false, decidedAt: expect.any(String), reason: null });
    expect(all.cashOuts[3]).toMatchObject({ status: 'declined', reason: 'Please confirm your PayPal email first.', balanceMicros: 11_000_000 });
    expect(all.cashOuts[4]).toMatchObject({ status: 'paid', paidBy: 'cashOut', balanceMicros: 0 });

    const names = (body: { cashOuts: { member: { username: string } }[] }) => body.cashOuts.map((row) => row.member.username);
    expect(names((await getAs('/admin/cash-outs', admin, { status: 'waiting' }).expect(200)).body)).toEqual(['ana_list', 'bea_list']);
    expect(names((await getAs('/admin/cash-outs', admin, { status: 'paid' }).expect(200)).body)).toEqual(['cid_list']);
    expect(names((await getAs('/admin/cash-outs', admin, { status: 'declined' }).expect(200)).body)).toEqual(['dee_list']);
    expect(names((await getAs('/admin/cash-outs', admin, { status: 'cancelled' }).expect(200)).body)).toEqual(['eve_list']);
    expect(names((await getAs('/admin/cash-outs', admin, { q: 'BEA_' }).expect(200)).body)).toEqual(['bea_list']);
    expect(names((await getAs('/admin/cash-outs', admin, { q: 'dee.list@' }).expect(200)).body)).toEqual(['dee_list']);
    expect(names((await getAs('/admin/cash-outs', admin, { q: 'nobody' }).expect(200)).body)).toEqual([]);

    // Pages of two: every row once, in the same order.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { cashOuts: { member: { username: string } }[]; nextCursor: string | null } = (
        await getAs('/admin/cash-outs', admin, { limit: 2, ...(cursor ? { cursor } : {}) }).expect(200)
      ).body;
      expect(page.cashOuts.length).toBeLessThanOrEqual(2);
      seen.push(...names(page));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['ana_list', 'bea_list', 'eve_list', 'dee_list', 'cid_list']);
    expect((await getAs('/admin/cash-outs', admin, { cursor: 'broken' }).expect(400)).body.message).toBe(
      'This cursor is not one this server gave (it was cut short or changed). Pass back nextCursor exactly as it came, or reload the list from its start.',
    );
  });
});
