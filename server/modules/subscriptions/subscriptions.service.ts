/**
 * Subscribing to a plan through the payment provider, as listing fees are paid: `subscription/create` opens a
 * subscription checkout (the sandbox's page by default, Stripe Checkout in subscription mode when configured),
 * and only the provider's signed webhooks decide what happens, never the browser's return. Each paid month
 * grants the plan's credits once (keyed by the subscription and the period's start, so a redelivered or
 * concurrent event grants nothing more); cancelling stops the renewals; a failed renewal ends the plan when
 * the paid month ends.
 */
import {
  isSandbox,
  nextMonth,
  ProviderError,
  type PaymentProvider,
  type PayerCookie,
  type SignedDelivery,
  type WebhookEvent,
} from '../../integrations/payments';
import type { AuthContext } from '../../lib/auth-context';
import type { AuditDetails } from '../../lib/audit-details';
import { requireAdmin, requireOwnerOrAdmin } from '../../lib/permissions';
import { AppError, notFound } from '../../lib/errors';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import type { Logger } from '../../lib/logger';
import { microsToUsd } from '../../lib/money';
import { withLock } from '../../lib/mutex';
import { siteUrlFor } from '../../lib/public-origin';
import { grantCredits } from '../users';
import { PlanModel, type PlanDoc } from './plans.model';
import { currentSubscriptionOf, startPlan } from './subscriptions.current';
import { givesPlan, newSubscriptionId, SubscriptionModel, type SubscriptionDoc } from './subscriptions.model';

export const SUBSCRIPTION_MESSAGES = {
  approved: 'Subscription approved!',
  failed: 'Subscription payment failed',
  pending: 'Waiting for the payment to be confirmed.',
  planNotFound: 'Plan not found',
  notFound: 'Subscription not found',
  alreadyOnPlan: 'You already have this plan.',
  cancelFirst: 'Your current plan renews every month. Cancel its renewal before you choose another plan.',
  notActive: 'This subscription is not active.',
  cannotResume: 'The last renewal of this plan failed, so it cannot be resumed. Choose a plan again.',
  providerDown: 'The payment provider could not be reached. Please try again.',
  adminsOnly: 'Only admins can change plans.',
} as const;

interface Deps {
  provider: PaymentProvider;
  publicUrl: string;
  /** The origins a checkout's links may go back to (see lib/public-origin.ts). */
  publicOrigins?: string[];
  logger: Logger;
}

export type PlanChange = Partial<Pick<PlanDoc, 'name' | 'sCredits' | 'pCredits' | 'priceMicros'>>;

export const toPlanDto = ({ planId, name, sCredits, pCredits, priceMicros }: PlanDoc) => ({
  planId,
  name,
  sCredits,
  pCredits,
  priceMicros,
  price: microsToUsd(priceMicros),
});

export const toSubscriptionDto = (subscription: SubscriptionDoc) => ({
  subscriptionId: subscription.subscriptionId,
  planId: subscription.planId,
  userId: String(subscription.userId),
  createdAt: subscription.createdAt.toISOString(),
  status: subscription.status,
  currentPeriodEnd: subscription.currentPeriodEnd?.toISOString() ?? null,
  cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
  renewalFailed: subscription.paymentFailedAt !== null,
});

/** The plans, lowest first. */
export const allPlans = () => PlanModel.find().sort({ planId: 1 }).lean<PlanDoc[]>();

/** Whether the member's plan is above the first (lowest) plan: what choosing who sees a piece needs. */
export async function hasPlanAboveFirst(userId: string): Promise<boolean> {
  const [plans, current] = await Promise.all([allPlans(), currentSubscriptionOf(userId)]);
  return Boolean(current && plans[0] && current.planId > plans[0].planId);
}

/** Whether the member's plan is one of the listed plans: what analytics need. */
export async function hasListedPlan(userId: string): Promise<boolean> {
  const [plans, current] = await Promise.all([allPlans(), currentSubscriptionOf(userId)]);
  return Boolean(current && plans.some((plan) => plan.planId === current.planId));
}

