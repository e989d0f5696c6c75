/**
 * Plans and subscriptions on the real database: prices from the plans collection (an admin changes them),
 * subscribing through the sandbox checkout and its signed webhook, credits granted once per paid month
 * (replays and concurrent deliveries included), renewals, cancelling, a failed renewal, the privacy choice that
 * a plan opens, credits that only admins change, every credit movement recorded, and the Stripe driver in
 * subscription mode against a stand-in that speaks Stripe's API.
 */
import { Types } from 'mongoose';
import request from 'supertest';
import type { PaymentsConfig } from '../../server/config';
import { seedReferenceData } from '../../server/db/seed';
import { sandboxProvider, signatureHeader, type SignedDelivery } from '../../server/integrations/payments';
import { smtpMailer } from '../../server/integrations/mail';
import { createLogger } from '../../server/lib/logger';
import { ContentModel } from '../../server/modules/contents';
import { createSubscriptionsService, PlanModel, SubscriptionModel } from '../../server/modules/subscriptions';
import { UserExtModel } from '../../server/modules/users';
import { createTestApp, testConfig } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { freezeDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { publishPiece, type Member } from '../helpers/e2e-pieces';
import { startSmtpServer } from '../helpers/smtp';
import { startStripeStandIn } from '../helpers/stripe-standin';

useTestDatabase();

type App = ReturnType<typeof createTestApp>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: App;
let admin: Member;

const config = testConfig();
/** The sandbox as the app runs it (same secrets), to replay its deliveries and charge its renewals. */
const sandbox = sandboxProvider({ publicUrl: config.publicUrl, webhookSecret: config.payments.webhookSecret, payerKey: config.payments.sandboxPayerKey });
const bearer = (m: Member) => ({ Authorization: `Bearer ${m.token}` });
const pathOf = (url: string) => new URL(url).pathname;
const MONTH_MS = 31 * 24 * 3600_000;

const deliver = (delivery: SignedDelivery, on: App = app) =>
  request(on)
    .post('/api/v2/payments/webhook/sandbox')
    .set(delivery.headers as Record<string, string>)
    .send(delivery.rawBody.toString());

const creditsOf = async (m: Member) => {
  const ext = await UserExtModel.findOne({ userId: new Types.ObjectId(m.user.id) }).lean();
  return { sCredit: ext?.sCredit ?? 0, pCredit: ext?.pCredit ?? 0 };
};
const subscribe = (m: Member, planId: number, on: App = app) => request(on).post('/api/v2/subscription/create').set(bearer(m)).send({ planId });
const statusOf = (m: Member, subscriptionId: string) => request(app).get(`/api/v2/subscription/status/${subscriptionId}`).set(bearer(m));
const currentOf = (m: Member, of: Member = m) => request(app).get(`/api/v2/subscription/${of.user.id}`).set(bearer(m));
const setRenewal = (m: Member, subscriptionId: string, cancelAtPeriodEnd: boolean) =>
  request(app).post('/api/v2/subscription/update').set(bearer(m)).send({ subscriptionId, cancelAtPeriodEnd });

/** Opens a checkout for `planId` and decides it on the sandbox page, in the browser that started it. */
async function checkout(m: Member, planId: number, decision: 'approve' | 'decline') {
  const res = await subscribe(m, planId).expect(201);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('knack_checkout_payer='))!;
  const page = await request(app).get(pathOf(res.body.checkoutUrl)).set('Cookie', cookie.split(';')[0]!).expect(200);
  const decided = await request(app).post(pathOf(res.body.checkoutUrl)).set('Cookie', cookie.split(';')[0]!).type('form').send({ decision }).expect(303);
  const subscriptionId = res.body.subscriptionId as string;
  const sessionId = pathOf(res.body.checkoutUrl).split('/').pop()!;
  return { subscriptionId, sessionId, page: page.text, location: decided.headers.location as string };
}

