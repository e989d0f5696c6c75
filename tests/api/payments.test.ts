/**
 * Listing fees on the real database: the quote, paying with a credit (owner or supporter), the sandbox
 * checkout's approve and decline through the signed webhook path, webhooks replayed, forged or late, orders
 * only for their payer, discount codes (exact messages, uses counted under concurrency), and the Stripe driver
 * against a stand-in that speaks Stripe's API.
 */
import os from 'node:os';
import { Types } from 'mongoose';
import request from 'supertest';
import { loadConfig, type PaymentsConfig } from '../../server/config';
import { seedReferenceData } from '../../server/db/seed';
import { SandboxRefundModel, signatureHeader } from '../../server/integrations/payments';
import { anyOf } from '../../server/lib/query';
import { smtpMailer } from '../../server/integrations/mail';
import { PROVIDER_ATTEMPTS } from '../../server/lib/provider-retry';
import { RateLimitModel } from '../../server/lib/rate-limit';
import { ContentModel } from '../../server/modules/contents';
import { LedgerEntryModel } from '../../server/modules/ledger';
import {
  DiscountCodeModel,
  DiscountUseModel,
  PAYMENT_MESSAGES,
  PaymentEventModel,
  PaymentOrderModel,
  paymentOrderListsState,
} from '../../server/modules/payments';
import { UserExtModel } from '../../server/modules/users';
import { createTestApp, testConfig, TEST_JWT_SECRET } from '../helpers/app';
import { freezeInWindow, type FrozenDate } from '../helpers/clock';
import { createActiveMember } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { publishPiece, type Member, type PublishedPiece } from '../helpers/e2e-pieces';
import { spyOnScans } from '../helpers/read-meter';
import { startSmtpServer } from '../helpers/smtp';
import { startStripeStandIn } from '../helpers/stripe-standin';

useTestDatabase();

type App = ReturnType<typeof createTestApp>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: App;
let ana: Member; // owner
let bea: Member; // supporter
let cara: Member; // someone else
let admin: Member;

const SANDBOX_SECRET = testConfig().payments.webhookSecret;
const RETURN_URL = (orderId: string) => `http://knack.test/profile/default?order=${orderId}`;
const bearer = (m: Member) => ({ Authorization: `Bearer ${m.token}` });
const pay = (m: Member, piece: { id: string }, on: App = app) =>
  request(on).post('/api/v2/content/paid').set(bearer(m)).send({ userId: m.user.id, contentId: piece.id });
const quote = (m: Member, piece: { id: string }) => request(app).get(`/api/v2/payments/listing-quote/${piece.id}`).set(bearer(m));
const orderOf = (m: Member, orderId: string, on: App = app) => request(on).get(`/api/v2/payments/orders/${orderId}`).set(bearer(m));
const pathOf = (url: string) => new URL(url).pathname;
/** The checkout page as the browser that started it sees it: with the payer cookie set by the paying call. */
const openCheckout = (checkout: Checkout) => request(app).get(pathOf(checkout.checkoutUrl)).set('Cookie', checkout.payerCookie);
const decide = (checkout: Checkout, decision: string) =>
  request(app).post(pathOf(checkout.checkoutUrl)).set('Cookie', checkout.payerCookie).type('form').send({ decision });
interface Checkout {
  checkoutUrl: string;
  /** `name=value` of the cookie the paying call set, as a browser sends it back. */
  payerCookie: string;
}
/** The payer cookie of a `content/paid` answer: it must be httpOnly, same-site only and limited to the checkout page. */
function payerCookieOf(res: request.Response, checkoutUrl: string): string {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = cookies.find((c) => c.startsWith('knack_checkout_payer='));
  expect(cookie).toBeDefined();
  expect(cookie).toContain(`Path=${pathOf(checkoutUrl)}`);
  expect(cookie).toMatch(/HttpOnly/);
  expect(cookie).toMatch(/SameSite=Strict/);
  return cookie!.split(';')[0]!;
}
const contentOf = async (piece: { id: string }) => (await ContentModel.findById(piece.id).lean())!;
const listings = () => LedgerEntryModel.find({ kind: 'listing' }).lean();

let hue = 0;
/** A photo of `owner`'s, with a small cover: no test here looks at the picture. */
function piece(title: string, owner: Member = ana): Promise<PublishedPiece> {
  hue = (hue + 37) % 360;
  return publishPiece(app, owner, { title, tag: 'Photos', subTag: 'Travel', hue, coverSide: 64 });
}

/** A piece whose knack is worth $0.99 or more: the premium tier. */
async function premiumPiece(title: string): Promise<PublishedPiece> {
  const published = await piece(title);
  await ContentModel.updateOne({ _id: published.id }, { $set: { knackRateMicros: 990_000 } });
  return published;
}

async function setCredits(m: Member, credits: { sCredit?: number; pCredit?: number }) {
  await UserExtModel.updateOne({ userId: new Types.ObjectId(m.user.id) }, { $set: { sCredit: 0, pCredit: 0, ...credits } }, { upsert: true });
}
const creditsOf = async (m: Member) => {
  const ext = await UserExtModel.findOne({ userId: new Types.ObjectId(m.user.id) }).lean();
  return { sCredit: ext?.sCredit ?? 0, pCredit: ext?.pCredit ?? 0 };
};

/** A sandbox webhook as the sandbox checkout sends it, signed with `secret`. */
function sandboxEvent(event: { id?: string; type: string; orderId: string; sessionId: string }, options: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify({
    id: event.id ?? `evt_test_${new Types.ObjectId()}`,
    type: event.type,
    created: Math.floor(Date.now() / 1000),
    data: { orderId: event.orderId, sessionId: event.sessionId },
  });
  return { payload, header: signatureHeader(options.secret ?? SANDBOX_SECRET, payload, options.timestamp) };
}
const deliver = (provider: string, payload: string, headers: Record<string, string>, on: App = app) =>
  request(on)
    .post(`/api/v2/payments/webhook/${provider}`)
    .set({ 'Content-Type': 'application/json', ...headers })
    .send(payload);

/** A checkout order of `m` for `target`: its id and sandbox session. */
async function sandboxOrder(m: Member, target: { id: string }) {
  const res = await pay(m, target).expect(200);
  expect(res.body.status).toBe('checkout');
  const order = (await PaymentOrderModel.findById(res.body.orderId).lean())!;
  const checkoutUrl = res.body.checkoutUrl as string;
  return { orderId: res.body.orderId as string, sessionId: order.sessionId!, checkoutUrl, payerCookie: payerCookieOf(res, checkoutUrl) };
}

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test') });
  ana = await createActiveMember(app, smtp, { firstName: 'Ana' });
  bea = await createActiveMember(app, smtp, { firstName: 'Bea' });
  cara = await createActiveMember(app, smtp, { firstName: 'Cara' });
  admin = await createActiveMember(app, smtp, { firstName: 'Admin', email: 'admin@knack.example' });
}, 60_000);

afterAll(async () => smtp.stop());

beforeEach(async () => {
  await Promise.all([setCredits(ana, {}), setCredits(bea, {}), setCredits(cara, {})]);
});

