/**
 * The Stellar calls on the real app and database, with Knack's Horizon driver pointed at the Horizon stand-in:
 * the XLM rate of a US dollar (from the order book or strict-send paths, cached a minute, 503 when Horizon cannot
 * be reached or no market answers, with nothing cached), and an account's check before minting (at least 3 XLM,
 * the exact messages, members only, a limit per member).
 */
import { Keypair, StrKey } from '@stellar/stellar-sdk';
import request from 'supertest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { outboxMailer } from '../../server/integrations/mail';
import { RateLimitModel } from '../../server/lib/rate-limit';
import { createTestApp } from '../helpers/app';
import { createActiveMember, outboxMailbox } from '../helpers/auth';
import { freezeDate, freezeInWindow, type FrozenDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { startHorizonStandIn, type HorizonStandIn } from '../helpers/horizon-standin';

useTestDatabase();

const UNAVAILABLE = 'The Stellar network cannot be reached right now. Please try again in a minute.';
const NO_RATE = 'No XLM rate for the US dollar can be read from the Stellar network right now. Please try again in a minute.';
const INVALID_ADDRESS = 'This is not a Stellar address. A Stellar address starts with G and has 56 letters and digits.';
const NO_ACCOUNT = 'This Stellar account does not exist yet. Fund it with at least 3 XLM.';

const outbox = mkdtempSync(path.join(os.tmpdir(), 'knack-stellar-outbox-'));
let standIn: HorizonStandIn;
let app: ReturnType<typeof createTestApp>;
type Member = Awaited<ReturnType<typeof createActiveMember>>;
let ana: Member;
let bea: Member;
let clock: FrozenDate | undefined;

const rate = () => request(app).get('/api/v2/stellar/rate/usd');
const check = (address: string, member: Member = ana) =>
  request(app).get(`/api/v2/stellar/check-account/${address}`).set('Authorization', `Bearer ${member.token}`);
const orderBookReads = () => standIn.requests.filter((r) => r.path === '/order_book').length;

beforeAll(async () => {
  standIn = await startHorizonStandIn();
  app = createTestApp({ mailer: outboxMailer(outbox, 'Knack <no-reply@knack.test>'), config: { stellar: standIn.stellarConfig } });
  ana = await createActiveMember(app, outboxMailbox(outbox));
  bea = await createActiveMember(app, outboxMailbox(outbox));
}, 60_000);

afterAll(async () => standIn.stop());

beforeEach(async () => {
  standIn.setOrderBook({});
  standIn.setStrictSendPaths([]);
  await RateLimitModel.deleteMany({});
});

afterEach(() => {
  clock?.restore();
  clock = undefined;
});

describe('GET /stellar/rate/usd', () => {
  // Each test starts ten minutes after the one before, on a clock of its own: whatever reading an earlier test left
  // in the app's cache is more than a minute old by then.
  let testTime = Date.now();
  beforeEach(() => {
    testTime += 600_000;
    clock = freezeDate(testTime);
  });

  it('when the XLM/USDC book can fill a dollar, then it answers the XLM its asks give for one dollar, cheapest first, to anyone', async () => {
    // 0.5 USDC buys the 5 XLM at 0.1, and the other 0.5 USDC buys 4 XLM at 0.125.
    standIn.setOrderBook({
      asks: [
        { price: '0.1', amount: '5' },
        { price: '0.125', amount: '100' },
      ],
      bids: [{ price: '0.09', amount: '50' }],
    });

    const res = await rate().expect(200);

    expect(res.body).toEqual({ xlmPerUsd: 9, source: 'order_book', at: new Date().toISOString() });
  });

  it('when the book cannot fill a dollar, then it answers the best strict-send path from one USDC to XLM', async () => {
    standIn.setOrderBook({ asks: [{ price: '0.1', amount: '1' }] });
    standIn.setStrictSendPaths(['9.5', '9.8765432']);

    const res = await rate().expect(200);

    expect(res.body).toMatchObject({ xlmPerUsd: 9.8765432, source: 'paths' });
    const paths = standIn.requests.filter((r) => r.path === '/paths/strict-send').at(-1)!;
    expect(Object.fromEntries(paths.query)).toMatchObject({
      source_asset_code: 'USDC',
      source_asset_issuer: 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5',
      source_amount: '1.0000000',
      destination_assets: 'native',
    });
  });

  it('when no market gives a rate, then 503 says so, and nothing is kept: the next reading answers once there is one', async () => {
    const res = await rate().expect(503);

    expect(res.body).toMatchObject({ message: NO_RATE, code: 'unavailable' });
    standIn.setOrderBook({ asks: [{ price: '0.2', amount: '10' }] });
    expect((await rate().expect(200)).body).toMatchObject({ xlmPerUsd: 5, source: 'order_book' });
  });

  it('when it was read less than a minute ago, then the same reading is answered without asking Horizon; after a minute, a new one', async () => {
    standIn.setOrderBook({ asks: [{ price: '0.1', amount: '100' }] });
    const first = (await rate().expect(200)).body as { at: string };
    const reads = orderBookReads();
    standIn.setOrderBook({ asks: [{ price: '0.125', amount: '100' }] });

    clock!.advance(59_000);
    expect((await rate().expect(200)).body).toEqual({ xlmPerUsd: 10, source: 'order_book', at: first.at });
    expect(orderBookReads()).toBe(reads);

    clock!.advance(2_000);
    expect((await rate().expect(200)).body).toEqual({ xlmPerUsd: 8, source: 'order_book', at: new Date().toISOString() });
    expect(orderBookReads()).toBe(reads + 1);
  });

  it('when many ask at once, then Horizon is read once and all get the same reading', async () => {
    standIn.setOrderBook({ asks: [{ price: '0.25', amount: '100' }] });
    const reads = orderBookReads();

    const answers = await Promise.all(Array.from({ length: 20 }, () => rate()));

    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((res) => JSON.stringify(res.body))).size).toBe(1);
    expect(answers[0]!.body).toMatchObject({ xlmPerUsd: 4, source: 'order_book' });
    expect(orderBookReads()).toBe(reads + 1);
  });

  it('when Horizon is stopped, then 503 with the message, and nothing is kept as a success: started again, the rate is read', async () => {
    standIn.setOrderBook({ asks: [{ price: '0.1', amount: '100' }] });
    await standIn.stop();
    try {
      const res = await rate().expect(503);
      expect(res.body).toMatchObject({ message: UNAVAILABLE, code: 'unavailable' });
    } finally {
      await standIn.restart();
    }
    expect((await rate().expect(200)).body).toMatchObject({ xlmPerUsd: 10, source: 'order_book' });
  });

  it('when Horizon answers 5xx or 429, then 503 with the message, and the next reading is asked of Horizon again', async () => {
    standIn.setOrderBook({ asks: [{ price: '0.1', amount: '100' }] });
    for (const status of [500, 503, 429]) {
      standIn.failNext(status);
      expect((await rate().expect(503)).body).toMatchObject({ message: UNAVAILABLE, code: 'unavailable' });
    }
    expect((await rate().expect(200)).body).toMatchObject({ xlmPerUsd: 10 });
  });
});