async function member(firstName: string) {
  return createActiveMember(app, smtp, { firstName });
}

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test') });
  admin = await createActiveMember(app, smtp, { firstName: 'Admin', email: 'admin@knack.example' });
}, 60_000);

afterAll(async () => smtp.stop());

describe('plans and their prices', () => {
  it('when anyone asks for the plans, then each has its credits and a monthly price equal to their list value', async () => {
    const res = await request(app).get('/api/v2/subscription/all-plans').expect(200);
    expect(res.body.plans).toEqual([
      { planId: 1, name: 'Standard', sCredits: 3, pCredits: 0, priceMicros: 1_950_000, price: 1.95 },
      { planId: 2, name: 'Premium', sCredits: 1, pCredits: 1, priceMicros: 13_050_000, price: 13.05 },
    ]);
    expect(res.body.listingFees).toEqual({ standard: 0.65, premium: 12.4, premiumFromKnack: 0.99 });
  });

  it('when an admin changes a price, then the plans show it and the next checkout charges it; a member may not', async () => {
    const mia = await member('Mia');
    const refused = await request(app).post('/api/v2/subscription/update-plan').set(bearer(mia)).send({ planId: 1, priceMicros: 100_000_000 }).expect(403);
    expect(refused.body.message).toBe('Only admins can change plans.');
    await request(app).post('/api/v2/subscription/update-plan').set(bearer(admin)).send({ planId: 1, priceMicros: 2_500_000 }).expect(200);
    try {
      const plans = (await request(app).get('/api/v2/subscription/all-plans').expect(200)).body.plans;
      expect(plans[0]).toMatchObject({ planId: 1, price: 2.5 });
      const opened = await checkout(mia, 1, 'decline');
      expect(opened.page).toContain('$2.50');
      expect(opened.page).toContain('a month');
    } finally {
      await PlanModel.updateOne({ planId: 1 }, { $set: { priceMicros: 1_950_000 } });
    }
    const badPrice = await request(app).post('/api/v2/subscription/update-plan').set(bearer(admin)).send({ planId: 1, priceMicros: 1_234_567 }).expect(400);
    expect(badPrice.body.message).toMatch(/multiple of 10000/);
    await request(app).post('/api/v2/subscription/update-plan').set(bearer(admin)).send({ planId: 9, priceMicros: 1_000_000 }).expect(404);
  });
});

