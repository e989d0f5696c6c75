/**
 * A member's current plan, found by `_id` only: on the embedded database a filter on the member reads every
 * subscription, and this is asked at sign-in, on the plan page and on every privacy choice.
 *
 * The facts are the member's plan starts (a numbered chain, subscriptions.model.ts), each appended after a
 * subscription was written so that it gives its plan; the kept head holds the subscriptions that gave a plan as of
 * a start. A reader reads the head, then the starts after it (usually one read that finds none), then each
 * subscription they name, and keeps those that give their plan now. That is exact whatever was lost of the heads'
 * writes: a subscription leaves the head only once it was read not giving its plan, and gives one again only
 * through a paid month, which appends a start after it is written (a reader who reads the chain's end before that
 * start is appended reads a number below it, and finds it next time).
 */
import { Types } from 'mongoose';
import { comparedState, type KeptStateReport, noteDifference } from '../../lib/kept-state';
import { keepHint, readById } from '../../lib/query';
import {
  givesPlan,
  notePlanStart,
  PlanHeadModel,
  planStarts,
  PlanStartModel,
  SubscriptionModel,
  type PlanHeadDoc,
  type PlanStartDoc,
  type SubscriptionDoc,
} from './subscriptions.model';

/** Forgets the plan start chains this process knows, for tests that empty the collections under a running app. */
export const forgetPlanStarts = () => planStarts.forget();

/** The member's id as heads and starts are keyed by (the lower-case hex of the ObjectId). */
const memberKey = (userId: string) => new Types.ObjectId(userId).toHexString();

const newestFirst = (a: SubscriptionDoc, b: SubscriptionDoc) => b.createdAt.getTime() - a.createdAt.getTime();

/**
 * Every subscription that gives the member a plan at `now`, newest first. A head behind the chain (or naming one
 * that no longer gives its plan) is written anew, best-effort, unless `keep` is false.
 */
export async function plansGivenTo(userId: string, now = new Date(), { keep = true } = {}): Promise<SubscriptionDoc[]> {
  const member = memberKey(userId);
  const head = await readById<PlanHeadDoc>(PlanHeadModel, member);
  let upTo = head?.upTo ?? 0;
  const later: string[] = [];
  for (;;) {
    const start = await readById<Pick<PlanStartDoc, 'subscriptionId'>>(PlanStartModel, planStarts.idOf(member, upTo + 1), { subscriptionId: 1 });
    if (!start) break;
    later.push(start.subscriptionId);
    upTo += 1;
  }
  const named = [...new Set([...(head?.live ?? []), ...later])];
  const subscriptions = await Promise.all(named.map((id) => readById<SubscriptionDoc>(SubscriptionModel, id)));
  const ours = subscriptions.filter((subscription): subscription is SubscriptionDoc => subscription !== null && String(subscription.userId) === member);
  // The head keeps what gives a plan by the clock (a caller may ask about another moment).
  const live = ours.filter((subscription) => givesPlan(subscription)).map((subscription) => subscription._id);
  if (keep && (later.length > 0 || live.length !== named.length)) await keepHint(PlanHeadModel, member, { upTo, live });
  return ours.filter((subscription) => givesPlan(subscription, now)).sort(newestFirst);
}

/** The subscription that gives the member a plan now (the newest, if there were ever two), or null. */
export async function currentSubscriptionOf(userId: string, now = new Date()): Promise<SubscriptionDoc | null> {
  return (await plansGivenTo(userId, now))[0] ?? null;
}

/** A paid month (or a subscription made giving its plan): its start is appended, then the member's head brought on. */
export async function startPlan(subscription: Pick<SubscriptionDoc, '_id' | 'userId'>): Promise<void> {
  const member = memberKey(String(subscription.userId));
  await notePlanStart(member, subscription._id);
  await plansGivenTo(member);
}

const BATCH = 1_000;

/**
 * Compares each member's plans as the heads and starts give them with the plans their subscriptions give now; with
 * `write`, writes every member's head from the subscriptions, as of their chain's end (read first, so that a start
 * appended meanwhile is past it).
 */
async function compare(write: boolean): Promise<KeptStateReport> {
  const ends = new Map<string, number>();
  const starts = new Map<string, Map<number, string>>();
  for await (const raw of PlanStartModel.collection.find({}, { projection: { subscriptionId: 1 }, batchSize: BATCH })) {
    const start = raw as unknown as PlanStartDoc;
    const cut = start._id.lastIndexOf('#');
    const member = start._id.slice(0, cut);
    const n = Number(start._id.slice(cut + 1));
    ends.set(member, Math.max(ends.get(member) ?? 0, n));
    if (!starts.has(member)) starts.set(member, new Map());
    starts.get(member)!.set(n, start.subscriptionId);
  }
  const given = new Map<string, Set<string>>();
  const members = new Set<string>(ends.keys());
  for await (const raw of SubscriptionModel.collection.find({}, { projection: { userId: 1, status: 1, currentPeriodEnd: 1 }, batchSize: BATCH })) {
    const subscription = raw as unknown as Pick<SubscriptionDoc, '_id' | 'userId' | 'status' | 'currentPeriodEnd'>;
    const member = String(subscription.userId);
    members.add(member);
    if (!givesPlan(subscription)) continue;
    if (!given.has(member)) given.set(member, new Set());
    given.get(member)!.add(subscription._id);
  }
  const heads = new Map<string, PlanHeadDoc>();
  for await (const raw of PlanHeadModel.collection.find({}, { batchSize: BATCH })) {
    const head = raw as unknown as PlanHeadDoc;
    heads.set(head._id, head);
    members.add(head._id);
  }
  const differences: string[] = [];
  const writes: { replaceOne: { filter: { _id: string }; replacement: Omit<PlanHeadDoc, '_id'>; upsert: true } }[] = [];
  const flush = async () => {
    if (write && writes.length) await PlanHeadModel.collection.bulkWrite(writes.splice(0) as never[], { ordered: false });
  };
  for (const member of members) {
    const head = heads.get(member);
    const mine = starts.get(member);
    // What a reader finds: the head's, then each start after it up to the first number missing.
    const found = new Set(head?.live ?? []);
    for (let n = (head?.upTo ?? 0) + 1; mine?.has(n); n += 1) found.add(mine.get(n)!);
    const expected = given.get(member) ?? new Set<string>();
    const missed = [...expected].filter((id) => !found.has(id));
    if (missed.length) noteDifference(differences, `plans of ${member}: ${missed.join(', ')} gives a plan and is not found from the head`);
    if (head && head.upTo > (ends.get(member) ?? 0)) noteDifference(differences, `plans of ${member}: the head is at ${head.upTo}, past the last start`);
    if (write) writes.push({ replaceOne: { filter: { _id: member }, replacement: { upTo: ends.get(member) ?? 0, live: [...expected] }, upsert: true } });
    if (writes.length >= BATCH) await flush();
  }
  await flush();
  return { checked: members.size, differences };
}

export const currentPlansState = comparedState(
  'current-plans',
  "Each member's subscriptions that give a plan, kept as a head (subscription_plan_heads) over their plan starts, rebuilt from the subscriptions.",
  compare,
);
