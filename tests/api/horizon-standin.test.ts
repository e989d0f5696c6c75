/**
 * The Horizon driver against the Horizon stand-in, over HTTP: the stand-in refuses what the Stellar network refuses
 * (signatures, weights and thresholds, sequence numbers, fees, time bounds, balances and reserves, the network's
 * passphrase) and applies what it applies, with the mint's shape as the transaction it must take; the driver
 * passes on Horizon's answers (accounts, result codes, the base fee) and turns an unreachable Horizon into
 * HorizonUnavailableError.
 */
import { Account, Asset, Keypair, Memo, Networks, Operation, TransactionBuilder, type Horizon, type Transaction, type xdr } from '@stellar/stellar-sdk';
import {
  createHorizon,
  FALLBACK_BASE_FEE,
  RATE_FAILURE_MS,
  RATE_SHOWN_MS,
  RATE_TTL_MS,
  HorizonRefusedError,
  HorizonUnavailableError,
  type HorizonDriver,
} from '../../server/integrations/horizon';
import { freezeDate } from '../helpers/clock';
import { startHorizonStandIn, type HorizonStandIn } from '../helpers/horizon-standin';
import { waitUntil } from '../helpers/wait';

let standIn: HorizonStandIn;
let horizon: HorizonDriver;

beforeAll(async () => {
  standIn = await startHorizonStandIn();
  horizon = createHorizon({ stellar: standIn.stellarConfig });
});
afterAll(async () => standIn.stop());

/** A fresh account on the stand-in's ledger, funded as Friendbot would. */
function funded(xlm: string): Keypair {
  const keypair = Keypair.random();
  standIn.fund(keypair.publicKey(), xlm);
  return keypair;
}

async function accountOf(keypair: Keypair): Promise<Horizon.AccountResponse> {
  const account = await horizon.loadAccount(keypair.publicKey());
  if (!account) throw new Error(`no account ${keypair.publicKey()}`);
  return account;
}

interface BuildOptions {
  /** Per operation, in stroops. */
  fee?: string;
  timeoutSeconds?: number;
  signers?: Keypair[];
  passphrase?: string;
}

function build(
  source: Account,
  operations: xdr.Operation[],
  signers: Keypair[],
  { fee = '100', timeoutSeconds = 300, passphrase = Networks.TESTNET }: BuildOptions = {},
): Transaction {
  const builder = new TransactionBuilder(source, { fee, networkPassphrase: passphrase });
  for (const operation of operations) builder.addOperation(operation);
  const transaction = builder.setTimeout(timeoutSeconds).build();
  transaction.sign(...signers);
  return transaction;
}

/** What the driver threw for a refused transaction: Horizon's result codes. */
async function refusal(transaction: Transaction) {
  const err = await horizon.submit(transaction).then(
    () => null,
    (error: unknown) => error,
  );
  expect(err).toBeInstanceOf(HorizonRefusedError);
  return (err as HorizonRefusedError).resultCodes;
}

/** The NFT mint's transaction: the member funds a fresh issuer, trusts its asset, is paid the tokens, the CID is kept as data, and the issuer locks itself. */
function mintOperations(member: Keypair, issuer: Keypair, asset: Asset, cid: string, amount = '0.0000001') {
  return [
    Operation.createAccount({ destination: issuer.publicKey(), startingBalance: '2' }),
    Operation.changeTrust({ asset }),
    Operation.payment({ source: issuer.publicKey(), destination: member.publicKey(), asset, amount }),
    Operation.manageData({ source: issuer.publicKey(), name: 'ipfs', value: cid }),
    Operation.setOptions({ source: issuer.publicKey(), masterWeight: 0 }),
  ];
}

const CID = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';

