/**
 * The rate limiter: exact counts however many hits arrive at once, from one process or two, a clear that
 * starts the count again, and Retry-After that says when the window ends.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import request from 'supertest';
import { clearLimit, consumeLimit, countHit, purgeExpiredLimits, RateLimitModel, TooManyRequests, type Limit } from '../../server/lib/rate-limit';
import { loadConfig } from '../../server/config';
import { LOGIN_LIMITS, SIGNUP_LIMITS } from '../../server/modules/auth/testing';
import { LOOKUP_LIMIT } from '../../server/modules/users/testing';
import { createTestApp, TEST_JWT_SECRET } from '../helpers/app';
import { newSignup } from '../helpers/auth';
import { freezeInWindow, type FrozenDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { startSecondApp } from '../helpers/second-process';
import { waitUntil } from '../helpers/wait';

useTestDatabase();

const MINUTE = 60_000;
const LIMIT: Limit = { max: 20, windowMs: 15 * MINUTE };
const newKey = () => `test:${randomBytes(4).toString('hex')}`;
/** A moment `intoMs` after noon (UTC) of a fixed day: noon starts a 15-minute window, as windows count from the Unix epoch. */
const inWindow = (intoMs: number) => new Date(Date.UTC(2026, 10, 24, 12, 0) + intoMs);

/** The seconds a 429 tells the caller to wait, or undefined when the call was let through. */
async function retryAfterOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (err) {
    if (!(err instanceof TooManyRequests)) throw err;
    return err.retryAfterSeconds;
  }
}

describe('counting hits', () => {
  it('when 30 hits of one key come at once, then they count 1 to 20 exactly once each and the other 10 are past the limit', async () => {
    const key = newKey();
    const counts = await Promise.all(Array.from({ length: 30 }, () => countHit(key, LIMIT, inWindow(MINUTE))));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual([...Array.from({ length: 20 }, (_, i) => i + 1), ...Array<number>(10).fill(21)]);
    expect(new Set(counts.map((c) => c.resetAt.toISOString()))).toEqual(new Set([inWindow(15 * MINUTE).toISOString()]));
  });

  it('when 30 calls limited to 20 come at once, then exactly 20 pass', async () => {
    const key = newKey();
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => retryAfterOf(consumeLimit(key, LIMIT, 'Too many.', inWindow(MINUTE)))));
    expect(outcomes.filter((o) => o === undefined)).toHaveLength(20);
    expect(outcomes.filter((o) => o === 14 * 60)).toHaveLength(10);
  });

  it('when the window ends, then the count starts again from 1', async () => {
    const key = newKey();
    for (let i = 0; i < 3; i++) await countHit(key, LIMIT, inWindow(MINUTE));
    expect((await countHit(key, LIMIT, inWindow(15 * MINUTE - 1))).count).toBe(4);
    expect((await countHit(key, LIMIT, inWindow(15 * MINUTE))).count).toBe(1);
  });

  it('when the hits collection is emptied, then counts start again from 1 in every process', async () => {
    const key = newKey();
    for (let i = 0; i < 3; i++) await countHit(key, LIMIT, inWindow(MINUTE));
    await RateLimitModel.deleteMany({});
    expect((await countHit(key, LIMIT, inWindow(MINUTE))).count).toBe(1);
  });
});

describe('Retry-After', () => {
  it('when the limit is used up, then the caller is told the seconds left in the window, rounded up, and let through when it ends', async () => {
    const key = newKey();
    for (let i = 0; i < LIMIT.max; i++) await consumeLimit(key, LIMIT, 'Too many.', inWindow(MINUTE));
    expect(await retryAfterOf(consumeLimit(key, LIMIT, 'Too many.', inWindow(100_000)))).toBe(800);
    expect(await retryAfterOf(consumeLimit(key, LIMIT, 'Too many.', inWindow(100_500)))).toBe(800);
    expect(await retryAfterOf(consumeLimit(key, LIMIT, 'Too many.', inWindow(15 * MINUTE - 1)))).toBe(1);
    expect(await retryAfterOf(consumeLimit(key, LIMIT, 'Too many.', inWindow(15 * MINUTE)))).toBeUndefined();
  });

  it('when the limit is one short, then the call is let through and counted: the next one is refused', async () => {
    const key = newKey();
    for (let i = 0; i < LIMIT.max - 1; i++) await countHit(key, LIMIT, inWindow(MINUTE));
    expect(await retryAfterOf(consumeLimit(key, LIMIT, 'Too many.', inWindow(MINUTE)))).toBeUndefined();
    expect(await retryAfterOf(consumeLimit(key, LIMIT, 'Too many.', inWindow(MINUTE)))).toBe(14 * 60);
  });
});