export function createSubscriptionsService({ provider, publicUrl, publicOrigins, logger }: Deps) {
  /** The member's own subscription (or any, for an admin); another member's answers 404, as one that does not exist. */
  async function ownSubscription(caller: AuthContext, subscriptionId: string): Promise<SubscriptionDoc> {
    const subscription = await SubscriptionModel.findById(subscriptionId).lean<SubscriptionDoc>();
    if (!subscription) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
    requireOwnerOrAdmin(caller, subscription.userId, SUBSCRIPTION_MESSAGES.notFound);
    return subscription;
  }

  const update = (subscriptionId: string, set: Partial<SubscriptionDoc>) =>
    SubscriptionModel.findByIdAndUpdate(subscriptionId, { $set: set }, { new: true }).lean<SubscriptionDoc>();

  /** A month was paid: the plan runs to the period's end, and the period's credits are granted (once per period). */
  async function applyPaid(subscription: SubscriptionDoc, facts: NonNullable<WebhookEvent['subscription']>) {
    const periodStart = facts.periodStart ?? new Date();
    const periodEnd = facts.periodEnd ?? nextMonth(periodStart);
    const end = subscription.currentPeriodEnd && subscription.currentPeriodEnd > periodEnd ? subscription.currentPeriodEnd : periodEnd;
    await update(subscription._id, {
      status: 'active',
      currentPeriodEnd: end,
      providerSubscriptionId: facts.providerSubscriptionId ?? subscription.providerSubscriptionId,
      paymentFailedAt: null,
    });
    // After the write, so that whoever finds the start finds the plan given. A process that stops between the two
    // answers no 2xx, and the provider delivers the event again, which appends it.
    await startPlan(subscription);
    faultPoint(FAULT_POINTS.planAfterPeriod);
    const plan = await PlanModel.findOne({ planId: subscription.planId }).lean<PlanDoc>();
    if (!plan)
      return void logger.error({ subscriptionId: subscription._id, planId: subscription.planId }, 'a paid subscription has no plan: no credits granted');
    const key = `plan:${subscription._id}:${periodStart.toISOString()}`;
    await grantCredits(String(subscription.userId), { standard: plan.sCredits, premium: plan.pCredits }, key, subscription._id);
  }

  return {
    /**
     * `subscription/create`: a pending subscription and the provider's checkout for its first month, whose links go
     * back to the site at the origin the member came from when it is one of ours (lib/public-origin.ts).
     */
    async start(
      caller: AuthContext,
      planId: number,
      origin?: string,
    ): Promise<{ status: 'checkout'; subscriptionId: string; checkoutUrl: string; payerCookie?: PayerCookie }> {
      const plan = await PlanModel.findOne({ planId }).lean<PlanDoc>();
      if (!plan) throw notFound(SUBSCRIPTION_MESSAGES.planNotFound);
      const current = await currentSubscriptionOf(caller.userId);
      if (current && !current.cancelAtPeriodEnd) {
        throw new AppError(409, 'conflict', current.planId === planId ? SUBSCRIPTION_MESSAGES.alreadyOnPlan : SUBSCRIPTION_MESSAGES.cancelFirst);
      }
      const subscriptionId = newSubscriptionId();
      await SubscriptionModel.create({
        _id: subscriptionId,
        subscriptionId,
        userId: caller.userId,
        planId,
        status: 'pending',
        priceMicros: plan.priceMicros,
        provider: provider.kind,
      });
      const siteUrl = siteUrlFor({ publicUrl, publicOrigins }, origin);
      const back = (page: 'approve' | 'cancel') => `${siteUrl}/${page}?subscription=${subscriptionId}`;
      try {
        const checkout = await provider.createSubscriptionCheckout({
          subscriptionId,
          payerId: caller.userId,
          amountMicros: plan.priceMicros,
          currency: 'usd',
          description: `Knack ${plan.name} plan: ${plan.sCredits} standard and ${plan.pCredits} premium listing credits every month`,
          successUrl: back('approve'),
          cancelUrl: back('cancel'),
          siteUrl,
        });
        return { status: 'checkout', subscriptionId, checkoutUrl: checkout.url, payerCookie: checkout.payerCookie };
      } catch (err) {
        await update(subscriptionId, { status: 'failed' });
        if (!(err instanceof ProviderError)) throw err;
        logger.error({ err, subscriptionId }, 'payment provider refused the subscription checkout');
        throw new AppError(502, 'payment_provider', SUBSCRIPTION_MESSAGES.providerDown);
      }
    },

    /** A subscription and what its checkout came to, for the page the provider sends the member back to. */
    async status(caller: AuthContext, subscriptionId: string) {
      const subscription = await ownSubscription(caller, subscriptionId);
      const message =
        subscription.status === 'pending'
          ? SUBSCRIPTION_MESSAGES.pending
          : subscription.status === 'failed'
            ? SUBSCRIPTION_MESSAGES.failed
            : SUBSCRIPTION_MESSAGES.approved;
      return { subscription: toSubscriptionDto(subscription), message };
    },

    /** `subscription/update`: stops the renewals (the plan runs to the paid month's end), or resumes them. */
    async setRenewal(caller: AuthContext, subscriptionId: string, cancel: boolean) {
      return withLock(`subscription:${subscriptionId}`, async () => {
        const subscription = await ownSubscription(caller, subscriptionId);
        if (!givesPlan(subscription)) throw new AppError(409, 'conflict', SUBSCRIPTION_MESSAGES.notActive);
        if (!cancel && subscription.paymentFailedAt) throw new AppError(409, 'conflict', SUBSCRIPTION_MESSAGES.cannotResume);
        if (subscription.providerSubscriptionId) {
          try {
            await provider.setCancelAtPeriodEnd(subscription.providerSubscriptionId, cancel);
          } catch (err) {
            if (!(err instanceof ProviderError)) throw err;
            logger.error({ err, subscriptionId }, 'payment provider refused to change the renewal');
            throw new AppError(502, 'payment_provider', SUBSCRIPTION_MESSAGES.providerDown);
          }
        }
        return { subscription: toSubscriptionDto((await update(subscriptionId, { cancelAtPeriodEnd: cancel }))!) };
      });
    },

    /** Applies a verified subscription event of the provider (payments' webhook hands them over). */
    async applyEvent(event: WebhookEvent): Promise<void> {
      const facts = event.subscription;
      const subscriptionId = facts?.subscriptionId;
      if (!facts || !subscriptionId) return void logger.warn({ eventId: event.eventId, type: event.type }, 'subscription event without our subscription id');
      await withLock(`subscription:${subscriptionId}`, async () => {
        const subscription = await SubscriptionModel.findById(subscriptionId).lean<SubscriptionDoc>();
        if (!subscription || subscription.provider !== provider.kind) {
          return void logger.warn({ eventId: event.eventId, subscriptionId }, 'subscription event for an unknown subscription');
        }
        switch (event.type) {
          case 'subscription.paid':
            return applyPaid(subscription, facts);
          case 'subscription.payment_failed':
            // The month already paid stays; nothing renews after it.
            await update(subscriptionId, { paymentFailedAt: new Date(), cancelAtPeriodEnd: true });
            return;
          case 'subscription.checkout_failed':
            if (subscription.status === 'pending') await update(subscriptionId, { status: 'failed' });
            return;
          case 'subscription.ended':
            await update(subscriptionId, { status: 'ended' });
            return;
        }
      });
    },

    /** An admin changes a plan's name, credits or price; they apply to checkouts and renewals from now on. */
    async updatePlan(caller: AuthContext, planId: number, change: PlanChange) {
      requireAdmin(caller, SUBSCRIPTION_MESSAGES.adminsOnly);
      // The plan as it was (the update answers the document before it): the audit log records what changed.
      const plan = await PlanModel.findOneAndUpdate({ planId }, { $set: change }).lean<PlanDoc>();
      if (!plan) throw notFound(SUBSCRIPTION_MESSAGES.planNotFound);
      const fields = Object.keys(change) as (keyof PlanChange)[];
      const audit: AuditDetails = {
        target: { kind: 'plan', id: String(planId) },
        before: Object.fromEntries(fields.map((field) => [field, plan[field]])),
        after: Object.fromEntries(fields.map((field) => [field, change[field]!])),
      };
      return { plan: toPlanDto({ ...plan, ...change }), audit };
    },

    /**
     * The sandbox charges renewals itself (a real provider does it on its side): every subscription whose month
     * has ended is renewed, or ended when it was cancelled, through the same signed webhook.
     */
    async renewDueSandboxSubscriptions(deliver: (delivery: SignedDelivery) => Promise<void>, now = new Date()): Promise<number> {
      if (!isSandbox(provider)) return 0;
      let renewed = 0;
      for (const id of await provider.dueRenewals(now)) {
        const delivery = await provider.renew(id, true, now);
        if (delivery) {
          await deliver(delivery);
          renewed += 1;
        }
      }
      return renewed;
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