describe('the transaction the NFT mint sends', () => {
  it('when it is signed by the member and the issuer, then it is applied whole: the member holds exactly the amount, the CID is data, the issuer is locked', async () => {
    const member = funded('10');
    const issuer = Keypair.random();
    const asset = new Asset('ART1', issuer.publicKey());
    const transaction = build(await accountOf(member), mintOperations(member, issuer, asset, CID), [member, issuer]);

    const { hash, ledger } = await horizon.submit(transaction);

    expect(hash).toBe(transaction.hash().toString('hex'));
    expect(ledger).toBeGreaterThan(0);
    const issuerAccount = await accountOf(issuer);
    expect(issuerAccount.signers).toEqual([{ key: issuer.publicKey(), weight: 0, type: 'ed25519_public_key' }]);
    expect(issuerAccount.thresholds).toEqual({ low_threshold: 0, med_threshold: 0, high_threshold: 0 });
    expect(issuerAccount.data_attr).toEqual({ ipfs: Buffer.from(CID).toString('base64') });
    expect(issuerAccount.subentry_count).toBe(1);
    expect(issuerAccount.balances).toEqual([{ balance: '2.0000000', buying_liabilities: '0.0000000', selling_liabilities: '0.0000000', asset_type: 'native' }]);
    const memberAccount = await accountOf(member);
    expect(memberAccount.sequence).toBe(transaction.sequence);
    expect(memberAccount.subentry_count).toBe(1);
    // 10 XLM, less the issuer's 2 and the fee of 5 operations at 100 stroops.
    expect(memberAccount.balances).toEqual([
      expect.objectContaining({
        asset_type: 'credit_alphanum4',
        asset_code: 'ART1',
        asset_issuer: issuer.publicKey(),
        balance: '0.0000001',
        is_authorized: true,
      }),
      expect.objectContaining({ asset_type: 'native', balance: '7.9999500' }),
    ]);
    expect(standIn.submitted.at(-1)).toMatchObject({ hash, status: 200, successful: true });

    const record = (await (await fetch(`${standIn.url}/transactions/${hash}`)).json()) as Record<string, unknown>;
    expect(record).toMatchObject({ hash, ledger, successful: true, source_account: member.publicKey(), fee_charged: '500', operation_count: 5 });
  });

  it('when the issuer, locked, is asked to pay more of its asset, then the network refuses it (tx_bad_auth) and the supply stays exactly the amount', async () => {
    const member = funded('10');
    const issuer = Keypair.random();
    const asset = new Asset('ART2', issuer.publicKey());
    await horizon.submit(build(await accountOf(member), mintOperations(member, issuer, asset, CID), [member, issuer]));

    const more = build(await accountOf(issuer), [Operation.payment({ destination: member.publicKey(), asset, amount: '1' })], [issuer]);

    expect(await refusal(more)).toEqual({ transaction: 'tx_bad_auth', operations: [] });
    expect(standIn.balance(member.publicKey(), `ART2:${issuer.publicKey()}`)).toBe(1n);
  });

  it("when the member's signature is missing, then it is refused (tx_bad_auth) and nothing happens: no issuer, the same sequence", async () => {
    const member = funded('10');
    const issuer = Keypair.random();
    const before = await accountOf(member);
    const transaction = build(await accountOf(member), mintOperations(member, issuer, new Asset('ART3', issuer.publicKey()), CID), [issuer]);

    expect(await refusal(transaction)).toEqual({ transaction: 'tx_bad_auth', operations: [] });
    expect(await horizon.loadAccount(issuer.publicKey())).toBeNull();
    expect((await accountOf(member)).sequence).toBe(before.sequence);
    expect(standIn.balance(member.publicKey())).toBe(100_000_000n);
  });

  it("when the issuer's signature is missing, then its operations are refused (op_bad_auth) and nothing happens", async () => {
    const member = funded('10');
    const issuer = Keypair.random();
    const transaction = build(await accountOf(member), mintOperations(member, issuer, new Asset('ART4', issuer.publicKey()), CID), [member]);

    expect(await refusal(transaction)).toEqual({
      transaction: 'tx_failed',
      operations: ['op_success', 'op_success', 'op_bad_auth', 'op_bad_auth', 'op_bad_auth'],
    });
    expect(await horizon.loadAccount(issuer.publicKey())).toBeNull();
    expect(standIn.balance(member.publicKey())).toBe(100_000_000n);
  });

  it('when the member cannot fund the issuer above their own reserve, then it fails in the ledger: only the fee and the sequence number are taken', async () => {
    // Each operation is tried on the ledger the ones before left it, and the failed first one made no issuer.
    const member = funded('2.9');
    const issuer = Keypair.random();
    const before = await accountOf(member);
    const transaction = build(before, mintOperations(member, issuer, new Asset('ART5', issuer.publicKey()), CID), [member, issuer]);

    expect(await refusal(transaction)).toEqual({
      transaction: 'tx_failed',
      operations: ['op_underfunded', 'op_no_issuer', 'op_no_source_account', 'op_no_source_account', 'op_no_source_account'],
    });
    expect(await horizon.loadAccount(issuer.publicKey())).toBeNull();
    expect(standIn.balance(member.publicKey())).toBe(29_000_000n - 500n);
    expect((await accountOf(member)).sequence).toBe(transaction.sequence);
    expect((await accountOf(member)).subentry_count).toBe(0);
  });

  it('when the same transaction is sent again, then Horizon answers the first result and nothing is applied twice', async () => {
    const member = funded('10');
    const issuer = Keypair.random();
    const transaction = build(await accountOf(member), mintOperations(member, issuer, new Asset('ART6', issuer.publicKey()), CID), [member, issuer]);
    const first = await horizon.submit(transaction);

    expect(await horizon.submit(transaction)).toEqual(first);
    expect(standIn.balance(member.publicKey(), `ART6:${issuer.publicKey()}`)).toBe(1n);
  });
});