describe('clearing a limit', () => {
  it('when a used-up key is cleared, then the next hit counts 1 and calls are let through; another key keeps its count', async () => {
    const [key, other] = [newKey(), newKey()];
    for (let i = 0; i < LIMIT.max; i++) await Promise.all([countHit(key, LIMIT, inWindow(MINUTE)), countHit(other, LIMIT, inWindow(MINUTE))]);
    await clearLimit(key, inWindow(2 * MINUTE));
    expect((await countHit(key, LIMIT, inWindow(2 * MINUTE))).count).toBe(1);
    expect(await retryAfterOf(consumeLimit(key, LIMIT, 'Too many.', inWindow(2 * MINUTE)))).toBeUndefined();
    expect(await retryAfterOf(consumeLimit(other, LIMIT, 'Too many.', inWindow(2 * MINUTE)))).toBe(13 * 60);
  });

  it('when a key is cleared twice in one window, then each clear starts the count again', async () => {
    const key = newKey();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3; i++) await countHit(key, LIMIT, inWindow(MINUTE));
      await clearLimit(key, inWindow(MINUTE));
      expect((await countHit(key, LIMIT, inWindow(MINUTE))).count).toBe(1);
    }
  });
});

describe('housekeeping', () => {
  it('when a window has ended, then its hits are deleted and the current window keeps its own', async () => {
    const key = newKey();
    await countHit(key, LIMIT, inWindow(MINUTE));
    await countHit(key, LIMIT, inWindow(16 * MINUTE));
    await clearLimit(key, inWindow(MINUTE));
    await purgeExpiredLimits(inWindow(16 * MINUTE));
    expect((await RateLimitModel.find({}).lean()).map((hit) => hit._id).filter((id) => id.startsWith(`${key}|`))).toEqual([
      `${key}|${inWindow(15 * MINUTE).getTime()}|0|1`,
    ]);
    expect((await countHit(key, LIMIT, inWindow(16 * MINUTE))).count).toBe(2);
  });
});

describe('the client address behind a load balancer', () => {
  // TRUST_PROXY=1, as the README says to set it behind one load balancer: the balancer appends the address it saw
  // to whatever X-Forwarded-For the client wrote, and only that last entry is the client's address.
  const oneProxy = loadConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, DATA_DIR: os.tmpdir(), TRUST_PROXY: '1' }).trustProxy;
  const CLIENT = '203.0.113.77';
  const throughBalancer = (written: string | null) => (written ? `${written}, ${CLIENT}` : CLIENT);
  let clock: FrozenDate;
  beforeEach(() => {
    // A minute into the hour-long sign-up window and the 15-minute sign-in window.
    clock = freezeInWindow(60 * MINUTE, MINUTE);
  });
  afterEach(() => clock.restore());

  it('when a client used up the sign-up limit, then entries it writes into X-Forwarded-For do not make it a new address: 429 still', async () => {
    const app = createTestApp({ config: { trustProxy: oneProxy } });
    const signup = (written: string | null, body: object) =>
      request(app).post('/api/v2/auth/signup').set('X-Forwarded-For', throughBalancer(written)).send(body);
    const first = newSignup();
    await signup(null, first).expect(201);
    for (let i = 1; i < SIGNUP_LIMITS.address.max; i++) await signup(null, newSignup({ username: first.username })).expect(400);

    for (const written of ['198.51.100.1', '198.51.100.2, 198.51.100.3', 'unknown', CLIENT]) {
      const res = await signup(written, newSignup()).expect(429);
      expect(res.body).toMatchObject({ code: 'too_many_requests', message: 'Too many sign-ups. Please wait and try again.' });
    }
    // Another client behind the same balancer signs up.
    await request(app).post('/api/v2/auth/signup').set('X-Forwarded-For', '192.0.2.1, 198.51.100.9').send(newSignup()).expect(201);
  });

  it('when a client failed 20 sign-ins, then entries it writes into X-Forwarded-For do not make it a new address: 429 still', async () => {
    const app = createTestApp({ config: { trustProxy: oneProxy } });
    const signin = (written: string | null, i: number) =>
      request(app)
        .post('/api/v2/auth/signin')
        .set('X-Forwarded-For', throughBalancer(written))
        .send({ email: `nobody${i}@example.com`, password: 'Wr0ng!pass' });
    for (let i = 0; i < LOGIN_LIMITS.address.max; i++) await signin(`198.51.100.${i}`, i).expect(401);
    const res = await signin('198.51.100.200', 99).expect(429);
    expect(res.body.message).toBe('Too many failed sign-in attempts. Please wait and try again.');
  });
});

describe('two app processes', () => {
  it('when 100 look-ups limited to 60 a minute come at once from one address through two processes, then exactly 60 are answered', async () => {
    const app = createTestApp();
    const second = await startSecondApp();
    try {
      // The burst must fall in one window: not in the last 20 seconds of a minute.
      await waitUntil(() => LOOKUP_LIMIT.windowMs - (Date.now() % LOOKUP_LIMIT.windowMs) > 20_000, { timeoutMs: 30_000, what: 'a window with time left' });
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => request(i % 2 ? second.url : app).get(`/api/v2/user/get-user-by-email/nobody${i}%40example.com`)),
      );
      expect(answers.filter((a) => a.status === 404)).toHaveLength(LOOKUP_LIMIT.max);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(100 - LOOKUP_LIMIT.max);
      expect(refused.every((a) => a.body.message === 'Too many look-ups. Please wait and try again.')).toBe(true);
    } finally {
      await second.stop();
    }
  }, 90_000);
});