describe('subscribing through the sandbox checkout', () => {
  it('when a member approves Plan 2, then the webhook makes it active, grants 1 + 1 credits, and the return page learns "Subscription approved!"', async () => {
    const ned = await member('Ned');
    const res = await subscribe(ned, 2).expect(201);
    expect(res.body).toEqual({ status: 'checkout', subscriptionId: expect.stringMatching(/^sub_[0-9a-f]{20}$/), checkoutUrl: expect.any(String) });
    expect((await statusOf(ned, res.body.subscriptionId).expect(200)).body).toMatchObject({
      message: 'Waiting for the payment to be confirmed.',
      subscription: { status: 'pending', planId: 2 },
    });
    expect((await currentOf(ned).expect(200)).body).toEqual({ subscription: null });

    const { subscriptionId, location, page } = await checkout(ned, 2, 'approve');
    // The first checkout above is still open; this one was approved.
    expect(page).toContain('$13.05');
    expect(location).toBe(`http://knack.test/approve?subscription=${subscriptionId}`);
    const status = (await statusOf(ned, subscriptionId).expect(200)).body;
    expect(status.message).toBe('Subscription approved!');
    expect(status.subscription).toMatchObject({ status: 'active', planId: 2, cancelAtPeriodEnd: false, renewalFailed: false });
    const end = new Date(status.subscription.currentPeriodEnd).getTime();
    expect(end - Date.now()).toBeGreaterThan(27 * 24 * 3600_000);
    expect(end - Date.now()).toBeLessThanOrEqual(MONTH_MS);
    expect(await creditsOf(ned)).toEqual({ sCredit: 1, pCredit: 1 });
    expect((await currentOf(ned).expect(200)).body.subscription).toMatchObject({ subscriptionId, status: 'active' });

    const movements = (await request(app).get(`/api/v2/user-setting/credits/${ned.user.id}`).set(bearer(ned)).expect(200)).body;
    expect(movements.credits).toEqual({ sCredit: 1, pCredit: 1 });
    expect(movements.movements).toEqual([expect.objectContaining({ standard: 1, premium: 1, reason: 'plan', ref: subscriptionId })]);
  });

  it('when the member declines, then the return page learns "Subscription payment failed", no credits and no plan', async () => {
    const ola = await member('Ola');
    const { subscriptionId, location } = await checkout(ola, 2, 'decline');
    expect(location).toBe(`http://knack.test/cancel?subscription=${subscriptionId}`);
    expect((await statusOf(ola, subscriptionId).expect(200)).body).toMatchObject({
      message: 'Subscription payment failed',
      subscription: { status: 'failed' },
    });
    expect(await creditsOf(ola)).toEqual({ sCredit: 0, pCredit: 0 });
    expect((await currentOf(ola).expect(200)).body).toEqual({ subscription: null });
  });

  it('when the approval webhook is delivered 5 times, at once and again, or resent under a new event id, then the credits come once', async () => {
    const pia = await member('Pia');
    const { sessionId, subscriptionId } = await checkout(pia, 2, 'approve');
    const decided = (await sandbox.decide(sessionId, true))!;
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(decided.delivery).expect(200)));
    expect(answers.every((res) => res.body.received === true)).toBe(true);
    // The same month's payment told again by a new event (a provider's second notice): still once.
    const event = JSON.parse(decided.delivery.rawBody.toString());
    const resent = JSON.stringify({ ...event, id: `${event.id}_resent` });
    await request(app)
      .post('/api/v2/payments/webhook/sandbox')
      .set({ 'Content-Type': 'application/json', 'Knack-Signature': signatureHeader(config.payments.webhookSecret, resent) })
      .send(resent)
      .expect(200);
    expect(await creditsOf(pia)).toEqual({ sCredit: 1, pCredit: 1 });
    const movements = (await request(app).get(`/api/v2/user-setting/credits/${pia.user.id}`).set(bearer(pia)).expect(200)).body.movements;
    expect(movements).toHaveLength(1);
    expect(movements[0]).toMatchObject({ reason: 'plan', ref: subscriptionId });
  });

  it('when a forged subscription webhook arrives, then it is refused and grants nothing', async () => {
    const quin = await member('Quin');
    const res = await subscribe(quin, 2).expect(201);
    const forged = JSON.stringify({ id: 'evt_forged', type: 'subscription.paid', created: 1, data: { subscriptionId: res.body.subscriptionId } });
    await request(app)
      .post('/api/v2/payments/webhook/sandbox')
      .set({ 'Content-Type': 'application/json', 'Knack-Signature': signatureHeader('not-the-secret', forged) })
      .send(forged)
      .expect(400);
    expect(await creditsOf(quin)).toEqual({ sCredit: 0, pCredit: 0 });
    expect((await statusOf(quin, res.body.subscriptionId).expect(200)).body.subscription.status).toBe('pending');
  });

  it('when a member already has a renewing plan, then subscribing again is refused with a reason, and another member cannot read or change it', async () => {
    const rex = await member('Rex');
    const sue = await member('Sue');
    const { subscriptionId } = await checkout(rex, 1, 'approve');
    expect((await subscribe(rex, 1).expect(409)).body.message).toBe('You already have this plan.');
    expect((await subscribe(rex, 2).expect(409)).body.message).toBe('Your current plan renews every month. Cancel its renewal before you choose another plan.');
    await statusOf(sue, subscriptionId).expect(404);
    await setRenewal(sue, subscriptionId, true).expect(404);
    await currentOf(sue, rex).expect(404);
    expect((await currentOf(admin, rex).expect(200)).body.subscription.subscriptionId).toBe(subscriptionId);
    await subscribe(rex, 7).expect(404);
  });
});