describe('the transaction that anchors a ledger root', () => {
  it('when it carries a memo hash and sets a data entry on its own account, then it is applied, and GET /transactions/{hash} answers the memo as Horizon does (memo_type hash, memo in base64)', async () => {
    const anchor = funded('5');
    const root = Buffer.from('5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328', 'hex');
    const builder = new TransactionBuilder(await accountOf(anchor), { fee: '100', networkPassphrase: Networks.TESTNET });
    const transaction = builder
      .addOperation(Operation.manageData({ name: 'knack ledger root', value: '2026-11-26' }))
      .addMemo(Memo.hash(root))
      .setTimeout(300)
      .build();
    transaction.sign(anchor);
    const { hash } = await horizon.submit(transaction);

    const answer = await fetch(`${standIn.url}/transactions/${hash}`);
    expect(answer.status).toBe(200);
    const record = (await answer.json()) as Record<string, unknown>;
    expect(record).toMatchObject({ hash, successful: true, source_account: anchor.publicKey(), memo_type: 'hash', memo: root.toString('base64') });
    expect(standIn.account(anchor.publicKey())?.data).toEqual({ 'knack ledger root': Buffer.from('2026-11-26').toString('base64') });
  });

  it('when a transaction has no memo, then its record says memo_type none and has no memo field', async () => {
    const source = funded('5');
    const transaction = build(await accountOf(source), [Operation.manageData({ name: 'plain', value: 'x' })], [source]);
    const { hash } = await horizon.submit(transaction);
    const record = (await (await fetch(`${standIn.url}/transactions/${hash}`)).json()) as Record<string, unknown>;
    expect(record.memo_type).toBe('none');
    expect(record).not.toHaveProperty('memo');
  });
});

