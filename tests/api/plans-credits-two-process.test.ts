/**
 * A member's current plan (a kept head over a chain of plan starts) and their credit movement list (a numbered
 * chain), under changes from two app processes at once: plan payments delivered to both processes together while
 * both answer the plan, a new plan taken through the other process, credits changed by admins through both.
 * Afterwards the kept states' checks find nothing, and what the API answers equals what the subscriptions and the
 * movements say. A database written before the kept documents existed (the facts alone) is rebuilt to the same
 * answers.
 */
import mongoose, { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { sandboxProvider, type SignedDelivery } from '../../server/integrations/payments';
import { currentPlansState, givesPlan, SubscriptionModel, type SubscriptionDoc } from '../../server/modules/subscriptions';
import { newSubscriptionId } from '../../server/modules/subscriptions/testing';
import { creditListsState, UserExtModel } from '../../server/modules/users';
import { createTestApp, testConfig } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, type TestMember } from '../helpers/ledger-factory';
import { useSecondAppPerTest } from '../helpers/second-process';

useTestDatabase();

const config = testConfig();
/** The sandbox as the apps run it (same secrets): its page's decision makes the provider's signed delivery. */
const sandbox = sandboxProvider({ publicUrl: config.publicUrl, webhookSecret: config.payments.webhookSecret, payerKey: config.payments.sandboxPayerKey });

let app: ReturnType<typeof createTestApp>;
type Through = Parameters<typeof request>[0];

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp();
}, 120_000);
const second = useSecondAppPerTest();

const deliver = (through: Through, delivery: SignedDelivery) =>
  request(through)
    .post('/api/v2/payments/webhook/sandbox')
    .set(delivery.headers as Record<string, string>)
    .send(delivery.rawBody.toString());

const planOf = async (through: Through, member: TestMember) =>
  (
    (await request(through).get(`/api/v2/subscription/${member.id}`).set(bearer(member)).expect(200)).body as {
      subscription: { subscriptionId: string } | null;
    }
  ).subscription?.subscriptionId ?? null;

/** Opens a checkout for `planId` through `through`, and the provider's delivery of its first paid month. */
async function paidCheckout(through: Through, member: TestMember, planId: number): Promise<{ subscriptionId: string; delivery: SignedDelivery }> {
  const opened = await request(through).post('/api/v2/subscription/create').set(bearer(member)).send({ planId }).expect(201);
  const sessionId = new URL(opened.body.checkoutUrl as string).pathname.split('/').pop()!;
  return { subscriptionId: opened.body.subscriptionId as string, delivery: (await sandbox.decide(sessionId, true))!.delivery };
}