describe('renewals, cancelling and a failed renewal', () => {
  const subscriptions = createSubscriptionsService({ provider: sandbox, publicUrl: config.publicUrl, logger: createLogger('silent') });
  const renewDue = (now: Date) => subscriptions.renewDueSandboxSubscriptions(async (delivery) => void (await deliver(delivery).expect(200)), now);
  const providerIdOf = async (subscriptionId: string) => (await SubscriptionModel.findById(subscriptionId).lean())!.providerSubscriptionId!;

  it('when a month ends, then the renewal adds the credits once more (however often it is delivered) and the plan runs a month longer', async () => {
    const tom = await member('Tom');
    const { subscriptionId } = await checkout(tom, 2, 'approve');
    const firstEnd = (await SubscriptionModel.findById(subscriptionId).lean())!.currentPeriodEnd!;
    expect(await renewDue(new Date(firstEnd.getTime() - 60_000))).toBe(0);

    const providerId = await providerIdOf(subscriptionId);
    const renewal = (await sandbox.renew(providerId, true, new Date(firstEnd.getTime() + 1000)))!;
    await Promise.all([deliver(renewal), deliver(renewal), deliver(renewal)].map((call) => call.expect(200)));
    expect(await creditsOf(tom)).toEqual({ sCredit: 2, pCredit: 2 });
    const renewed = (await SubscriptionModel.findById(subscriptionId).lean())!;
    expect(renewed.currentPeriodEnd!.getTime()).toBeGreaterThan(firstEnd.getTime() + 27 * 24 * 3600_000);
    // The same month is not charged again.
    expect(await sandbox.renew(providerId, true, new Date(firstEnd.getTime() + 2000))).toBeNull();
  });

  it('when the renewal job runs after a month, then it renews through the webhook; after cancelling, the plan ends with its month and nothing renews', async () => {
    const uma = await member('Uma');
    const { subscriptionId } = await checkout(uma, 2, 'approve');
    const firstEnd = (await SubscriptionModel.findById(subscriptionId).lean())!.currentPeriodEnd!;
    expect(await renewDue(new Date(firstEnd.getTime() + 1000))).toBeGreaterThanOrEqual(1);
    expect(await creditsOf(uma)).toEqual({ sCredit: 2, pCredit: 2 });

    const cancelled = (await setRenewal(uma, subscriptionId, true).expect(200)).body.subscription;
    expect(cancelled).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' });
    const secondEnd = new Date(cancelled.currentPeriodEnd);
    await renewDue(new Date(secondEnd.getTime() + 1000));
    expect(await creditsOf(uma)).toEqual({ sCredit: 2, pCredit: 2 });
    expect((await SubscriptionModel.findById(subscriptionId).lean())!.status).toBe('ended');
    expect((await currentOf(uma).expect(200)).body).toEqual({ subscription: null });
  });

  it('when a renewal payment fails, then no credits come, the plan lasts to the end of the paid month, cannot be resumed, and then privacy needs a plan again', async () => {
    const vic = await member('Vic');
    const photo = await publishPiece(app, vic, { title: 'Vic Frame', tag: 'Photos', subTag: 'Travel', hue: 200 });
    const { subscriptionId } = await checkout(vic, 2, 'approve');
    const end = (await SubscriptionModel.findById(subscriptionId).lean())!.currentPeriodEnd!;
    const failed = (await sandbox.renew(await providerIdOf(subscriptionId), false, new Date(end.getTime() + 1000)))!;
    await deliver(failed).expect(200);
    await deliver(failed).expect(200);
    expect(await creditsOf(vic)).toEqual({ sCredit: 1, pCredit: 1 });
    const now = (await currentOf(vic).expect(200)).body.subscription;
    expect(now).toMatchObject({ subscriptionId, renewalFailed: true, cancelAtPeriodEnd: true });
    expect((await setRenewal(vic, subscriptionId, false).expect(409)).body.message).toBe(
      'The last renewal of this plan failed, so it cannot be resumed. Choose a plan again.',
    );
    const followersOnly = { public: false, private: false, followers: true, hidePlayCount: false, hideViewCount: false };
    await request(app).post('/api/v2/content/update-setting').set(bearer(vic)).send({ contentId: photo.id, setting: followersOnly }).expect(200);

    const clock = freezeDate(end.getTime() + 60_000);
    try {
      // A month on, the member signs in again (the earlier session's token has expired).
      const signedIn = await request(app).post('/api/v2/auth/signin').send({ email: vic.form.email, password: vic.form.password }).expect(200);
      const later = { ...vic, token: signedIn.body.token as string };
      expect((await currentOf(later).expect(200)).body).toEqual({ subscription: null });
      const refused = await request(app)
        .post('/api/v2/content/update-setting')
        .set(bearer(later))
        .send({ contentId: photo.id, setting: followersOnly })
        .expect(403);
      expect(refused.body.message).toBe('Changing who can see a piece needs a subscription plan above Standard.');
    } finally {
      clock.restore();
    }
  });
});