describe('GET /payments/listing-quote/{id}', () => {
  it('when a piece is worth less than $0.99 a knack, then it is standard at $0.65, and a standard credit is offered once the member has one', async () => {
    const photo = await piece('Standard Quote');
    expect((await quote(ana, photo).expect(200)).body).toEqual({
      contentId: photo.id,
      tier: 'standard',
      fee: 0.65,
      feeMicros: 650_000,
      credit: null,
      creditsLeft: 0,
      isPaidOut: false,
    });
    await setCredits(ana, { sCredit: 2, pCredit: 1 });
    expect((await quote(ana, photo).expect(200)).body).toMatchObject({ credit: 'standard-credit', creditsLeft: 2 });
  });

  it('when a knack of the piece is worth $0.99, then it is premium at $12.40 and only a premium credit covers it', async () => {
    const photo = await premiumPiece('Premium Quote');
    await setCredits(bea, { sCredit: 3 });
    expect((await quote(bea, photo).expect(200)).body).toEqual({
      contentId: photo.id,
      tier: 'premium',
      fee: 12.4,
      feeMicros: 12_400_000,
      credit: null,
      creditsLeft: 0,
      isPaidOut: false,
    });
    await setCredits(bea, { pCredit: 1 });
    expect((await quote(bea, photo).expect(200)).body).toMatchObject({ credit: 'premium-credit', creditsLeft: 1 });
  });

  it('when nobody is signed in or the piece does not exist, then 401 and 404', async () => {
    const photo = await piece('Quote Guarded');
    await request(app).get(`/api/v2/payments/listing-quote/${photo.id}`).expect(401);
    await quote(ana, { id: String(new Types.ObjectId()) }).expect(404);
  });
});

describe('POST /content/paid with a credit', () => {
  it('when the owner has a standard credit, then exactly one is used, the piece is paid out by the owner and one listing entry sums to zero', async () => {
    const photo = await piece('Credit Paid');
    await setCredits(ana, { sCredit: 2 });
    const res = await pay(ana, photo).expect(200);
    expect(res.body).toMatchObject({ status: 'paid', message: 'Paid successfully', content: { id: photo.id, isPaidOut: true, payerId: ana.user.id } });
    expect(await creditsOf(ana)).toEqual({ sCredit: 1, pCredit: 0 });
    const content = await contentOf(photo);
    expect([content.isPaidOut, String(content.payerId)]).toEqual([true, ana.user.id]);
    const entries = await LedgerEntryModel.find({ contentId: new Types.ObjectId(photo.id) }).lean();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      _id: `listing:${photo.id}`,
      kind: 'listing',
      method: 'standard-credit',
      amountMicros: 650_000,
      ref: null,
      legs: [
        { account: 'platform:credits', amountMicros: -650_000 },
        { account: 'platform:fees', amountMicros: 650_000 },
      ],
    });
    expect(String(entries[0]!.actorId)).toBe(ana.user.id);
    expect(entries[0]!.legs.reduce((sum, leg) => sum + leg.amountMicros, 0)).toBe(0);
  });

  it('when a supporter pays a premium piece with a premium credit, then the supporter is the payer', async () => {
    const photo = await premiumPiece('Supported Premium');
    await setCredits(bea, { pCredit: 1, sCredit: 1 });
    const res = await pay(bea, photo).expect(200);
    expect(res.body.content).toMatchObject({ isPaidOut: true, payerId: bea.user.id, ownerId: ana.user.id });
    expect(await creditsOf(bea)).toEqual({ sCredit: 1, pCredit: 0 });
    const entry = (await LedgerEntryModel.findById(`listing:${photo.id}`).lean())!;
    expect(entry).toMatchObject({ method: 'premium-credit', amountMicros: 12_400_000 });
    expect(entry.legs).toEqual([
      { account: 'platform:credits', amountMicros: -12_400_000 },
      { account: 'platform:fees', amountMicros: 12_400_000 },
    ]);
  });

  it('when the piece is already paid out, then 409 and nothing is written: no credit used, no entry, no order', async () => {
    const photo = await piece('Paid Twice');
    await setCredits(ana, { sCredit: 1 });
    await pay(ana, photo).expect(200);
    await setCredits(bea, { sCredit: 1 });
    const [entries, orders] = [await LedgerEntryModel.countDocuments({}), await PaymentOrderModel.countDocuments({})];
    const res = await pay(bea, photo).expect(409);
    expect(res.body.message).toBe(PAYMENT_MESSAGES.alreadyPaid);
    expect(await creditsOf(bea)).toEqual({ sCredit: 1, pCredit: 0 });
    expect([await LedgerEntryModel.countDocuments({}), await PaymentOrderModel.countDocuments({})]).toEqual([entries, orders]);
    expect(String((await contentOf(photo)).payerId)).toBe(ana.user.id);
  });

  it('when two members with credits pay the same piece at once, then one pays, the other gets 409 and keeps the credit', async () => {
    const photo = await piece('Raced Credit');
    await setCredits(ana, { sCredit: 1 });
    await setCredits(bea, { sCredit: 1 });
    const answers = await Promise.all([pay(ana, photo), pay(bea, photo)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const credits = [(await creditsOf(ana)).sCredit, (await creditsOf(bea)).sCredit].sort();
    expect(credits).toEqual([0, 1]);
    expect(await LedgerEntryModel.countDocuments({ contentId: new Types.ObjectId(photo.id) })).toBe(1);
  });

  it('when the member has a credit but asks to pay by card, then a checkout opens and the credit is kept', async () => {
    const photo = await piece('Card Over Credit');
    await setCredits(bea, { sCredit: 1 });
    const res = await request(app)
      .post('/api/v2/content/paid')
      .set(bearer(bea))
      .send({ userId: bea.user.id, contentId: photo.id, useCredit: false })
      .expect(200);
    expect(res.body.status).toBe('checkout');
    expect(await creditsOf(bea)).toEqual({ sCredit: 1, pCredit: 0 });
  });

  it('when a member with one credit pays two pieces at once, then one credit pays one piece and the other opens a checkout', async () => {
    const [one, two] = await Promise.all([piece('Credit Rush One'), piece('Credit Rush Two')]);
    await setCredits(bea, { sCredit: 1 });
    const answers = await Promise.all([pay(bea, one), pay(bea, two)]);
    expect(answers.map((r) => r.body.status).sort()).toEqual(['checkout', 'paid']);
    expect(await creditsOf(bea)).toEqual({ sCredit: 0, pCredit: 0 });
  });

  it('when userId is not the caller, then 403; when the piece is not visible, then 404', async () => {
    const photo = await piece('Not For You');
    const forOther = await request(app).post('/api/v2/content/paid').set(bearer(bea)).send({ userId: ana.user.id, contentId: photo.id }).expect(403);
    expect(forOther.body.message).toBe(PAYMENT_MESSAGES.forSelf);
    await ContentModel.updateOne({ _id: photo.id }, { $set: { 'setting.public': false, 'setting.private': true } });
    await pay(bea, photo).expect(404);
    await pay(bea, { id: String(new Types.ObjectId()) }).expect(404);
  });
});

