/**
 * One balance is spent once, across processes: the monthly payout job runs in this test's process while
 * members ask to cash out and an admin approves through a second app process and through this one, all at
 * the same moment. Whatever the order, each member's $20.00 leaves their balance once: one ledger entry, one
 * payout sent to the provider (the sandbox driver's file), the balance exactly 0.
 */
import { readdirSync } from 'node:fs';
import request from 'supertest';
import { sandboxPayoutProvider } from '../../server/integrations/payouts';
import { createLogger } from '../../server/lib/logger';
import { balanceOf, LedgerEntryModel } from '../../server/modules/ledger';
import { createPayouts } from '../../server/modules/wallet';
import { createTestApp, testConfig } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, credit, userAccount, type TestMember } from '../helpers/ledger-factory';
import { startSecondApp, type SecondApp } from '../helpers/second-process';

useTestDatabase();

// The second process sends through the sandbox driver of the test configuration: this process uses the same
// folder, so its files are every payout that reached "the provider", from either process.
const sandboxDir = testConfig().payouts.sandboxDir;
const payouts = createPayouts({ provider: sandboxPayoutProvider(sandboxDir), fees: testConfig().payouts, logger: createLogger('silent') });
const MARCH_1 = new Date('2025-03-01T00:00:00.000Z');
const TWENTY_DOLLARS = 20_000_000;

let app: ReturnType<typeof createTestApp>;
let second: SecondApp;
let admin: TestMember;

beforeAll(async () => {
  app = createTestApp();
  admin = await adminMember();
  second = await startSecondApp();
}, 120_000);
afterAll(() => second?.stop());

const post = (through: Parameters<typeof request>[0], url: string, member: TestMember, body: object) =>
  request(through).post(`/api/v2${url}`).set(bearer(member)).send(body);
/** The sandbox files of the member's payouts and cash-outs (the folder is shared with other test files). */
const filesOf = (member: TestMember, requestIds: string[]) =>
  readdirSync(sandboxDir).filter((file) => file.includes(member.id) || requestIds.some((id) => file.includes(id)));

describe('the funds of a member, with the payout job and a cash-out approval in two processes', () => {
  it('when the monthly payout runs while the member cashes out and admins approve through both processes, then the balance is paid out once, to the micro-dollar', async () => {
    const members = await Promise.all(Array.from({ length: 6 }, (_, i) => createMember({ paypal: `funds${i}@example.com` })));
    await Promise.all(members.map((m) => credit(m, TWENTY_DOLLARS)));
    // Each member asked for a cash-out before and took it back: the wallet has been used, as most have.
    for (const member of members) {
      const { historyId } = (await post(app, '/user-history/earn', member, { userId: member.id }).expect(201)).body.item;
      await post(second.url, '/user-history/cancel', member, { historyId }).expect(200);
    }

    const requestIds = new Map<string, string[]>(members.map((m) => [m.id, []]));
    /** The member asks to cash out through the second process; then two admins approve it, one through each process. */
    async function cashOut(member: TestMember) {
      const asked = await post(second.url, '/user-history/earn', member, { userId: member.id });
      if (asked.status !== 201) return [asked.status];
      const { historyId } = asked.body.item;
      requestIds.get(member.id)!.push(historyId);
      const approvals = await Promise.all([
        post(second.url, '/user-history/approve', admin, { historyId }),
        post(app, '/user-history/approve', admin, { historyId }),
      ]);
      return [asked.status, ...approvals.map((a) => a.status)];
    }
    const [summary, ...answers] = await Promise.all([payouts.runMonthly(MARCH_1), ...members.map(cashOut)]);

    // Every answer is one a member or admin can act on: paid, or told why not (the money was paid out already).
    expect(answers.flat().every((status) => [200, 201, 400, 409].includes(status))).toBe(true);
    expect(summary.failed).toBe(0);
    for (const member of members) {
      const entries = await LedgerEntryModel.find({ accounts: userAccount(member.id) }).lean();
      const debits = entries.filter((entry) => entry.kind === 'payout' || entry.kind === 'cash-out');
      expect(debits).toHaveLength(1);
      expect(debits[0]!.legs.find((leg) => leg.account === userAccount(member.id))!.amountMicros).toBe(-TWENTY_DOLLARS);
      expect(await balanceOf(userAccount(member.id))).toBe(0);
      expect(filesOf(member, requestIds.get(member.id)!)).toHaveLength(1);
    }
  }, 180_000);
});
