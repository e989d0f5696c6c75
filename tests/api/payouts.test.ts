/**
 * Payouts on the real database: the monthly job (run twice at once, then again: one ledger entry and one
 * provider call per member and month; $9.99 not paid; no PayPal email skipped; a cash-out waiting then closed as
 * paid by the payout; exact fees and balances), a payout whose sending failed finished by the next run, the PayPal Payouts driver
 * against a loopback stand-in of PayPal's API, the fee arithmetic and configuration.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { ConfigError, loadConfig } from '../../server/config';
import {
  createPayoutProvider,
  paypalPayoutProvider,
  PayoutProviderError,
  sandboxPayoutFile,
  sandboxPayoutProvider,
  type PayoutProvider,
  type PayoutRequest,
} from '../../server/integrations/payouts';
import { localStorage } from '../../server/integrations/storage';
import { defaultJobs } from '../../server/jobs/scheduler';
import { createLogger } from '../../server/lib/logger';
import { PROVIDER_ATTEMPTS } from '../../server/lib/provider-retry';
import { balanceOf, LedgerEntryModel, ledgerKeptStates } from '../../server/modules/ledger';
import { ChainHeadModel } from '../../server/modules/ledger/testing';
import { rebuildKeptState } from '../../server/lib/kept-state';
import { CashOutRequestModel, createPayouts, paidMonth, payoutFee, PayoutSendModel, type PayoutFees } from '../../server/modules/wallet';
import { createTestApp, createTestServices, testConfig } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { bearer, createMember, credit, userAccount, type TestMember } from '../helpers/ledger-factory';
import { startPayPalStandIn } from '../helpers/paypal-standin';
import { startReadMeter } from '../helpers/read-meter';

useTestDatabase({ monitorCommands: true });

const logger = createLogger('silent');
const FEES: PayoutFees = { feeBasisPoints: 200, feeMaxMicros: 1_000_000 };
const MARCH_1 = new Date('2025-03-01T00:00:00.000Z');
const balance = (m: TestMember) => balanceOf(userAccount(m.id));
const randomHex = () => Math.random().toString(16).slice(2, 10);

/** The sandbox driver in a fresh folder, counting the calls that reach it. */
function countingSandbox() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'knack-payouts-'));
  const calls: PayoutRequest[] = [];
  const sandbox = sandboxPayoutProvider(dir);
  const provider: PayoutProvider = { kind: 'sandbox', send: async (req) => (calls.push(req), sandbox.send(req)) };
  return { dir, calls, provider };
}

beforeEach(() => clearDatabase());