describe('credits: only admins change them, and every movement is recorded', () => {
  it('when a member tries to give themselves credits, then 403; an admin adds and takes with a note, never below zero', async () => {
    const wes = await member('Wes');
    for (const call of ['update-scredits', 'update-pcredits']) {
      const res = await request(app).post(`/api/v2/user-setting/${call}`).set(bearer(wes)).send({ userId: wes.user.id, amount: 5 }).expect(403);
      expect(res.body.message).toBe('Only admins can change credits.');
    }
    expect(await creditsOf(wes)).toEqual({ sCredit: 0, pCredit: 0 });

    const added = await request(app)
      .post('/api/v2/user-setting/update-pcredits')
      .set(bearer(admin))
      .send({ userId: wes.user.id, amount: 2, note: 'Launch gift' })
      .expect(200);
    expect(added.body).toEqual({ credits: { sCredit: 0, pCredit: 2 } });
    const below = await request(app).post('/api/v2/user-setting/update-pcredits').set(bearer(admin)).send({ userId: wes.user.id, amount: -3 }).expect(400);
    expect(below.body.message).toBe('Credits cannot go below zero.');
    await request(app).post('/api/v2/user-setting/update-pcredits').set(bearer(admin)).send({ userId: wes.user.id, amount: -1 }).expect(200);
    await request(app).post('/api/v2/user-setting/update-scredits').set(bearer(admin)).send({ userId: wes.user.id, amount: 0 }).expect(400);
    await request(app).post('/api/v2/user-setting/update-scredits').set(bearer(admin)).send({ userId: new Types.ObjectId().toString(), amount: 1 }).expect(404);

    const history = (await request(app).get(`/api/v2/user-setting/credits/${wes.user.id}`).set(bearer(wes)).expect(200)).body;
    expect(history.credits).toEqual({ sCredit: 0, pCredit: 1 });
    expect(history.movements.map(({ premium, reason, note }: { premium: number; reason: string; note: string | null }) => ({ premium, reason, note }))).toEqual(
      [
        { premium: -1, reason: 'admin', note: null },
        { premium: 2, reason: 'admin', note: 'Launch gift' },
      ],
    );
    await request(app)
      .get(`/api/v2/user-setting/credits/${wes.user.id}`)
      .set(bearer(await member('Xia')))
      .expect(404);
  });

  it('when a plan credit pays a listing, then the use is recorded against the piece, and the movements sum to the credits left', async () => {
    const yan = await member('Yan');
    await checkout(yan, 1, 'approve');
    const photo = await publishPiece(app, yan, { title: 'Yan Frame', tag: 'Photos', subTag: 'Travel', hue: 40 });
    const paid = await request(app).post('/api/v2/content/paid').set(bearer(yan)).send({ userId: yan.user.id, contentId: photo.id }).expect(200);
    expect(paid.body.status).toBe('paid');
    expect((await ContentModel.findById(photo.id).lean())!.isPaidOut).toBe(true);
    const history = (await request(app).get(`/api/v2/user-setting/credits/${yan.user.id}`).set(bearer(yan)).expect(200)).body;
    expect(history.credits).toEqual({ sCredit: 2, pCredit: 0 });
    expect(history.movements[0]).toMatchObject({ standard: -1, premium: 0, reason: 'listing', ref: photo.id });
    const sum = history.movements.reduce((total: number, m: { standard: number }) => total + m.standard, 0);
    expect(sum).toBe(history.credits.sCredit);
  });
});