describe('the sandbox checkout', () => {
  it('when a member without credits pays and approves, then the order is paid, the piece paid out by them, one card entry is posted', async () => {
    const photo = await piece('Approved Checkout');
    const res = await pay(bea, photo).expect(200);
    expect(res.body).toEqual({
      status: 'checkout',
      orderId: expect.stringMatching(/^[0-9a-f]{24}$/),
      checkoutUrl: expect.stringMatching(/^http:\/\/knack\.test\/checkout\/sandbox\/cs_sandbox_/),
    });
    const { orderId, checkoutUrl } = res.body;
    const checkout = { checkoutUrl, payerCookie: payerCookieOf(res, checkoutUrl) };
    expect((await orderOf(bea, orderId).expect(200)).body).toEqual({
      orderId,
      contentId: photo.id,
      status: 'pending',
      amount: 0.65,
      amountMicros: 650_000,
      message: PAYMENT_MESSAGES.pending,
    });

    const page = await openCheckout(checkout).expect(200).expect('Content-Type', /html/);
    expect(page.text).toContain('$0.65');
    expect(page.text).toContain('Approve payment');
    expect(page.text).toContain('Approved Checkout');
    expect(page.text).not.toContain('<script');

    await decide(checkout, 'approve').expect(303).expect('Location', RETURN_URL(orderId));
    expect((await orderOf(bea, orderId).expect(200)).body).toMatchObject({ status: 'paid', message: 'Paid successfully' });
    const content = await contentOf(photo);
    expect([content.isPaidOut, String(content.payerId)]).toEqual([true, bea.user.id]);
    const entries = await LedgerEntryModel.find({ contentId: new Types.ObjectId(photo.id) }).lean();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ method: 'card', amountMicros: 650_000, ref: expect.stringMatching(/^webhook:evt_/) });
    expect(entries[0]!.legs).toEqual([
      { account: 'external:payments', amountMicros: -650_000 },
      { account: 'platform:fees', amountMicros: 650_000 },
    ]);

    // Submitting again (a double click, a back button) pays nothing more.
    await decide(checkout, 'approve').expect(303);
    await decide(checkout, 'decline').expect(303).expect('Location', RETURN_URL(orderId));
    expect(await LedgerEntryModel.countDocuments({ contentId: new Types.ObjectId(photo.id) })).toBe(1);
    expect((await orderOf(bea, orderId)).body.status).toBe('paid');
  });

  it('when the payment is declined, then the order is failed, the orders call says Payment Failed and the piece stays not paid out', async () => {
    const photo = await piece('Declined Checkout');
    const checkout = await sandboxOrder(bea, photo);
    const { orderId } = checkout;
    // Back through the checkout's cancel link: the client then returns the order to unsold itself (tag/sell).
    await decide(checkout, 'decline')
      .expect(303)
      .expect('Location', `${RETURN_URL(orderId)}&cancelled=1`);
    expect((await orderOf(bea, orderId).expect(200)).body).toMatchObject({ status: 'failed', message: 'Payment Failed' });
    expect((await contentOf(photo)).isPaidOut).toBe(false);
    expect(await LedgerEntryModel.countDocuments({ contentId: new Types.ObjectId(photo.id) })).toBe(0);
    // The first decision stands.
    await decide(checkout, 'approve').expect(303);
    expect((await orderOf(bea, orderId)).body.status).toBe('failed');
    // The piece can still be monetized afterwards.
    expect((await pay(bea, photo).expect(200)).body.status).toBe('checkout');
  });

  it('when the checkout does not exist or the decision is missing, then 404 and 400 pages', async () => {
    await request(app).get('/checkout/sandbox/cs_sandbox_nope').expect(404).expect('Content-Type', /html/);
    const photo = await piece('Undecided');
    const checkout = await sandboxOrder(bea, photo);
    await decide(checkout, 'maybe').expect(400);
  });

  it('when anyone but the member who started it opens or decides a checkout, then 403, nothing is shown and the order stays pending', async () => {
    const photo = await piece('Not Your Checkout');
    const beas = await sandboxOrder(bea, photo);
    const caras = await sandboxOrder(cara, await piece('Cara Pays'));
    const strangers = [
      { checkoutUrl: beas.checkoutUrl, payerCookie: '' }, // a visitor with the link
      { checkoutUrl: beas.checkoutUrl, payerCookie: caras.payerCookie.replace(pathOf(caras.checkoutUrl), '') }, // another payer's proof
      { checkoutUrl: beas.checkoutUrl, payerCookie: `knack_checkout_payer=${'A'.repeat(43)}` }, // a forged one
    ];
    for (const stranger of strangers) {
      const page = await openCheckout(stranger).expect(403).expect('Content-Type', /html/);
      expect(page.text).toContain('Only the member who started this payment can open it.');
      expect(page.text).not.toContain('$0.65');
      await decide(stranger, 'approve').expect(403);
      await decide(stranger, 'decline').expect(403);
    }
    expect((await orderOf(bea, beas.orderId).expect(200)).body.status).toBe('pending');
    expect((await contentOf(photo)).isPaidOut).toBe(false);
    // Cara's own proof still works for her own checkout, and Bea's for hers.
    await openCheckout(caras).expect(200);
    await decide(beas, 'approve').expect(303);
    expect((await orderOf(bea, beas.orderId).expect(200)).body.status).toBe('paid');
  });

  it("when another member asks for someone's order, then 404", async () => {
    const photo = await piece('Private Order');
    const { orderId } = await sandboxOrder(bea, photo);
    await orderOf(cara, orderId).expect(404);
    await orderOf(ana, orderId).expect(404);
    await orderOf(bea, 'f'.repeat(24)).expect(404);
  });
});