describe('the monthly payout job', () => {
  it('when it runs twice at once and once more, then every balance of at least $10 with a PayPal email is paid once, with the exact fee', async () => {
    const [ana, bea, cid, dee, eli] = await Promise.all([
      createMember({ paypal: 'ana@example.com' }),
      createMember({ paypal: 'bea@example.com' }),
      createMember(), // no payout account
      createMember({ paypal: 'dee@example.com' }),
      createMember({ paypal: 'eli@example.com' }),
    ]);
    await Promise.all([credit(ana, 12_345_678), credit(bea, 9_990_000), credit(cid, 15_000_000), credit(dee, 20_000_000), credit(eli, 10_000_000)]);
    // Dee asked for a cash-out that still waits for an admin: the job pays her balance and closes the request.
    await CashOutRequestModel.create({
      _id: '0123456789abcdef01234567',
      userId: dee.id,
      amountMicros: 20_000_000,
      status: 'pending',
      slot: `pending:${dee.id}`,
      at: new Date(),
    });

    const { calls, provider, dir } = countingSandbox();
    const payouts = createPayouts({ provider, fees: FEES, logger });
    const [first, second] = await Promise.all([payouts.runMonthly(MARCH_1), payouts.runMonthly(MARCH_1)]);
    expect(first.paid + second.paid).toBe(3);
    expect(first.totalMicros + second.totalMicros).toBe(12_340_000 + 20_000_000 + 10_000_000);
    expect([first.failed, second.failed]).toEqual([0, 0]);
    expect(first.skipped).toBeGreaterThanOrEqual(1); // Cid (no PayPal email)

    expect(paidMonth(MARCH_1)).toBe('2025-02');
    const entries = await LedgerEntryModel.find({ kind: 'payout' }).sort({ _id: 1 }).lean();
    expect(entries.map((e) => e._id).sort()).toEqual([`payout:${ana.id}:2025-02`, `payout:${dee.id}:2025-02`, `payout:${eli.id}:2025-02`].sort());
    expect(entries.find((e) => e._id.includes(ana.id))!.legs).toEqual([
      { account: userAccount(ana.id), amountMicros: -12_340_000 },
      { account: 'external:payouts', amountMicros: 12_090_000 },
      { account: 'platform:fees', amountMicros: 250_000 }, // 2% of $12.34 = $0.2468, rounded up to the cent
    ]);
    expect(calls.map((c) => c.payoutId).sort()).toEqual([`payout:${ana.id}:2025-02`, `payout:${dee.id}:2025-02`, `payout:${eli.id}:2025-02`].sort());
    expect(await CashOutRequestModel.findById('0123456789abcdef01234567').lean()).toMatchObject({
      status: 'paidByPayout',
      payoutId: `payout:${dee.id}:2025-02`,
      decidedAt: MARCH_1,
    });
    expect(calls.find((c) => c.email === 'eli@example.com')!.amountMicros).toBe(9_800_000);
    const file = JSON.parse(readFileSync(sandboxPayoutFile(dir, `payout:${ana.id}:2025-02`), 'utf8'));
    expect(file).toMatchObject({ payoutId: `payout:${ana.id}:2025-02`, email: 'ana@example.com', amount: '12.09', currency: 'USD' });
    expect(await PayoutSendModel.findById(`payout:${ana.id}:2025-02`).lean()).toMatchObject({ status: 'sent', providerRef: file.providerRef, attempts: 1 });

    const balances = await Promise.all([ana, bea, cid, dee, eli].map(balance));
    expect(balances).toEqual([5_678, 9_990_000, 15_000_000, 0, 0]);

    // Again in the same month, and next month with what is left: nothing more is paid.
    expect(await payouts.runMonthly(new Date('2025-03-15T10:00:00Z'))).toMatchObject({ paid: 0, totalMicros: 0 });
    expect(await payouts.runMonthly(new Date('2025-04-01T00:00:00Z'))).toMatchObject({ paid: 0, totalMicros: 0 });
    expect(calls).toHaveLength(3);
    expect(await LedgerEntryModel.countDocuments({ kind: 'payout' })).toBe(3);
  });

  it('when a member is paid, then their history shows the payout and their wallet what was paid out', async () => {
    const member = await createMember({ paypal: 'hist@example.com' });
    await credit(member, 50_000_000, new Date('2025-02-10T00:00:00Z'));
    const { provider } = countingSandbox();
    expect(await createPayouts({ provider, fees: FEES, logger }).runMonthly(MARCH_1)).toEqual({ paid: 1, skipped: 0, totalMicros: 50_000_000, failed: 0 });
    const app = createTestApp({ payoutProvider: provider });
    const history = await request(app).get(`/api/v2/user-history/get-all/${member.id}`).set(bearer(member)).expect(200);
    expect(history.body.items[0]).toMatchObject({
      historyId: `payout:${member.id}:2025-02`,
      activityType: 'Payout',
      activity: 'Monthly payout for 2025-02',
      changes: { paid: 50, earned: 49, paidMicros: 50_000_000, earnedMicros: 49_000_000, supporterId: null }, // fee capped at $1
      status: null,
      at: MARCH_1.toISOString(),
    });
    const wallet = await request(app).get(`/api/v2/wallet/summary/${member.id}`).set(bearer(member)).expect(200);
    expect(wallet.body).toMatchObject({ balanceMicros: 0, paidOutMicros: 50_000_000, canCashOut: false });
  });

  it("when it looks for balances of at least $10, then it reads the members' kept running balances, and the ledger only by each payee's account", async () => {
    const payees = await Promise.all([createMember({ paypal: 'p1@example.com' }), createMember({ paypal: 'p2@example.com' })]);
    const small = await Promise.all(Array.from({ length: 12 }, () => createMember({ paypal: `s${randomHex()}@example.com` })));
    await Promise.all([...payees.map((m) => credit(m, 11_000_000)), ...small.map((m) => credit(m, 2_000_000))]);
    const { provider } = countingSandbox();
    const meter = startReadMeter();
    try {
      expect(await createPayouts({ provider, fees: FEES, logger }).runMonthly(MARCH_1)).toMatchObject({ paid: 2, totalMicros: 22_000_000 });
      // Every member with a balance is found from the heads of the running balances; only the two payees' amounts
      // are decided from the ledger itself (by their account: an index on MongoDB), under their funds lock.
      const ledgerReads = meter.take().filter((scan) => scan.collection === 'ledger_entries');
      expect(ledgerReads.map((scan) => scan.filter).sort()).toEqual(payees.map((m) => JSON.stringify({ accounts: userAccount(m.id) })).sort());
    } finally {
      meter.stop();
    }
  });

  it("when a member's running balance has lost its head hint, then the balances' check reports it and the rebuild writes it, and the payout finds the member again", async () => {
    const member = await createMember({ paypal: 'head@example.com' });
    await credit(member, 30_000_000);
    await ChainHeadModel.collection.deleteOne({ _id: userAccount(member.id) as never });
    const balances = ledgerKeptStates.find((state) => state.name === 'ledger-balances')!;
    expect((await balances.check()).differences).toEqual([
      `${userAccount(member.id)}: has postings but no head hint (the payouts find members by their heads)`,
    ]);
    const { provider } = countingSandbox();
    const payouts = createPayouts({ provider, fees: FEES, logger });
    expect(await payouts.runMonthly(MARCH_1)).toMatchObject({ paid: 0 }); // not found: paid once the head is back
    await rebuildKeptState(balances);
    expect((await balances.check()).differences).toEqual([]);
    expect(await payouts.runMonthly(MARCH_1)).toMatchObject({ paid: 1, totalMicros: 30_000_000 });
  });

  it('is scheduled at 00:00 UTC on the 1st of each month', () => {
    const storage = localStorage(mkdtempSync(path.join(os.tmpdir(), 'knack-up-')));
    const jobs = defaultJobs({ logger, storage, services: createTestServices({ storage }) });
    expect(jobs.find((job) => job.name === 'monthly-payouts')).toMatchObject({ schedule: '0 0 1 * *' });
  });
});