describe('GET /stellar/check-account/{address}', () => {
  const funded = (xlm: string) => {
    const address = Keypair.random().publicKey();
    standIn.fund(address, xlm);
    return address;
  };

  it('when the account holds exactly 3 XLM, then it passed', async () => {
    expect((await check(funded('3')).expect(200)).body).toEqual({ passed: true, errorMessage: '' });
    expect((await check(funded('250.5')).expect(200)).body).toEqual({ passed: true, errorMessage: '' });
  });

  it("when it holds one stroop less than 3 XLM, then it did not pass: 'Insufficient account balance'", async () => {
    expect((await check(funded('2.9999999')).expect(200)).body).toEqual({ passed: false, errorMessage: 'Insufficient account balance' });
  });

  it('when the account does not exist on the network, then it did not pass, and the message says to fund it', async () => {
    expect((await check(Keypair.random().publicKey()).expect(200)).body).toEqual({ passed: false, errorMessage: NO_ACCOUNT });
  });

  it('when the address is not a Stellar account address, then 400 with the message, and Horizon is not asked', async () => {
    const address = Keypair.random().publicKey();
    const typo = `${address.slice(0, 10)}${address[10] === 'A' ? 'B' : 'A'}${address.slice(11)}`;
    const reads = standIn.requests.length;
    for (const wrong of ['GABC', typo, address.toLowerCase(), Keypair.random().secret(), StrKey.encodeContract(Buffer.alloc(32, 1))]) {
      const res = await check(wrong).expect(400);
      expect(res.body).toMatchObject({ message: INVALID_ADDRESS, code: 'bad_request', errors: [{ path: 'address', message: INVALID_ADDRESS }] });
    }
    expect(standIn.requests.length).toBe(reads);
  });

  it('when nobody is signed in, then 401', async () => {
    await request(app)
      .get(`/api/v2/stellar/check-account/${funded('10')}`)
      .expect(401);
  });

  it('when Horizon cannot be reached or answers 5xx, then 503 with the message', async () => {
    const address = funded('10');
    standIn.failNext(502);
    expect((await check(address).expect(503)).body).toMatchObject({ message: UNAVAILABLE, code: 'unavailable' });
    await standIn.stop();
    try {
      expect((await check(address).expect(503)).body).toMatchObject({ message: UNAVAILABLE, code: 'unavailable' });
    } finally {
      await standIn.restart();
    }
    expect((await check(address).expect(200)).body).toEqual({ passed: true, errorMessage: '' });
  });

  it('when a member sends more than 30 checks in a minute, even at once, then the rest are 429 with Retry-After; another member is not limited', async () => {
    clock = freezeInWindow(60_000, 5_000);
    const address = funded('10');

    const answers = await Promise.all(Array.from({ length: 31 }, () => check(address)));

    expect(answers.map((res) => res.status).sort()).toEqual([...Array(30).fill(200), 429]);
    const limited = answers.find((res) => res.status === 429)!;
    expect(limited.body).toMatchObject({ message: 'Too many account checks. Please wait a minute and try again.', code: 'too_many_requests' });
    expect(limited.headers['retry-after']).toBe('55');
    await check(address, bea).expect(200);
    clock.advance(55_000);
    await check(address).expect(200);
  });
});