/** What the subscriptions say: the newest of the member's subscriptions that gives a plan now, if any. */
async function planByRecount(member: TestMember): Promise<string | null> {
  const all = await SubscriptionModel.find({ userId: new Types.ObjectId(member.id) }).lean<SubscriptionDoc[]>();
  const giving = all.filter((subscription) => givesPlan(subscription)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  return giving[0]?.subscriptionId ?? null;
}

async function expectPlansEqualFacts(members: TestMember[]): Promise<void> {
  for (const member of members) {
    const expected = await planByRecount(member);
    expect({ member: member.id, app: await planOf(app, member), second: await planOf(second.url, member) }).toEqual({
      member: member.id,
      app: expected,
      second: expected,
    });
  }
}

describe('the current plan, changed from two processes at once', () => {
  it('when paid months are delivered to both processes at once while both answer the plan, and a new plan replaces a cancelled one, then the check finds nothing and the API equals the subscriptions', async () => {
    const members = await Promise.all([createMember(), createMember(), createMember()]);
    const asking = (member: TestMember) => Array.from({ length: 3 }, (_, i) => planOf(i % 2 ? app : second.url, member));

    // Each member's first plan: its payment delivered to both processes at once, while both are asked for the plan.
    const first = await Promise.all(members.map((member) => paidCheckout(app, member, 1)));
    await Promise.all(
      members.flatMap((member, i) => [deliver(app, first[i]!.delivery).expect(200), deliver(second.url, first[i]!.delivery).expect(200), ...asking(member)]),
    );
    expect(await Promise.all(members.map((member) => planOf(second.url, member)))).toEqual(first.map((checkout) => checkout.subscriptionId));

    // Two members cancel their renewal and take the other plan through the other process; its payment raced as above.
    const movers = members.slice(0, 2);
    for (const [i, member] of movers.entries()) {
      await request(second.url)
        .post('/api/v2/subscription/update')
        .set(bearer(member))
        .send({ subscriptionId: first[i]!.subscriptionId, cancelAtPeriodEnd: true })
        .expect(200);
    }
    const next = await Promise.all(movers.map((member) => paidCheckout(second.url, member, 2)));
    await Promise.all(
      movers.flatMap((member, i) => [deliver(second.url, next[i]!.delivery).expect(200), deliver(app, next[i]!.delivery).expect(200), ...asking(member)]),
    );
    // The newest plan given is the member's plan, in both processes.
    expect(await Promise.all(movers.map((member) => planOf(app, member)))).toEqual(next.map((checkout) => checkout.subscriptionId));

    // One member's first plan ends (the provider ends it): the one they took after stays theirs.
    await SubscriptionModel.updateOne({ _id: first[0]!.subscriptionId }, { $set: { status: 'ended' } });

    expect(await currentPlansState.check()).toEqual({ checked: expect.any(Number), differences: [] });
    await expectPlansEqualFacts(members);
  }, 120_000);

  it('when the heads and starts are gone (facts written before them), then the check reports the plans, and the rebuild answers as the subscriptions say', async () => {
    const [granted, paid, none] = await Promise.all([createMember(), createMember(), createMember()]);
    const grantedId = newSubscriptionId();
    await SubscriptionModel.create({ _id: grantedId, subscriptionId: grantedId, userId: granted.id, planId: 2, status: 'active', currentPeriodEnd: null });
    const checkout = await paidCheckout(app, paid, 1);
    await deliver(second.url, checkout.delivery).expect(200);
    await expectPlansEqualFacts([granted, paid, none]);

    const db = mongoose.connection.db!;
    await Promise.all([db.collection('subscription_plan_heads').deleteMany({}), db.collection('subscription_plan_starts').deleteMany({})]);
    const report = await currentPlansState.check();
    expect(report.differences).toHaveLength(2);
    expect(await planOf(app, granted)).toBeNull();

    await currentPlansState.rebuild();
    expect(await currentPlansState.check()).toEqual({ checked: expect.any(Number), differences: [] });
    await expectPlansEqualFacts([granted, paid, none]);
    // The rebuild is safe to repeat.
    await currentPlansState.rebuild();
    await expectPlansEqualFacts([granted, paid, none]);
  }, 120_000);
});

type Movement = { id: string; standard: number; premium: number; reason: string; note: string | null };

const movementsOf = async (through: Through, member: TestMember, viewer: TestMember = member) =>
  (await request(through).get(`/api/v2/user-setting/credits/${member.id}`).set(bearer(viewer)).expect(200)).body as {
    credits: { sCredit: number; pCredit: number };
    movements: Movement[];
  };

/** What the movements say: the credits they add up to, and the last 100 ids, newest first. */
async function movementsByRecount(member: TestMember) {
  const all = await mongoose
    .connection!.collection('credit_movements')
    .find({ userId: new Types.ObjectId(member.id) })
    .sort({ at: -1, _id: -1 })
    .toArray();
  return {
    credits: { sCredit: all.reduce((sum, m) => sum + m.standard, 0), pCredit: all.reduce((sum, m) => sum + m.premium, 0) },
    ids: all.slice(0, 100).map((m) => String(m._id)),
  };
}

describe('the credit movement lists, changed from two processes at once', () => {
  it('when admins change one member’s credits through both processes at once, past a page of 100, then the check finds nothing and the API shows the newest 100 the movements hold', async () => {
    const [member, other] = await Promise.all([createMember(), createMember()]);
    const admin = await adminMember();
    const change = (through: Through, who: TestMember, tier: 's' | 'p', amount: number, note: string) =>
      request(through).post(`/api/v2/user-setting/update-${tier}credits`).set(bearer(admin)).send({ userId: who.id, amount, note });
    await change(app, member, 's', 5, 'to start with').expect(200);
    // Rounds of changes sent through both processes at once, to both members: the member's credit lock takes them
    // one at a time, in whichever process; each list is appended wherever its last entry was written.
    for (let round = 0; round < 18; round += 1) {
      const answers = await Promise.all([
        change(app, member, 's', 2, `a${round}`),
        change(second.url, member, 'p', 1, `b${round}`),
        change(second.url, member, 's', -1, `c${round}`),
        change(app, member, 'p', 1, `d${round}`),
        change(second.url, member, 's', 1, `e${round}`),
        change(app, member, 's', 1, `f${round}`),
        change(second.url, other, 'p', 1, `g${round}`),
      ]);
      // A change that waited too long for the member's lock is answered 409 and changes nothing: any other fails.
      for (const answer of answers) expect([200, 409]).toContain(answer.status);
    }

    expect(await creditListsState.check()).toEqual({ checked: expect.any(Number), differences: [] });
    for (const who of [member, other]) {
      const facts = await movementsByRecount(who);
      for (const through of [app, second.url]) {
        const seen = await movementsOf(through, who, admin);
        expect({ credits: seen.credits, ids: seen.movements.map((m) => m.id) }).toEqual(facts);
      }
    }
    expect((await movementsByRecount(member)).ids).toHaveLength(100);
  }, 180_000);

  it('when the lists are gone (movements recorded before them), then the check reports them, and the rebuild lists them oldest first', async () => {
    const [member] = await Promise.all([createMember()]);
    const admin = await adminMember();
    for (const [amount, note] of [
      [3, 'first'],
      [-1, 'second'],
      [2, 'third'],
    ] as const) {
      await request(second.url).post('/api/v2/user-setting/update-scredits').set(bearer(admin)).send({ userId: member.id, amount, note }).expect(200);
    }
    const before = await movementsOf(app, member);
    expect(before.movements.map((m) => m.note)).toEqual(['third', 'second', 'first']);

    await mongoose.connection.db!.collection('credit_movement_lists').deleteMany({});
    await UserExtModel.updateOne({ userId: new Types.ObjectId(member.id) }, { $set: { creditListEnd: 0 } });
    expect((await creditListsState.check()).differences).toHaveLength(3);

    await creditListsState.rebuild();
    expect(await creditListsState.check()).toEqual({ checked: expect.any(Number), differences: [] });
    // Both processes remember the list's end from before it was removed: the rebuild numbers the same movements the same way.
    const after = await movementsOf(second.url, member);
    expect(after).toEqual(before);
    // The next change is appended after the rebuilt list.
    await request(app).post('/api/v2/user-setting/update-pcredits').set(bearer(admin)).send({ userId: member.id, amount: 1, note: 'fourth' }).expect(200);
    expect((await movementsOf(second.url, member)).movements.map((m) => m.note)).toEqual(['fourth', 'third', 'second', 'first']);
    expect(await creditListsState.check()).toEqual({ checked: expect.any(Number), differences: [] });
  }, 120_000);
});