describe('POST /payments/webhook/{provider}', () => {
  it('when the same completed event is delivered 5 times, then it activates once: one entry, one content update, 4 duplicates', async () => {
    const photo = await piece('Replayed Webhook');
    const { orderId, sessionId } = await sandboxOrder(bea, photo);
    const { payload, header } = sandboxEvent({ id: 'evt_replay_1', type: 'checkout.completed', orderId, sessionId });
    const first = await deliver('sandbox', payload, { 'Knack-Signature': header }).expect(200);
    expect(first.body).toEqual({ received: true, duplicate: false });
    const updatedAt = (await contentOf(photo)).updatedAt;
    const replays = [];
    for (let i = 0; i < 4; i += 1) replays.push((await deliver('sandbox', payload, { 'Knack-Signature': header }).expect(200)).body);
    expect(replays).toEqual(Array(4).fill({ received: true, duplicate: true }));
    expect(await LedgerEntryModel.countDocuments({ contentId: new Types.ObjectId(photo.id) })).toBe(1);
    expect((await contentOf(photo)).updatedAt).toEqual(updatedAt);
    expect(await PaymentEventModel.countDocuments({ _id: 'sandbox:evt_replay_1' })).toBe(1);
    expect((await PaymentOrderModel.findById(orderId).lean())!.status).toBe('paid');
  });

  it('when 5 copies of a completed event arrive at once, then one entry is posted and exactly one answer is not a duplicate', async () => {
    const photo = await piece('Concurrent Webhook');
    const { orderId, sessionId } = await sandboxOrder(bea, photo);
    const { payload, header } = sandboxEvent({ type: 'checkout.completed', orderId, sessionId });
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver('sandbox', payload, { 'Knack-Signature': header })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((r) => r.body.duplicate === false)).toHaveLength(1);
    expect(await LedgerEntryModel.countDocuments({ contentId: new Types.ObjectId(photo.id) })).toBe(1);
    expect((await contentOf(photo)).isPaidOut).toBe(true);
  });

  it('when the signature is missing, wrong, too old or the body was changed, then 400 and nothing changes', async () => {
    const photo = await piece('Forged Webhook');
    const { orderId, sessionId } = await sandboxOrder(bea, photo);
    const genuine = sandboxEvent({ type: 'checkout.completed', orderId, sessionId });
    const forged = [
      deliver('sandbox', genuine.payload, {}),
      deliver('sandbox', genuine.payload, {
        'Knack-Signature': sandboxEvent({ type: 'checkout.completed', orderId, sessionId }, { secret: 'x'.repeat(40) }).header,
      }),
      deliver('sandbox', genuine.payload, { 'Knack-Signature': 't=abc,v1=zz' }),
      deliver('sandbox', genuine.payload.replace(orderId, 'f'.repeat(24)), { 'Knack-Signature': genuine.header }),
      deliver('sandbox', genuine.payload, {
        'Knack-Signature': sandboxEvent({ type: 'checkout.completed', orderId, sessionId }, { timestamp: Math.floor(Date.now() / 1000) - 301 }).header,
      }),
    ];
    for (const res of await Promise.all(forged)) {
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(PAYMENT_MESSAGES.badSignature);
    }
    expect((await PaymentOrderModel.findById(orderId).lean())!.status).toBe('pending');
    expect(await LedgerEntryModel.countDocuments({ contentId: new Types.ObjectId(photo.id) })).toBe(0);
    expect((await contentOf(photo)).isPaidOut).toBe(false);
    expect(await PaymentEventModel.countDocuments({ orderId })).toBe(0);
  });

  it('when a failed event comes after the payment, then nothing changes', async () => {
    const photo = await piece('Late Failure');
    const { orderId, sessionId } = await sandboxOrder(bea, photo);
    const paid = sandboxEvent({ type: 'checkout.completed', orderId, sessionId });
    await deliver('sandbox', paid.payload, { 'Knack-Signature': paid.header }).expect(200);
    const late = sandboxEvent({ type: 'checkout.failed', orderId, sessionId });
    expect((await deliver('sandbox', late.payload, { 'Knack-Signature': late.header }).expect(200)).body).toEqual({ received: true, duplicate: false });
    expect((await orderOf(bea, orderId)).body).toMatchObject({ status: 'paid', message: 'Paid successfully' });
    expect((await contentOf(photo)).isPaidOut).toBe(true);
    expect(await LedgerEntryModel.countDocuments({ contentId: new Types.ObjectId(photo.id) })).toBe(1);
  });

  it('when two members pay for one piece, then the second payment is refunded once: at the provider, in the ledger and in the history; replays change nothing', async () => {
    const photo = await piece('Paid By Two');
    const first = await sandboxOrder(bea, photo);
    const second = await sandboxOrder(cara, photo);
    await decide(first, 'approve').expect(303);
    // The second approval reaches the server several times at once: resubmits of the page and copies of its webhook.
    const approved = sandboxEvent({ id: `evt_${second.sessionId}_approved`, type: 'checkout.completed', orderId: second.orderId, sessionId: second.sessionId });
    const answers = await Promise.all([
      ...Array.from({ length: 3 }, () => decide(second, 'approve')),
      ...Array.from({ length: 3 }, () => deliver('sandbox', approved.payload, { 'Knack-Signature': approved.header })),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([303, 303, 303, 200, 200, 200]);

    expect((await orderOf(cara, second.orderId)).body).toMatchObject({ status: 'superseded', message: PAYMENT_MESSAGES.superseded });
    expect(String((await contentOf(photo)).payerId)).toBe(bea.user.id);
    const refundsOf = () => SandboxRefundModel.find({ checkoutId: anyOf([first.sessionId, second.sessionId]) }).lean();
    const refunds = await refundsOf();
    expect(refunds).toEqual([
      expect.objectContaining({ checkoutId: second.sessionId, orderId: second.orderId, amountMicros: 650_000, key: `refund:${second.orderId}` }),
    ]);
    const entriesOfPiece = () =>
      LedgerEntryModel.find({ contentId: new Types.ObjectId(photo.id) }, { at: 0, accounts: 0, seq: 0 })
        .sort({ _id: 1 })
        .lean();
    const entries = await entriesOfPiece();
    expect(entries).toEqual([
      expect.objectContaining({ _id: `listing:${photo.id}`, kind: 'listing', amountMicros: 650_000 }),
      {
        _id: `refund:${second.orderId}`,
        kind: 'refund',
        actorId: new Types.ObjectId(cara.user.id),
        contentId: new Types.ObjectId(photo.id),
        method: 'card',
        amountMicros: 650_000,
        ref: refunds[0]!._id,
        legs: [
          { account: 'external:payments', amountMicros: -650_000 },
          { account: 'external:refunds', amountMicros: 650_000 },
        ],
      },
    ]);
    const historyOf = async (m: Member) =>
      ((await request(app).get(`/api/v2/user-history/get-all/${m.user.id}`).set(bearer(m)).expect(200)).body.items as { historyId: string }[]).filter(
        (item) => item.historyId === `refund:${second.orderId}`,
      );
    expect(await historyOf(cara)).toEqual([
      {
        historyId: `refund:${second.orderId}`,
        userId: cara.user.id,
        contentId: photo.id,
        contentTitle: 'Paid By Two',
        activityType: 'Refund',
        activity: 'Your listing fee for Paid By Two was refunded: someone else monetized it first',
        changes: { paid: 0, earned: 0.65, supporterId: null, paidMicros: 0, earnedMicros: 650_000 },
        status: null,
        at: expect.any(String),
      },
    ]);
    expect(await historyOf(bea)).toEqual([]);

    // Later deliveries: the same event again, the page submitted again, and another event saying the same payment came.
    expect((await deliver('sandbox', approved.payload, { 'Knack-Signature': approved.header }).expect(200)).body).toEqual({ received: true, duplicate: true });
    await decide(second, 'approve').expect(303);
    const another = sandboxEvent({ type: 'checkout.completed', orderId: second.orderId, sessionId: second.sessionId });
    expect((await deliver('sandbox', another.payload, { 'Knack-Signature': another.header }).expect(200)).body).toEqual({ received: true, duplicate: false });
    expect(await refundsOf()).toEqual(refunds);
    expect(await entriesOfPiece()).toEqual(entries);
    expect(await historyOf(cara)).toHaveLength(1);
  });

  it('when a provider that is not configured is named, then 404', async () => {
    await deliver('stripe', '{}', { 'Stripe-Signature': 't=1,v1=00' }).expect(404);
  });
});

describe('discount codes', () => {
  const usesLeft = async (code: string) => (await DiscountCodeModel.findById(code).lean())!.maxUses - (await DiscountUseModel.countDocuments({ code }));
  const createCode = (body: Record<string, unknown>, as: Member = admin) => request(app).post('/api/v2/code/create').set(bearer(as)).send(body);
  const check = (code: string) => request(app).post('/api/v2/code/discount-code').set(bearer(bea)).send({ code });
  const redeem = (m: Member, target: { id: string }, code: string) =>
    request(app).post('/api/v2/code/save').set(bearer(m)).send({ userId: m.user.id, contentId: target.id, code });

  it('when an admin creates a code, then it is stored upper-cased; a member cannot create one; a second time is 409', async () => {
    expect((await createCode({ code: 'spring25', maxUses: 3 }).expect(201)).body).toEqual({
      code: 'SPRING25',
      covers: 'both',
      maxUses: 3,
      usesLeft: 3,
      expiresAt: null,
    });
    await createCode({ code: 'SPRING25', maxUses: 1 }).expect(409);
    await createCode({ code: 'MINE', maxUses: 1 }, bea).expect(403);
    expect(await DiscountCodeModel.exists({ _id: 'MINE' })).toBeNull();
  });

  it("when the code is empty, then its exact message; unknown, expired or used up, then 'This discount code is not valid.'", async () => {
    for (const code of ['', '   ']) {
      const res = await check(code).expect(400);
      expect(res.body.message).toBe('Discount code should not be empty');
    }
    expect((await check('NOPE').expect(404)).body.message).toBe('This discount code is not valid.');
    await createCode({ code: 'OLDCODE', maxUses: 5, expiresAt: new Date(Date.now() - 60_000).toISOString() }).expect(201);
    expect((await check('OLDCODE').expect(404)).body.message).toBe('This discount code is not valid.');
    await createCode({ code: 'CHECKME', maxUses: 1 }).expect(201);
    expect((await check('checkme').expect(200)).body).toEqual({ valid: true, message: PAYMENT_MESSAGES.codeValid });
  });

  it('when a valid code is redeemed, then it covers the fee: the piece is paid out, one discount entry, one use counted', async () => {
    const photo = await premiumPiece('Discounted');
    await createCode({ code: 'COVERALL', maxUses: 2 }).expect(201);
    const res = await redeem(bea, photo, 'coverall').expect(200);
    expect(res.body).toMatchObject({ message: 'Paid successfully', content: { id: photo.id, isPaidOut: true, payerId: bea.user.id } });
    const entry = (await LedgerEntryModel.findById(`listing:${photo.id}`).lean())!;
    expect(entry).toMatchObject({ method: 'discount', ref: 'COVERALL', amountMicros: 12_400_000 });
    expect(entry.legs).toEqual([
      { account: 'platform:discounts', amountMicros: -12_400_000 },
      { account: 'platform:fees', amountMicros: 12_400_000 },
    ]);
    expect(await usesLeft('COVERALL')).toBe(1);
    // Already paid: 409 and the use is not spent.
    expect((await redeem(cara, photo, 'COVERALL').expect(409)).body.message).toBe(PAYMENT_MESSAGES.alreadyPaid);
    expect(await usesLeft('COVERALL')).toBe(1);
    await request(app).post('/api/v2/code/save').set(bearer(bea)).send({ userId: ana.user.id, contentId: photo.id, code: 'COVERALL' }).expect(403);
  });

  it('when 5 members redeem a code of 2 uses at once, then exactly 2 pieces are paid out and the code is used up', async () => {
    await createCode({ code: 'TWOUSES', maxUses: 2 }).expect(201);
    const pieces = await Promise.all(['One', 'Two', 'Three', 'Four', 'Five'].map((n) => piece(`Rush ${n}`)));
    const answers = await Promise.all(pieces.map((p) => redeem(ana, p, 'TWOUSES')));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 404, 404, 404]);
    expect(await usesLeft('TWOUSES')).toBe(0);
    expect(await LedgerEntryModel.countDocuments({ kind: 'listing', ref: 'TWOUSES' })).toBe(2);
    expect(await ContentModel.countDocuments({ _id: anyOf(pieces.map((p) => new Types.ObjectId(p.id))), isPaidOut: true })).toBe(2);
  });

  it('when two members redeem codes for the same piece at once, then one pays and the other keeps its use', async () => {
    await createCode({ code: 'RACEA', maxUses: 1 }).expect(201);
    await createCode({ code: 'RACEB', maxUses: 1 }).expect(201);
    const photo = await piece('Raced Code');
    const answers = await Promise.all([redeem(bea, photo, 'RACEA'), redeem(cara, photo, 'RACEB')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect([await usesLeft('RACEA'), await usesLeft('RACEB')].sort()).toEqual([0, 1]);
  });
});

describe('limits on guessing discount codes and opening payments', () => {
  let proxied: App;
  beforeAll(() => {
    proxied = createTestApp({ config: { trustProxy: 1 }, mailer: smtpMailer(smtp.url, 'x@knack.test') });
  });
  // Each test starts from no tries, and leaves none behind for the tests after it.
  const clearCounts = async () => {
    await RateLimitModel.deleteMany({});
  };
  beforeEach(clearCounts);
  afterEach(clearCounts);
  // A minute into the hour-long windows: 59 minutes are left.
  let clock: FrozenDate;
  beforeEach(() => {
    clock = freezeInWindow(60 * 60_000, 60_000);
  });
  afterEach(() => clock.restore());
  const checkFrom = (m: Member, address: string, code: string) =>
    request(proxied).post('/api/v2/code/discount-code').set(bearer(m)).set('X-Forwarded-For', address).send({ code });
  const tooManyCodes = 'Too many discount code attempts. Please wait and try again.';

  it('when a member tries 20 codes in an hour, then the next try gets 429 with Retry-After from any address, redeeming too; other members go on', async () => {
    await request(app).post('/api/v2/code/create').set(bearer(admin)).send({ code: 'GUESSME', maxUses: 5 }).expect(201);
    for (let i = 0; i < 20; i++) await checkFrom(bea, '203.0.113.40', `WRONG${i}`).expect(404);

    const res = await checkFrom(bea, '198.51.100.40', 'GUESSME').expect(429);
    expect(res.body).toMatchObject({ code: 'too_many_requests', message: tooManyCodes });
    expect(res.headers['retry-after']).toBe('3540');
    const photo = await piece('Guessed Code', bea);
    const redeemed = await request(proxied)
      .post('/api/v2/code/save')
      .set(bearer(bea))
      .set('X-Forwarded-For', '198.51.100.40')
      .send({ userId: bea.user.id, contentId: photo.id, code: 'GUESSME' })
      .expect(429);
    expect(redeemed.body.message).toBe(tooManyCodes);
    expect((await contentOf(photo)).isPaidOut).toBe(false);

    await checkFrom(cara, '203.0.113.40', 'GUESSME').expect(200);
  });

  it('when members at one address try 60 codes in an hour, then the next try from that address gets 429; from another address it goes on', async () => {
    for (const m of [ana, bea, cara, admin]) {
      for (let i = 0; i < 15; i++) await checkFrom(m, '203.0.113.41', `WRONG${i}`).expect(404);
    }
    const res = await checkFrom(ana, '203.0.113.41', 'WRONG99').expect(429);
    expect(res.body.message).toBe(tooManyCodes);
    expect(res.headers['retry-after']).toBe('3540');
    await checkFrom(ana, '198.51.100.41', 'WRONG99').expect(404);
  });

  it('when a member asks to pay 30 times in an hour, then the next gets 429 with Retry-After and opens no order; other members pay', async () => {
    for (let i = 0; i < 30; i++) await pay(cara, { id: String(new Types.ObjectId()) }).expect(404);
    const photo = await piece('One Payment Too Many', cara);
    const res = await pay(cara, photo).expect(429);
    expect(res.body).toMatchObject({ code: 'too_many_requests', message: 'Too many payment attempts. Please wait and try again.' });
    expect(res.headers['retry-after']).toBe('3540');
    expect(await PaymentOrderModel.countDocuments({ contentId: new Types.ObjectId(photo.id) })).toBe(0);

    expect((await pay(bea, photo).expect(200)).body.status).toBe('checkout');
  });
});

describe('the Stripe driver, against a stand-in speaking Stripe’s API', () => {
  const secretKey = 'sk_test_knack_0123456789';
  const webhookSecret = 'whsec_knack_test_0123456789abcdef';
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
  let stripeApp: App;
  const stripeConfig = (apiUrl: string, key = secretKey): PaymentsConfig => ({
    ...testConfig().payments,
    provider: 'stripe',
    webhookSecret: SANDBOX_SECRET,
    stripe: { secretKey: key, webhookSecret, apiUrl },
  });

  beforeAll(async () => {
    stripe = await startStripeStandIn({ secretKey, webhookSecret });
    stripeApp = createTestApp({ config: { payments: stripeConfig(stripe.url) }, mailer: smtpMailer(smtp.url, 'x@knack.test') });
  });
  afterAll(async () => stripe.stop());

  it('when Stripe makes the session but its answer comes too late, then the call is sent again with the same Idempotency-Key and the member gets that one session', async () => {
    const patient = createTestApp({
      config: { payments: { ...stripeConfig(stripe.url), stripe: { secretKey, webhookSecret, apiUrl: stripe.url, timeoutMs: 300 } } },
    });
    const photo = await piece('Stripe Answer Late');
    const sessionsBefore = stripe.sessions().length;
    stripe.holdCheckouts(1);
    const res = await pay(bea, photo, patient).expect(200);
    const { orderId, checkoutUrl } = res.body;
    expect(stripe.requests.filter((sent) => sent.form.client_reference_id === orderId).map((sent) => sent.headers['idempotency-key'])).toEqual([
      orderId,
      orderId,
    ]);
    expect(
      stripe
        .sessions()
        .slice(sessionsBefore)
        .map((made) => made.client_reference_id),
    ).toEqual([orderId]);
    expect(checkoutUrl).toBe(stripe.sessions().at(-1)!.url);
    expect((await PaymentOrderModel.findById(orderId).lean())!.sessionId).toBe(stripe.sessions().at(-1)!.id);
  });

  it('when a member pays, then a Checkout Session is created with the right form fields and the order id as Idempotency-Key', async () => {
    const photo = await piece('Stripe Checkout');
    const res = await pay(bea, photo, stripeApp).expect(200);
    const { orderId, checkoutUrl } = res.body;
    const sent = stripe.requests.at(-1)!;
    expect(sent.headers['idempotency-key']).toBe(orderId);
    expect(sent.headers.authorization).toBe(`Bearer ${secretKey}`);
    expect(sent.form).toEqual({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '65',
      'line_items[0][price_data][product_data][name]': 'Knack listing fee (standard): Stripe Checkout',
      'line_items[0][quantity]': '1',
      success_url: RETURN_URL(orderId),
      cancel_url: `${RETURN_URL(orderId)}&cancelled=1`,
      client_reference_id: orderId,
      'metadata[orderId]': orderId,
    });
    const order = (await PaymentOrderModel.findById(orderId).lean())!;
    expect(order).toMatchObject({ provider: 'stripe', status: 'pending', amountMicros: 650_000 });
    expect(checkoutUrl).toBe(stripe.session(order.sessionId!)!.url);
  });

  it('when a member pays from one of the public origins, then Stripe is given return links on it; from any other origin, on PUBLIC_URL', async () => {
    const site = createTestApp({
      config: { payments: stripeConfig(stripe.url), publicUrl: 'https://knack.example', publicOrigins: ['https://knack.example', 'https://www.knack.example'] },
      mailer: smtpMailer(smtp.url, 'x@knack.test'),
    });
    for (const [origin, expected] of [
      ['https://www.knack.example', 'https://www.knack.example'],
      ['https://knack.example.evil.test', 'https://knack.example'],
    ] as const) {
      const photo = await piece(`Stripe From ${origin}`);
      const res = await request(site).post('/api/v2/content/paid').set(bearer(bea)).set('Origin', origin).send({ userId: bea.user.id, contentId: photo.id });
      const orderId = (res.body as { orderId: string }).orderId;
      expect(stripe.requests.at(-1)!.form).toMatchObject({
        success_url: `${expected}/profile/default?order=${orderId}`,
        cancel_url: `${expected}/profile/default?order=${orderId}&cancelled=1`,
      });
    }
  });

  it('when Stripe signs a completed session, then the piece is paid out; a tampered copy is 400; an expired session fails its order', async () => {
    const photo = await piece('Stripe Paid');
    const { orderId } = (await pay(bea, photo, stripeApp).expect(200)).body;
    const session = stripe.session((await PaymentOrderModel.findById(orderId).lean())!.sessionId!)!;

    const completed = stripe.event('checkout.session.completed', session, { payment_status: 'paid', status: 'complete' });
    const tampered = completed.payload.replace('"payment_status":"paid"', '"payment_status":"paid" ');
    await deliver('stripe', tampered, { 'Stripe-Signature': completed.header }, stripeApp).expect(400);
    expect((await PaymentOrderModel.findById(orderId).lean())!.status).toBe('pending');
    expect((await contentOf(photo)).isPaidOut).toBe(false);

    expect((await deliver('stripe', completed.payload, { 'Stripe-Signature': completed.header }, stripeApp).expect(200)).body).toEqual({
      received: true,
      duplicate: false,
    });
    expect((await deliver('stripe', completed.payload, { 'Stripe-Signature': completed.header }, stripeApp).expect(200)).body).toEqual({
      received: true,
      duplicate: true,
    });
    expect((await orderOf(bea, orderId, stripeApp)).body).toMatchObject({ status: 'paid', message: 'Paid successfully' });
    const content = await contentOf(photo);
    expect([content.isPaidOut, String(content.payerId)]).toEqual([true, bea.user.id]);
    expect((await LedgerEntryModel.findById(`listing:${photo.id}`).lean())!).toMatchObject({ method: 'card', amountMicros: 650_000 });

    const other = await piece('Stripe Expired');
    const second = (await pay(cara, other, stripeApp).expect(200)).body.orderId;
    const expired = stripe.event('checkout.session.expired', stripe.session((await PaymentOrderModel.findById(second).lean())!.sessionId!)!, {
      status: 'expired',
    });
    await deliver('stripe', expired.payload, { 'Stripe-Signature': expired.header }, stripeApp).expect(200);
    expect((await orderOf(cara, second, stripeApp)).body).toMatchObject({ status: 'failed', message: 'Payment Failed' });
    expect((await contentOf(other)).isPaidOut).toBe(false);
  });

  it('when two members pay for one piece, then Stripe refunds the second payment once, however often and at once its event comes', async () => {
    const photo = await piece('Stripe Paid By Two');
    const orderIds = [];
    for (const m of [bea, cara]) orderIds.push((await pay(m, photo, stripeApp).expect(200)).body.orderId as string);
    const [firstOrder, secondOrder] = orderIds as [string, string];
    const sessionOf = async (orderId: string) => stripe.session((await PaymentOrderModel.findById(orderId).lean())!.sessionId!)!;
    const [firstSession, secondSession] = [await sessionOf(firstOrder), await sessionOf(secondOrder)];
    const firstPaid = stripe.event('checkout.session.completed', firstSession, stripe.paid(firstSession));
    await deliver('stripe', firstPaid.payload, { 'Stripe-Signature': firstPaid.header }, stripeApp).expect(200);

    // Stripe is down at the first delivery: the webhook fails, so that Stripe delivers it again, and nothing is posted.
    const secondPaid = stripe.event('checkout.session.completed', secondSession, stripe.paid(secondSession));
    // Down for every attempt the driver makes (it sends a failed call again a few times, with the same key).
    stripe.failRefunds(PROVIDER_ATTEMPTS);
    const down = await deliver('stripe', secondPaid.payload, { 'Stripe-Signature': secondPaid.header }, stripeApp).expect(502);
    expect(down.body).toMatchObject({ message: PAYMENT_MESSAGES.providerDown, code: 'payment_provider' });
    expect(await LedgerEntryModel.exists({ _id: `refund:${secondOrder}` })).toBeNull();
    expect((await orderOf(cara, secondOrder, stripeApp)).body).toMatchObject({ status: 'superseded', message: PAYMENT_MESSAGES.superseded });

    // Its redeliveries, 5 at once, then one more, and an async_payment_succeeded about the same payment.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => deliver('stripe', secondPaid.payload, { 'Stripe-Signature': secondPaid.header }, stripeApp)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((answer) => answer.body.duplicate === false)).toHaveLength(1);
    await deliver('stripe', secondPaid.payload, { 'Stripe-Signature': secondPaid.header }, stripeApp).expect(200);
    const succeeded = stripe.event('checkout.session.async_payment_succeeded', secondSession);
    await deliver('stripe', succeeded.payload, { 'Stripe-Signature': succeeded.header }, stripeApp).expect(200);

    const refunds = stripe.refunds.filter((refund) => refund.metadata.orderId === secondOrder || refund.metadata.orderId === firstOrder);
    expect(refunds).toEqual([
      {
        id: expect.stringMatching(/^re_/),
        object: 'refund',
        amount: 65,
        currency: 'usd',
        payment_intent: secondSession.payment_intent,
        reason: 'duplicate',
        metadata: { orderId: secondOrder },
        status: 'succeeded',
        idempotencyKey: `refund:${secondOrder}`,
      },
    ]);
    expect((await LedgerEntryModel.findById(`refund:${secondOrder}`).lean())!).toMatchObject({
      kind: 'refund',
      actorId: new Types.ObjectId(cara.user.id),
      amountMicros: 650_000,
      ref: refunds[0]!.id,
    });
    expect(await LedgerEntryModel.countDocuments({ contentId: new Types.ObjectId(photo.id) })).toBe(2);
    expect(String((await contentOf(photo)).payerId)).toBe(bea.user.id);
  });

  it('when a session completes unpaid (a delayed method), then nothing is paid out until Stripe says the payment succeeded', async () => {
    const photo = await piece('Stripe Delayed');
    const { orderId } = (await pay(bea, photo, stripeApp).expect(200)).body;
    const session = stripe.session((await PaymentOrderModel.findById(orderId).lean())!.sessionId!)!;
    const unpaid = stripe.event('checkout.session.completed', session, { status: 'complete' });
    await deliver('stripe', unpaid.payload, { 'Stripe-Signature': unpaid.header }, stripeApp).expect(200);
    expect((await PaymentOrderModel.findById(orderId).lean())!.status).toBe('pending');
    const succeeded = stripe.event('checkout.session.async_payment_succeeded', session, { payment_status: 'paid', status: 'complete' });
    await deliver('stripe', succeeded.payload, { 'Stripe-Signature': succeeded.header }, stripeApp).expect(200);
    expect((await PaymentOrderModel.findById(orderId).lean())!.status).toBe('paid');
    expect((await contentOf(photo)).isPaidOut).toBe(true);
  });

  it('when Stripe refuses the key, then 502 and the order is failed; the sandbox webhook path does not exist', async () => {
    const refused = createTestApp({ config: { payments: stripeConfig(stripe.url, 'sk_test_wrong') }, mailer: smtpMailer(smtp.url, 'x@knack.test') });
    const photo = await piece('Stripe Refused');
    const res = await pay(bea, photo, refused).expect(502);
    expect(res.body.message).toBe(PAYMENT_MESSAGES.providerDown);
    expect(await PaymentOrderModel.countDocuments({ contentId: new Types.ObjectId(photo.id), status: 'failed' })).toBe(1);
    const event = sandboxEvent({ type: 'checkout.completed', orderId: 'f'.repeat(24), sessionId: 'x' });
    await deliver('sandbox', event.payload, { 'Knack-Signature': event.header }, stripeApp).expect(404);
  });
});

describe('checkout links go back to the origin the member is on', () => {
  // A development server on port 3000: PUBLIC_URL is http://localhost:3000, and 127.0.0.1:3000 is the same site.
  const dev = loadConfig({ NODE_ENV: 'development', PORT: '3000', JWT_SECRET: TEST_JWT_SECRET, DATA_DIR: os.tmpdir() });
  let devApp: App;
  beforeAll(() => {
    devApp = createTestApp({ config: { publicUrl: dev.publicUrl, publicOrigins: dev.publicOrigins }, mailer: smtpMailer(smtp.url, 'x@knack.test') });
  });
  const payFrom = (m: Member, target: { id: string }, headers: Record<string, string>) =>
    request(devApp).post('/api/v2/content/paid').set(bearer(m)).set(headers).send({ userId: m.user.id, contentId: target.id });
  const SANDBOX_PAGE = /^\/checkout\/sandbox\/cs_sandbox_[0-9a-f]{32}$/;

  it('when a member on 127.0.0.1 pays, then the checkout page and the way back are on 127.0.0.1, where the payer cookie is sent', async () => {
    const photo = await piece('Paid On 127');
    const on127 = { Host: '127.0.0.1:3000', Origin: 'http://127.0.0.1:3000' };
    const res = await payFrom(bea, photo, on127).expect(200);
    const { orderId, checkoutUrl } = res.body as { orderId: string; checkoutUrl: string };
    expect(new URL(checkoutUrl).origin).toBe('http://127.0.0.1:3000');
    expect(pathOf(checkoutUrl)).toMatch(SANDBOX_PAGE);
    const cookie = payerCookieOf(res, checkoutUrl);
    // The browser on 127.0.0.1 opens the page with its cookie, approves, and is sent back to 127.0.0.1.
    await request(devApp).get(pathOf(checkoutUrl)).set('Host', on127.Host).set('Cookie', cookie).expect(200);
    const approved = await request(devApp).post(pathOf(checkoutUrl)).set('Host', on127.Host).set('Cookie', cookie).type('form').send({ decision: 'approve' });
    expect(approved.status).toBe(303);
    expect(approved.headers.location).toBe(`http://127.0.0.1:3000/profile/default?order=${orderId}`);
    expect((await orderOf(bea, orderId, devApp)).body).toMatchObject({ status: 'paid', message: 'Paid successfully' });

    // Without an Origin header (not a browser), the Host it reached is the member's origin.
    const other = await piece('Paid On 127 Without Origin');
    expect(new URL((await payFrom(cara, other, { Host: '127.0.0.1:3000' }).expect(200)).body.checkoutUrl as string).origin).toBe('http://127.0.0.1:3000');
  });

  it('when a checkout is started from an origin that is not one of the public ones, then its links go to PUBLIC_URL', async () => {
    const tried: { Host: string; Origin?: string }[] = [
      { Host: 'evil.example', Origin: 'https://evil.example' },
      { Host: 'evil.example' },
      { Host: '127.0.0.1:3000', Origin: 'http://127.0.0.1:4000' },
      { Host: '127.0.0.1:3000', Origin: 'https://127.0.0.1:3000' },
    ];
    for (const headers of tried) {
      const photo = await piece(`Paid From ${headers.Origin ?? headers.Host}`);
      const res = await payFrom(bea, photo, headers).expect(200);
      const { orderId, checkoutUrl } = res.body as { orderId: string; checkoutUrl: string };
      expect(new URL(checkoutUrl).origin).toBe('http://localhost:3000');
      const declined = await request(devApp)
        .post(pathOf(checkoutUrl))
        .set('Cookie', payerCookieOf(res, checkoutUrl))
        .type('form')
        .send({ decision: 'decline' });
      expect(declined.headers.location).toBe(`http://localhost:3000/profile/default?order=${orderId}&cancelled=1`);
    }
  });

  it('when a member on 127.0.0.1 starts a subscription, then its checkout and its approve and cancel pages are on 127.0.0.1', async () => {
    const res = await request(devApp)
      .post('/api/v2/subscription/create')
      .set(bearer(ana))
      .set({ Host: '127.0.0.1:3000', Origin: 'http://127.0.0.1:3000' })
      .send({ planId: 1 })
      .expect(201);
    const { subscriptionId, checkoutUrl } = res.body as { subscriptionId: string; checkoutUrl: string };
    expect(new URL(checkoutUrl).origin).toBe('http://127.0.0.1:3000');
    const cookie = payerCookieOf(res, checkoutUrl);
    const declined = await request(devApp).post(pathOf(checkoutUrl)).set('Cookie', cookie).type('form').send({ decision: 'decline' }).expect(303);
    expect(declined.headers.location).toBe(`http://127.0.0.1:3000/cancel?subscription=${subscriptionId}`);
  });
});

describe('payments configuration', () => {
  const base = { NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, DATA_DIR: '/tmp' };

  it('when nothing is set, then the sandbox with a webhook secret derived from the JWT secret, the same on every start', () => {
    const first = loadConfig(base).payments;
    expect(first).toMatchObject({ provider: 'sandbox', stripe: undefined });
    expect(first.webhookSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig(base).payments.webhookSecret).toBe(first.webhookSecret);
    expect(loadConfig({ ...base, JWT_SECRET: `${TEST_JWT_SECRET}x` }).payments.webhookSecret).not.toBe(first.webhookSecret);
  });

  it('when STRIPE_SECRET_KEY is set, then Stripe, and its webhook secret is required', () => {
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_live_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).payments).toMatchObject({
      provider: 'stripe',
      stripe: { secretKey: 'sk_live_x', webhookSecret: 'whsec_x', apiUrl: 'https://api.stripe.com' },
    });
    expect(() => loadConfig({ ...base, PAYMENTS_PROVIDER: 'stripe' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ ...base, PAYMENTS_PROVIDER: 'paypal' })).toThrow(/PAYMENTS_PROVIDER/);
  });
});