describe('the PayPal Payouts driver against a stand-in of its API', () => {
  let paypal: Awaited<ReturnType<typeof startPayPalStandIn>>;
  beforeAll(async () => {
    paypal = await startPayPalStandIn('client-id-1', 'client-secret-1');
  });
  afterAll(() => paypal.stop());
  beforeEach(() => {
    paypal.tokenCalls.length = 0;
    paypal.payoutCalls.length = 0;
  });

  it('when a payout is sent twice, then it signs in once, sends one EMAIL item in USD with sender_batch_id = payoutId, and the retry answers the same batch', async () => {
    const driver = paypalPayoutProvider({ clientId: 'client-id-1', clientSecret: 'client-secret-1', apiUrl: paypal.url });
    const payout = { payoutId: 'payout:abc:2025-02', email: 'ana@example.com', amountMicros: 12_090_000, note: 'Your Knack payout' };
    const first = await driver.send(payout);
    const again = await driver.send(payout);
    expect(first.providerRef).toMatch(/^PB[0-9A-F]{12}$/);
    expect(again.providerRef).toBe(first.providerRef);
    expect(paypal.tokenCalls).toEqual([{ grantType: 'client_credentials' }]);
    expect(paypal.payoutCalls).toHaveLength(2);
    expect(paypal.payoutCalls[0]).toEqual({
      requestId: 'payout:abc:2025-02',
      body: {
        sender_batch_header: { sender_batch_id: 'payout:abc:2025-02', email_subject: 'You have a payout from Knack', email_message: 'Your Knack payout' },
        items: [
          {
            recipient_type: 'EMAIL',
            amount: { value: '12.09', currency: 'USD' },
            receiver: 'ana@example.com',
            note: 'Your Knack payout',
            sender_item_id: 'payout:abc:2025-02',
          },
        ],
      },
    });
  });

  it('when PayPal makes the batch but its answer comes too late, then the call is sent again with the same PayPal-Request-Id and one batch is made', async () => {
    const driver = paypalPayoutProvider({ clientId: 'client-id-1', clientSecret: 'client-secret-1', apiUrl: paypal.url, timeoutMs: 300 });
    const batchesBefore = paypal.batchIds().length;
    paypal.holdPayouts(1);
    const sent = await driver.send({ payoutId: 'payout:late:2025-02', email: 'ana@example.com', amountMicros: 12_090_000, note: 'Your Knack payout' });
    expect(sent.providerRef).toMatch(/^PB[0-9A-F]{12}$/);
    expect(paypal.payoutCalls.map((call) => call.requestId)).toEqual(['payout:late:2025-02', 'payout:late:2025-02']);
    expect(paypal.batchIds().slice(batchesBefore)).toEqual(['payout:late:2025-02']);
  });

  it('when the credentials are wrong or the amount is not whole cents, then it refuses', async () => {
    const wrong = paypalPayoutProvider({ clientId: 'client-id-1', clientSecret: 'nope', apiUrl: paypal.url });
    const err = await wrong.send({ payoutId: 'p1', email: 'a@example.com', amountMicros: 10_000_000, note: 'n' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PayoutProviderError);
    expect((err as PayoutProviderError).status).toBe(401);
    const driver = paypalPayoutProvider({ clientId: 'client-id-1', clientSecret: 'client-secret-1', apiUrl: paypal.url });
    await expect(driver.send({ payoutId: 'p2', email: 'a@example.com', amountMicros: 10_000_001, note: 'n' })).rejects.toThrow(RangeError);
    expect(paypal.payoutCalls).toHaveLength(0);
  });

  it('when PayPal is configured and fails once, then the job debits once, keeps the payout to send, and the next run sends it', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      JWT_SECRET: 'x'.repeat(40),
      DATA_DIR: os.tmpdir(),
      PAYPAL_CLIENT_ID: 'client-id-1',
      PAYPAL_CLIENT_SECRET: 'client-secret-1',
      PAYPAL_API_URL: paypal.url,
    });
    const provider = createPayoutProvider(config);
    expect(provider.kind).toBe('paypal');
    const member = await createMember({ paypal: 'retry@example.com' });
    await credit(member, 10_000_000);
    const payouts = createPayouts({ provider, fees: config.payouts, logger });

    // PayPal is down for every attempt of this run (the driver sends a failed call again a few times, with the same id).
    paypal.failPayouts(PROVIDER_ATTEMPTS);
    expect(await payouts.runMonthly(MARCH_1)).toEqual({ paid: 1, skipped: 0, totalMicros: 10_000_000, failed: 1 });
    expect(await balance(member)).toBe(0);
    expect(await PayoutSendModel.findById(`payout:${member.id}:2025-02`).lean()).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: expect.stringContaining('503'),
    });

    expect(await payouts.runMonthly(MARCH_1)).toEqual({ paid: 0, skipped: 0, totalMicros: 0, failed: 0 });
    expect(await PayoutSendModel.findById(`payout:${member.id}:2025-02`).lean()).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(paypal.payoutCalls.map((c) => [c.requestId, c.body.items[0]!.amount.value])).toEqual(
      Array(PROVIDER_ATTEMPTS + 1).fill([`payout:${member.id}:2025-02`, '9.80']),
    );
    expect(await LedgerEntryModel.countDocuments({ kind: 'payout' })).toBe(1);
    expect(await balance(member)).toBe(0);
  });
});