describe('what the network refuses', () => {
  it('when the sequence number is not the next one, then tx_bad_seq', async () => {
    const member = funded('10');
    const current = await accountOf(member);
    const skipping = new Account(member.publicKey(), String(BigInt(current.sequence) + 1n));
    const other = funded('1');

    expect(await refusal(build(skipping, [Operation.payment({ destination: other.publicKey(), asset: Asset.native(), amount: '1' })], [member]))).toEqual({
      transaction: 'tx_bad_seq',
      operations: [],
    });
  });

  it('when its time bound has passed on the network clock, then tx_too_late', async () => {
    const member = funded('10');
    const other = funded('1');
    const transaction = build(await accountOf(member), [Operation.payment({ destination: other.publicKey(), asset: Asset.native(), amount: '1' })], [member], {
      timeoutSeconds: 60,
    });
    standIn.advanceClock(61);

    expect(await refusal(transaction)).toEqual({ transaction: 'tx_too_late', operations: [] });
    expect(standIn.balance(other.publicKey())).toBe(10_000_000n);
  });

  it('when the fee is below the base fee for each operation, then tx_insufficient_fee', async () => {
    const member = funded('10');
    const other = funded('1');
    const payment = Operation.payment({ destination: other.publicKey(), asset: Asset.native(), amount: '1' });

    expect(await refusal(build(await accountOf(member), [payment], [member], { fee: '99' }))).toEqual({ transaction: 'tx_insufficient_fee', operations: [] });
  });

  it('when it was signed for another network, then the signature does not count: tx_bad_auth', async () => {
    const member = funded('10');
    const other = funded('1');
    const payment = Operation.payment({ destination: other.publicKey(), asset: Asset.native(), amount: '1' });

    expect(await refusal(build(await accountOf(member), [payment], [member], { passphrase: Networks.PUBLIC }))).toEqual({
      transaction: 'tx_bad_auth',
      operations: [],
    });
  });

  it('when a signature is not needed by any source, then tx_bad_auth_extra', async () => {
    const member = funded('10');
    const other = funded('1');
    const payment = Operation.payment({ destination: other.publicKey(), asset: Asset.native(), amount: '1' });

    expect(await refusal(build(await accountOf(member), [payment], [member, Keypair.random()]))).toEqual({ transaction: 'tx_bad_auth_extra', operations: [] });
  });

  it('when a payment is more than the balance above the reserve, then op_underfunded; when the destination is missing or does not trust the asset, op_no_destination and op_no_trust', async () => {
    const member = funded('3');
    const other = funded('1');
    const issuer = funded('5');
    const asset = new Asset('GOLD', issuer.publicKey());

    expect(
      await refusal(
        build(await accountOf(member), [Operation.payment({ destination: other.publicKey(), asset: Asset.native(), amount: '2.0000001' })], [member]),
      ),
    ).toEqual({
      transaction: 'tx_failed',
      operations: ['op_underfunded'],
    });
    expect(
      await refusal(
        build(await accountOf(member), [Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: '1' })], [member]),
      ),
    ).toEqual({ transaction: 'tx_failed', operations: ['op_no_destination'] });
    expect(await refusal(build(await accountOf(issuer), [Operation.payment({ destination: other.publicKey(), asset, amount: '1' })], [issuer]))).toEqual({
      transaction: 'tx_failed',
      operations: ['op_no_trust'],
    });
    // Two transactions failed in the ledger: each took its fee. The third was the issuer's.
    expect(standIn.balance(member.publicKey())).toBe(30_000_000n - 200n);
  });

  it('when an account keeps data at its minimum balance, then op_low_reserve', async () => {
    const member = funded('1.0000100');
    expect(await refusal(build(await accountOf(member), [Operation.manageData({ name: 'note', value: 'x' })], [member]))).toEqual({
      transaction: 'tx_failed',
      operations: ['op_low_reserve'],
    });
  });

  it('when an operation needs more weight than the signatures carry, then op_bad_auth; with the other signer too, it passes', async () => {
    const member = funded('10');
    const cosigner = Keypair.random();
    const other = funded('1');
    await horizon.submit(
      build(
        await accountOf(member),
        [Operation.setOptions({ signer: { ed25519PublicKey: cosigner.publicKey(), weight: 1 }, medThreshold: 2, highThreshold: 2 })],
        [member],
      ),
    );
    const payment = () => Operation.payment({ destination: other.publicKey(), asset: Asset.native(), amount: '1' });

    expect(await refusal(build(await accountOf(member), [payment()], [member]))).toEqual({ transaction: 'tx_failed', operations: ['op_bad_auth'] });
    await horizon.submit(build(await accountOf(member), [payment()], [member, cosigner]));
    expect(standIn.balance(other.publicKey())).toBe(20_000_000n);
  });

  it('when an operation the stand-in does not model is sent, then it is refused (op_not_supported), never taken as a success', async () => {
    const member = funded('10');
    const offer = Operation.manageSellOffer({ selling: Asset.native(), buying: new Asset('USDC', Keypair.random().publicKey()), amount: '1', price: '1' });

    expect(await refusal(build(await accountOf(member), [offer], [member]))).toEqual({ transaction: 'tx_failed', operations: ['op_not_supported'] });
  });
});