describe('POST /tag/sell (a listing in a tag, sold or returned to unsold)', () => {
  const tagIdOf = async (label: string) =>
    (
      await request(app)
        .get(`/api/v2/tag/label/${encodeURIComponent(label)}`)
        .expect(200)
    ).body.tag.id as string;
  const sell = (m: Member, body: object) => request(app).post('/api/v2/tag/sell').set(bearer(m)).send(body);

  it("when a member left a checkout (cancelPaid), then their pending order of that tag fails at once and the piece stays unsold; another tag's order waits; a late payment still lists it", async () => {
    // A member of their own: the orders other tests left pending are not theirs.
    const dan = await createActiveMember(app, smtp, { firstName: 'Dan' });
    const travel = await tagIdOf('Travel');
    const harbour = await piece('Tag Sale Harbour');
    const nature = await publishPiece(app, ana, { title: 'Tag Sale Fern', tag: 'Photos', subTag: 'Nature', hue: 120, coverSide: 64 });
    const left = await sandboxOrder(dan, harbour);
    const other = await sandboxOrder(dan, nature);

    const reads = spyOnScans('payment_orders', 'payment_order_lists');
    const answer = await sell(dan, { tagId: travel, isSell: false }).expect(200);
    // Dan's orders come through his own list, by `_id`: no pass over every member's orders.
    expect(reads.scans()).toEqual([]);
    expect(reads.reads()).toBeGreaterThan(0);
    reads.restore();
    expect(answer.body).toEqual({ tagId: travel, isSell: false, returned: 1, message: 'Payment Failed' });
    expect(await paymentOrderListsState.check()).toMatchObject({ differences: [] });
    expect((await orderOf(dan, left.orderId).expect(200)).body).toMatchObject({ status: 'failed', message: 'Payment Failed' });
    expect((await PaymentOrderModel.findById(other.orderId).lean())!.status).toBe('pending');
    expect(await contentOf(harbour)).toMatchObject({ isPaidOut: false });
    // Again: nothing left to return.
    expect((await sell(dan, { tagId: travel, isSell: false }).expect(200)).body).toMatchObject({ returned: 0 });
    // Someone else's pending order of the tag is not theirs to fail.
    const bea1 = await sandboxOrder(bea, await piece('Tag Sale Bea'));
    await sell(dan, { tagId: travel, isSell: false }).expect(200);
    expect((await PaymentOrderModel.findById(bea1.orderId).lean())!.status).toBe('pending');

    // The member went back and paid after all: the listing is sold.
    const approved = sandboxEvent({ type: 'checkout.completed', orderId: left.orderId, sessionId: left.sessionId });
    await deliver('sandbox', approved.payload, { 'Knack-Signature': approved.header }).expect(200);
    expect(await contentOf(harbour)).toMatchObject({ isPaidOut: true });
    expect((await sell(dan, { tagId: travel, isSell: true }).expect(200)).body).toEqual({
      tagId: travel,
      isSell: true,
      returned: 0,
      message: 'You hold a listing in this tag.',
    });
  });

  it('when a member holds no listing in a tag, then isSell is false and nothing changes; an unknown tag is 404, a visitor 401, a bad body 400', async () => {
    const jazz = await tagIdOf('Jazz');
    expect((await sell(bea, { tagId: jazz, isSell: true }).expect(200)).body).toEqual({
      tagId: jazz,
      isSell: false,
      returned: 0,
      message: 'You hold no listing in this tag yet: pay a piece’s listing fee to list it.',
    });
    await sell(bea, { tagId: new Types.ObjectId().toHexString(), isSell: false }).expect(404);
    await request(app).post('/api/v2/tag/sell').send({ tagId: jazz, isSell: false }).expect(401);
    await sell(bea, { tagId: jazz }).expect(400);
  });
});