describe('the payout fee and its configuration', () => {
  it('when fees are computed, then they are 2% rounded up to the cent and capped at $1, in integers', () => {
    expect(payoutFee(10_000_000, FEES)).toBe(200_000);
    expect(payoutFee(12_340_000, FEES)).toBe(250_000);
    expect(payoutFee(50_000_000, FEES)).toBe(1_000_000);
    expect(payoutFee(900_000_000_000_000, FEES)).toBe(1_000_000);
    expect(payoutFee(10_000_000, { feeBasisPoints: 0, feeMaxMicros: 1_000_000 })).toBe(0);
  });

  it('when the variables are set, then they are read exactly; wrong values stop the start', () => {
    const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/knack-data' };
    expect(loadConfig(base).payouts).toEqual({ feeBasisPoints: 200, feeMaxMicros: 1_000_000, sandboxDir: '/tmp/knack-data/payouts', paypal: undefined });
    expect(loadConfig({ ...base, PAYOUT_FEE_PERCENT: '2.5', PAYOUT_FEE_MAX_USD: '0.75' }).payouts).toMatchObject({
      feeBasisPoints: 250,
      feeMaxMicros: 750_000,
    });
    expect(loadConfig({ ...base, PAYPAL_CLIENT_ID: 'i', PAYPAL_CLIENT_SECRET: 's' }).payouts.paypal).toEqual({
      clientId: 'i',
      clientSecret: 's',
      apiUrl: 'https://api-m.sandbox.paypal.com',
    });
    expect(() => loadConfig({ ...base, PAYOUT_FEE_PERCENT: '2.345' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, PAYOUT_FEE_PERCENT: '60' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, PAYOUT_FEE_MAX_USD: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, PAYPAL_CLIENT_ID: 'i' })).toThrow(/PAYPAL_CLIENT_SECRET/);
    expect(() => loadConfig({ ...base, PAYPAL_CLIENT_ID: 'i', PAYPAL_CLIENT_SECRET: 's', PAYPAL_API_URL: 'ftp://x' })).toThrow(ConfigError);
  });
});