describe('accounts as Horizon writes them', () => {
  it('when an account exists, then GET /accounts/{id} answers its JSON with the sequence as text; when it does not, 404 problem+json', async () => {
    const member = funded('12.5');
    const response = await fetch(`${standIn.url}/accounts/${member.publicKey()}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: member.publicKey(),
      account_id: member.publicKey(),
      sequence: expect.stringMatching(/^\d+$/),
      subentry_count: 0,
      thresholds: { low_threshold: 0, med_threshold: 0, high_threshold: 0 },
      flags: { auth_required: false, auth_revocable: false, auth_immutable: false, auth_clawback_enabled: false },
      balances: [{ balance: '12.5000000', asset_type: 'native' }],
      signers: [{ key: member.publicKey(), weight: 1, type: 'ed25519_public_key' }],
      data: {},
    });

    const missing = await fetch(`${standIn.url}/accounts/${Keypair.random().publicKey()}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await missing.json()).toMatchObject({ type: 'https://stellar.org/horizon-errors/not_found', title: 'Resource Missing', status: 404 });
    expect(await horizon.loadAccount(Keypair.random().publicKey())).toBeNull();
  });
});

describe('the base fee', () => {
  it("when Horizon's fee stats give the last ledger's base fee, then that; when they do not, the fallback of 200 stroops", async () => {
    standIn.setBaseFee(150);
    expect(await horizon.baseFee()).toBe(150);
    standIn.setBaseFee(100, { announce: false });
    expect(await horizon.baseFee()).toBe(FALLBACK_BASE_FEE);
    expect(FALLBACK_BASE_FEE).toBe(200);
    standIn.setBaseFee(100);
  });
});

describe('when Horizon cannot be reached', () => {
  const unavailable = (promise: Promise<unknown>) =>
    promise.then(
      () => 'answered',
      (err: unknown) => (err instanceof HorizonUnavailableError ? 'unavailable' : err),
    );

  it('when it answers 5xx or 429, then every call fails as unavailable, and the next answer is passed on again', async () => {
    const member = funded('10');
    for (const status of [500, 503, 504, 429]) {
      standIn.failNext(status);
      expect(await unavailable(horizon.loadAccount(member.publicKey()))).toBe('unavailable');
    }
    standIn.failNext(503);
    expect(await unavailable(horizon.baseFee())).toBe('unavailable');
    expect(await horizon.loadAccount(member.publicKey())).not.toBeNull();
  });

  it('when it does not answer in time, then the call fails as unavailable', async () => {
    const impatient = createHorizon({ stellar: standIn.stellarConfig }, { timeoutMs: 300 });
    standIn.stallNext();
    expect(await unavailable(impatient.loadAccount(Keypair.random().publicKey()))).toBe('unavailable');
  });

  it('when it is stopped, then accounts, fees and submissions fail as unavailable; started again, they answer', async () => {
    const member = funded('10');
    const other = funded('1');
    const payment = build(await accountOf(member), [Operation.payment({ destination: other.publicKey(), asset: Asset.native(), amount: '1' })], [member]);
    await standIn.stop();
    try {
      expect(await unavailable(horizon.loadAccount(member.publicKey()))).toBe('unavailable');
      expect(await unavailable(horizon.baseFee())).toBe('unavailable');
      expect(await unavailable(horizon.submit(payment))).toBe('unavailable');
    } finally {
      await standIn.restart();
    }
    await horizon.submit(payment);
    expect(standIn.balance(other.publicKey())).toBe(20_000_000n);
  });
});

