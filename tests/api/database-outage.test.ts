/**
 * The database restarting under a running app: a FerretDB of this file's own is stopped and started again on the
 * same port and SQLite folder while the app keeps running. Meanwhile every call answers 503 with `Retry-After`
 * (never a 500 and never a hang), `/readyz` says not ready, Stripe's webhook fails so that Stripe delivers it
 * again, and a job run fails and leaves no lease behind; once the database is back the app serves again by
 * itself, and the money calls the clients send again are written once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mongoose, { Types } from 'mongoose';
import pino from 'pino';
import request from 'supertest';
import type { PaymentsConfig } from '../../server/config';
import { DATABASE_CONNECT_OPTIONS, ensureIndexes, withDatabaseName } from '../../server/db/connection';
import { freePort, startEmbeddedDatabase, type EmbeddedDatabase } from '../../server/db/embedded';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { runJob } from '../../server/jobs/scheduler';
import { DATABASE_UNAVAILABLE_MESSAGE, RETRY_AFTER_OUTAGE_SECONDS } from '../../server/lib/errors';
import { MutexModel } from '../../server/lib/mutex';
import { LedgerEntryModel } from '../../server/modules/ledger';
import { PaymentEventModel, PaymentOrderModel } from '../../server/modules/payments';
import { UserExtModel } from '../../server/modules/users';
import { createTestApp, testConfig } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { publishPiece, type Member } from '../helpers/e2e-pieces';
import { startSmtpServer } from '../helpers/smtp';
import { startStripeStandIn } from '../helpers/stripe-standin';
import { waitUntil } from '../helpers/wait';

const secretKey = 'sk_test_outage_0123456789';
const webhookSecret = 'whsec_outage_test_0123456789abcdef';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'knack-outage-db-'));
const binDir = path.resolve(__dirname, '../../data/bin');
let port: number;
let database: EmbeddedDatabase | undefined;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
let app: ReturnType<typeof createTestApp>;
let server: Server;
let webhookUrl: string;
let ana: Member;
let bea: Member;

const startDatabase = async () => {
  database = await startEmbeddedDatabase({ dataDir, binDir, port });
};
const stopDatabase = async () => {
  await database?.stop();
  database = undefined;
};
const bearer = (m: Member) => ({ Authorization: `Bearer ${m.token}` });
const pay = (m: Member, piece: { id: string }) => request(app).post('/api/v2/content/paid').set(bearer(m)).send({ userId: m.user.id, contentId: piece.id });
const readyz = () => request(app).get('/readyz');
const entriesOf = (piece: { id: string }) => LedgerEntryModel.find({ contentId: new Types.ObjectId(piece.id) }).lean();

beforeAll(async () => {
  port = await freePort();
  await startDatabase();
  await mongoose.connect(withDatabaseName(database!.uri, 'knack_outage'), DATABASE_CONNECT_OPTIONS);
  await ensureIndexes();
  await seedReferenceData();
  smtp = await startSmtpServer();
  stripe = await startStripeStandIn({ secretKey, webhookSecret });
  const payments: PaymentsConfig = { ...testConfig().payments, provider: 'stripe', stripe: { secretKey, webhookSecret, apiUrl: stripe.url } };
  app = createTestApp({ config: { payments }, mailer: smtpMailer(smtp.url, 'x@knack.test') });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2/payments/webhook/stripe`;
  ana = await createActiveMember(app, smtp, { firstName: 'Ana' });
  bea = await createActiveMember(app, smtp, { firstName: 'Bea' });
}, 120_000);

afterAll(async () => {
  server?.close();
  await mongoose.disconnect();
  await stopDatabase();
  await stripe?.stop();
  await smtp?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('when the database restarts under the running app', () => {
  it('then calls answer 503 with Retry-After and /readyz is not ready; once it is back the app serves again without a restart, Stripe’s retried webhook credits once and a retried credit payment is written once', async () => {
    const photo = await publishPiece(app, ana, { title: 'Paid During The Outage', tag: 'Photos', subTag: 'Travel', hue: 40, coverSide: 64 });
    const creditPhoto = await publishPiece(app, ana, { title: 'Credit During The Outage', tag: 'Photos', subTag: 'Travel', hue: 80, coverSide: 64 });
    const checkout = await pay(bea, photo).expect(200);
    const order = (await PaymentOrderModel.findById(checkout.body.orderId).lean())!;
    const session = stripe.session(order.sessionId!)!;
    const completed = stripe.event('checkout.session.completed', session, stripe.paid(session));
    const eventId = (JSON.parse(completed.payload) as { id: string }).id;
    await UserExtModel.updateOne({ userId: new Types.ObjectId(ana.user.id) }, { $set: { sCredit: 1, pCredit: 0 } }, { upsert: true });
    await readyz().expect(200, { status: 'ready' });

    // Calls on their way while the database stops: each is answered, 200 or 503, never 500.
    const inFlight = Array.from({ length: 4 }, () => request(app).get(`/api/v2/content/get-by-id/${photo.id}`).set(bearer(ana)));
    const [answers] = await Promise.all([Promise.all(inFlight), stopDatabase()]);
    for (const answer of answers) expect([200, 503]).toContain(answer.status);

    // Down: the reads, the money call and the webhook all answer 503 with Retry-After and the shared error shape.
    const read = await request(app).get(`/api/v2/content/get-by-id/${photo.id}`).set(bearer(ana));
    expect(read.status).toBe(503);
    expect(read.headers['retry-after']).toBe(String(RETRY_AFTER_OUTAGE_SECONDS));
    expect(read.body).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'unavailable', requestId: expect.any(String) });
    const creditDown = await pay(ana, creditPhoto);
    expect(creditDown.status).toBe(503);
    expect(creditDown.headers['retry-after']).toBe(String(RETRY_AFTER_OUTAGE_SECONDS));
    expect(creditDown.body).toMatchObject({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'unavailable' });
    const firstDelivery = await stripe.deliver(webhookUrl, completed);
    expect(firstDelivery.status).toBe(503);
    expect(firstDelivery.headers.get('retry-after')).toBe(String(RETRY_AFTER_OUTAGE_SECONDS));
    const notReady = await readyz();
    expect(notReady.status).toBe(503);
    expect(notReady.headers['retry-after']).toBe(String(RETRY_AFTER_OUTAGE_SECONDS));
    expect(notReady.body).toEqual({ status: 'unavailable', message: 'The database is not reachable.', code: 'unavailable' });

    // Back on the same port and folder: the app finds it by itself.
    await startDatabase();
    await waitUntil(async () => (await readyz()).status === 200, { what: '/readyz to answer 200 again' });
    await request(app).get(`/api/v2/content/get-by-id/${photo.id}`).set(bearer(ana)).expect(200);

    // Stripe delivers the failed event again: it is applied now, once; a later copy is a duplicate.
    expect(await stripe.redeliver()).toBe(1);
    expect(stripe.deliveries.filter((delivery) => delivery.eventId === eventId).map((delivery) => delivery.status)).toEqual([503, 200]);
    expect((await stripe.deliver(webhookUrl, completed)).body).toEqual({ received: true, duplicate: true });
    expect((await PaymentOrderModel.findById(order._id).lean())!.status).toBe('paid');
    expect(await PaymentEventModel.countDocuments({ _id: `stripe:${eventId}` })).toBe(1);
    const cardEntries = await entriesOf(photo);
    expect(cardEntries.map((entry) => ({ kind: entry.kind, amountMicros: entry.amountMicros }))).toEqual([{ kind: 'listing', amountMicros: 650_000 }]);

    // The member sends the credit payment again: one credit spent, one entry.
    const creditPaid = await pay(ana, creditPhoto).expect(200);
    expect(creditPaid.body).toMatchObject({ status: 'paid', content: { id: creditPhoto.id, isPaidOut: true } });
    await pay(ana, creditPhoto).expect(409);
    const creditEntries = await entriesOf(creditPhoto);
    expect(creditEntries.map((entry) => ({ kind: entry.kind, method: entry.method, amountMicros: entry.amountMicros }))).toEqual([
      { kind: 'listing', method: 'standard-credit', amountMicros: 650_000 },
    ]);
    expect((await UserExtModel.findOne({ userId: new Types.ObjectId(ana.user.id) }).lean())!.sCredit).toBe(0);
  }, 120_000);

  it('then a call cut off half-way (the order made, Stripe answering after the database went) answers 503, and the member paying again is charged and listed once', async () => {
    const photo = await publishPiece(app, ana, { title: 'Cut Off Half-Way', tag: 'Photos', subTag: 'Travel', hue: 120, coverSide: 64 });
    const ordersOf = () => PaymentOrderModel.find({ contentId: new Types.ObjectId(photo.id) }).lean();
    stripe.holdCheckouts(1);
    const cutOff = pay(bea, photo).then((answer) => answer);
    await waitUntil(() => stripe.heldCount() === 1, { what: 'the checkout call to reach Stripe' });
    await stopDatabase();
    stripe.releaseHeld();
    const answer = await cutOff;
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe(String(RETRY_AFTER_OUTAGE_SECONDS));
    expect(answer.body).toMatchObject({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'unavailable' });

    await startDatabase();
    await waitUntil(async () => (await readyz()).status === 200, { what: '/readyz to answer 200 again' });
    // The first order was made before the database went; its session never reached the member.
    const [abandoned] = await ordersOf();
    expect(abandoned).toMatchObject({ status: 'pending', sessionId: null });

    const again = await pay(bea, photo).expect(200);
    expect(again.body.status).toBe('checkout');
    const order = (await PaymentOrderModel.findById(again.body.orderId).lean())!;
    const session = stripe.session(order.sessionId!)!;
    const completed = stripe.event('checkout.session.completed', session, stripe.paid(session));
    expect((await stripe.deliver(webhookUrl, completed)).status).toBe(200);
    const entries = await entriesOf(photo);
    expect(entries.map((entry) => ({ kind: entry.kind, amountMicros: entry.amountMicros }))).toEqual([{ kind: 'listing', amountMicros: 650_000 }]);
    expect((await ordersOf()).map((made) => made.status).sort()).toEqual(['paid', 'pending']);
  }, 120_000);

  it('then a job run meanwhile fails and is logged, the lease of a run cut short frees itself, and the next run does the work', async () => {
    const logged: { msg: string; job?: string }[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line) as { msg: string; job?: string }) });
    let runs = 0;
    // A run that loses the database half-way: it holds the lease when the database goes.
    const cutShort = { name: 'outage-cut-short', schedule: '* * * * *', leaseMs: 1_500, run: () => stopDatabase().then(() => ++runs) };
    await runJob(cutShort, logger);
    expect(runs).toBe(1);

    // Down: the next run cannot take its lease; it fails, logged, and runs nothing.
    const counting = { ...cutShort, run: async () => ++runs + (await LedgerEntryModel.countDocuments({})) * 0 };
    await runJob(counting, logger);
    expect(runs).toBe(1);
    expect(logged.filter((line) => line.msg === 'job failed').map((line) => line.job)).toEqual(['outage-cut-short', 'outage-cut-short']);

    await startDatabase();
    await waitUntil(async () => (await readyz()).status === 200, { what: '/readyz to answer 200 again' });
    // The cut-short run's lease could not be given back; it expires by itself and a later run takes it.
    expect(await MutexModel.exists({ _id: 'job:outage-cut-short' })).not.toBeNull();
    await waitUntil(
      async () => {
        await runJob(counting, logger);
        return runs === 2;
      },
      { what: 'a run after the lease expired' },
    );
    expect(await MutexModel.exists({ _id: 'job:outage-cut-short' })).toBeNull();
  }, 120_000);
});