describe('Stripe Checkout in subscription mode', () => {
  const secretKey = 'sk_test_subscriptions';
  const webhookSecret = 'whsec_subscriptions';
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
  let stripeApp: App;

  beforeAll(async () => {
    stripe = await startStripeStandIn({ secretKey, webhookSecret });
    const payments: PaymentsConfig = { ...config.payments, provider: 'stripe', stripe: { secretKey, webhookSecret, apiUrl: stripe.url } };
    stripeApp = createTestApp({ config: { payments }, mailer: smtpMailer(smtp.url, 'x@knack.test') });
  });
  afterAll(async () => stripe.stop());

  const stripeDeliver = (event: { payload: string; header: string }) =>
    request(stripeApp)
      .post('/api/v2/payments/webhook/stripe')
      .set({ 'Content-Type': 'application/json', 'Stripe-Signature': event.header })
      .send(event.payload);

  it('when a member subscribes, then a monthly subscription checkout is made; each paid invoice grants the credits once; cancelling tells Stripe', async () => {
    const zed = await member('Zed');
    const res = await subscribe(zed, 2, stripeApp).expect(201);
    const { subscriptionId } = res.body;
    const sent = stripe.requests.at(-1)!;
    expect(sent.headers['idempotency-key']).toBe(subscriptionId);
    expect(sent.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][unit_amount]': '1305',
      'line_items[0][price_data][recurring][interval]': 'month',
      'subscription_data[metadata][subscriptionId]': subscriptionId,
      client_reference_id: subscriptionId,
      success_url: `http://knack.test/approve?subscription=${subscriptionId}`,
    });
    expect(res.body.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\//);

    const periodStart = Math.floor(Date.now() / 1000);
    const invoice = (start: number) => ({
      id: `in_${start}`,
      object: 'invoice',
      billing_reason: 'subscription_cycle',
      parent: { subscription_details: { subscription: 'sub_stripe123', metadata: { subscriptionId } } },
      lines: { data: [{ period: { start, end: start + 30 * 24 * 3600 } }] },
    });
    const paid = stripe.eventAbout('invoice.paid', invoice(periodStart));
    for (let i = 0; i < 5; i += 1) await stripeDeliver(paid).expect(200);
    expect(await creditsOf(zed)).toEqual({ sCredit: 1, pCredit: 1 });
    expect((await statusOf(zed, subscriptionId).expect(200)).body.message).toBe('Subscription approved!');

    await stripeDeliver(stripe.eventAbout('invoice.paid', invoice(periodStart + 30 * 24 * 3600))).expect(200);
    expect(await creditsOf(zed)).toEqual({ sCredit: 2, pCredit: 2 });

    await request(stripeApp).post('/api/v2/subscription/update').set(bearer(zed)).send({ subscriptionId, cancelAtPeriodEnd: true }).expect(200);
    const cancel = stripe.requests.at(-1)!;
    expect(cancel.headers.path).toBe('/v1/subscriptions/sub_stripe123');
    expect(cancel.form).toEqual({ cancel_at_period_end: 'true' });

    await stripeDeliver(
      stripe.eventAbout('customer.subscription.deleted', { id: 'sub_stripe123', object: 'subscription', metadata: { subscriptionId } }),
    ).expect(200);
    expect((await SubscriptionModel.findById(subscriptionId).lean())!.status).toBe('ended');
  });
});