describe('the rate pages show (shownUsdRate)', () => {
  const bookReads = () => standIn.requests.filter((r) => r.path === '/order_book').length;
  const shownRate = async (driver: HorizonDriver) => (await driver.shownUsdRate())?.xlmPerUsd ?? null;

  it('when a reading is kept, then it is shown without waiting on Horizon for ten minutes, read again in the background after the first minute', async () => {
    const clock = freezeDate();
    // Its own driver (its own readings), patient for half a second: a stalled request fails after that.
    const driver = createHorizon({ stellar: standIn.stellarConfig }, { timeoutMs: 500 });
    try {
      standIn.setOrderBook({ asks: [{ price: '0.1', amount: '100' }] });
      expect(await shownRate(driver)).toBe(10);
      const reads = bookReads();
      standIn.setOrderBook({ asks: [{ price: '0.125', amount: '100' }] });
      clock.advance(RATE_TTL_MS - 1_000);
      expect(await shownRate(driver)).toBe(10);
      expect(bookReads()).toBe(reads);

      // Past the minute: the kept reading at once, and a new one read in the background.
      clock.advance(2_000);
      expect(await shownRate(driver)).toBe(10);
      await waitUntil(async () => (await shownRate(driver)) === 8, { what: 'the reading made in the background' });
      expect(bookReads()).toBe(reads + 1);

      // Horizon hangs: the kept reading is shown while the background read waits, and after it fails.
      clock.advance(RATE_TTL_MS + 1_000);
      standIn.stallNext();
      expect(await shownRate(driver)).toBe(8);
      await waitUntil(() => bookReads() === reads + 2, { what: 'the background read' });
      expect(await shownRate(driver)).toBe(8);

      // Ten minutes after the reading, it is no longer shown.
      clock.advance(RATE_SHOWN_MS);
      await standIn.stop();
      expect(await shownRate(driver)).toBeNull();
    } finally {
      clock.restore();
      await standIn.restart();
    }
  });

  it('when Horizon failed lately and no reading is kept, then null at once, without asking it again until the failure is half a minute old', async () => {
    const clock = freezeDate();
    const driver = createHorizon({ stellar: standIn.stellarConfig }, { timeoutMs: 500 });
    try {
      standIn.setOrderBook({ asks: [{ price: '0.2', amount: '100' }] });
      // The first reading of a process waits for its answer: here, a failure.
      standIn.failNext(503);
      expect(await shownRate(driver)).toBeNull();
      const reads = bookReads();
      clock.advance(RATE_FAILURE_MS - 1_000);
      expect(await shownRate(driver)).toBeNull();
      expect(bookReads()).toBe(reads);

      // Half a minute on: still null at once, while a reading is tried in the background; then that reading.
      clock.advance(2_000);
      standIn.stallNext();
      expect(await shownRate(driver)).toBeNull();
      // The background read, shared by a caller that waits for it (one read at a time): it fails after half a second.
      await expect(driver.usdRate()).rejects.toThrow(HorizonUnavailableError);
      expect(bookReads()).toBe(reads + 1);
      clock.advance(RATE_FAILURE_MS + 1_000);
      expect(await shownRate(driver)).toBeNull();
      await waitUntil(async () => (await shownRate(driver)) === 5, { what: 'the reading after Horizon answered again' });
      // What a check must rely on is still a fresh reading, asked of Horizon.
      expect(await driver.xlmPerUsd()).toBe(5);
    } finally {
      clock.restore();
    }
  });
});
