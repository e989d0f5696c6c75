/**
 * Monetizing a piece (paying its listing fee, so that its knacks earn money): the quote, paying with a
 * credit, a discount code or a card checkout through the payment provider, and the provider's webhooks. Any
 * signed-in member may pay for a piece they can see (the owner, or a supporter); the payer becomes its
 * payerId.
 *
 * Webhooks are verified over the raw bytes, deduplicated by event id, and applied idempotently without ever
 * moving an order backwards; the ledger entry `listing:{contentId}` makes a piece monetized once, and a card
 * payment that came second is refunded through the provider once (`refund:{orderId}`).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Types } from 'mongoose';
import { isSubscriptionEvent, ProviderError, SignatureError, type PaymentProvider, type WebhookEvent } from '../../integrations/payments';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import type { Logger } from '../../lib/logger';
import { microsToUsd } from '../../lib/money';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { withLease, withLock } from '../../lib/mutex';
import { siteUrlFor } from '../../lib/public-origin';
import type { AuthContext } from '../../lib/auth-context';
import { requireAdmin } from '../../lib/permissions';
import { canView, type ContentDoc, type ContentsService, markPaidOut, contentReads } from '../contents';
import { creditUsesBefore, givePlanCreditBack, planCreditsLeft, settlePendingCredits, takePlanCredit } from '../users';
import { entryById, entryExists, piecesListedBy, readJournal, type LedgerEntryDoc } from '../ledger';
import { tagsService } from '../tags';
import { LISTING_REPAIRS, LISTING_REPAIRS_LEASE_MS, markListed } from './listing-marks';
import { creditMethod, LISTING_FEES, postListing, postRefund, postRelisting, refundKey, tierOf, waivableFee, type Tier } from './listing';
import { toOrderDto } from './payments.mapper';
import { coverOf, coversTier, listDiscountCodes, notCoveredMessage } from './discount-codes';
import {
  DiscountCodeModel,
  DiscountUseModel,
  PaymentEventModel,
  PaymentOrderModel,
  type DiscountCodeDoc,
  type DiscountCover,
  type PaymentOrderDoc,
} from './payments.model';
import { noteOrderOf, recentOrdersOf } from './payment-orders.lists';

export const PAYMENT_MESSAGES = {
  paid: 'Paid successfully',
  failed: 'Payment Failed',
  pending: 'Waiting for the payment to be confirmed.',
  superseded: 'This piece was monetized by someone else first. Your payment will be refunded.',
  relistingSuperseded: 'This piece was opened to bids again by another payment first. This payment will be refunded.',
  alreadyPaid: 'This piece is already monetized.',
  forSelf: 'You can only pay as yourself.',
  contentNotFound: 'Content not found',
  orderNotFound: 'Order not found',
  providerDown: 'The payment provider could not be reached. Please try again.',
  badSignature: 'The webhook signature is not valid.',
  noProvider: 'This server does not take payments through that provider.',
  codeEmpty: 'Discount code should not be empty',
  codeInvalid: 'This discount code is not valid.',
  codeValid: 'This discount code is valid.',
  codeExists: 'This discount code already exists.',
  adminsOnly: 'Only admins can create discount codes.',
  adminsOnlyList: 'Only admins can see discount codes.',
  tagSold: 'You hold a listing in this tag.',
  tagNotSold: 'You hold no listing in this tag yet: pay a piece’s listing fee to list it.',
} as const;

interface Deps {
  provider: PaymentProvider;
  contents: ContentsService;
  /** Where subscription events go: the webhook is one per provider, for one-time payments and subscriptions alike. */
  subscriptions: { applyEvent(event: WebhookEvent): Promise<void> };
  publicUrl: string;
  /** The origins a checkout's links may go back to (see lib/public-origin.ts). */
  publicOrigins?: string[];
  logger: Logger;
}

/** An order's lock outlives a refund call at the provider (its timeout is 15 seconds). */
const ORDER_LOCK = { ttlMs: 30_000 };
const alreadyPaid = () => new AppError(409, 'conflict', PAYMENT_MESSAGES.alreadyPaid);

/** What a checkout charges for: a piece's listing fee, or the fee that opens a sold piece to bids again. */
interface Charge {
  amountMicros: number;
  description: string;
  purpose: 'listing' | 'relisting';
  soldBidId?: string;
}
const listingCharge = (content: ContentDoc, tier: Tier): Charge => ({
  amountMicros: LISTING_FEES[tier],
  description: `Knack listing fee (${tier}): ${content.title}`,
  purpose: 'listing',
});
const normalizeCode = (code: string) => code.trim().toUpperCase();

/** Whether a listing entry is the member's own, paid by a credit of the tier. */
const isOwnCreditListing = (entry: Pick<LedgerEntryDoc, 'actorId' | 'method'>, userId: string, tier: Tier) =>
  String(entry.actorId) === userId && entry.method === creditMethod(tier);

/** A credit used this long ago without its listing belongs to a payment that stopped: a request takes seconds. */
export const STALLED_CREDIT_USE_MS = 10 * 60_000;

/**
 * How far back `tag/sell` looks for the member's pending orders to fail: a card checkout lasts 24 hours at most (the
 * provider then reports it expired, and the webhook fails its order), so two days hold every checkout still open.
 */
const RETURNABLE_ORDER_MS = 2 * 24 * 60 * 60_000;

export function createPaymentsService({ provider, contents, subscriptions, publicUrl, publicOrigins, logger }: Deps) {
  /** A piece the payer can see and that is not monetized yet. */
  async function payable(caller: AuthContext, userId: string, contentId: string): Promise<ContentDoc> {
    if (userId !== caller.userId) throw new AppError(403, 'forbidden', PAYMENT_MESSAGES.forSelf);
    const content = await contentReads.byId<ContentDoc>(contentId);
    if (!content || !(await canView(content, caller))) throw notFound(PAYMENT_MESSAGES.contentNotFound);
    if (content.isPaidOut) throw alreadyPaid();
    return content;
  }

  async function paidAnswer(content: ContentDoc | null, contentId: Types.ObjectId, payer: AuthContext) {
    const now = content ?? (await contentReads.byId<ContentDoc>(contentId));
    if (!now) throw notFound(PAYMENT_MESSAGES.contentNotFound);
    return { message: PAYMENT_MESSAGES.paid, content: await contents.dto(now, payer) };
  }

  /**
   * A card checkout for the fee: the order first (its id is the provider's idempotency key), then the session.
   * Its links go back to the site at the origin the member came from (when it is one of ours).
   */
  async function checkout(caller: AuthContext, content: ContentDoc, charge: Charge, origin: string | undefined) {
    const orderId = randomBytes(12).toString('hex');
    const { amountMicros, description, purpose, soldBidId = null } = charge;
    // On the member's list first, so that no order of theirs exists without being on it.
    await noteOrderOf(caller.userId, orderId);
    await PaymentOrderModel.create({
      _id: orderId,
      userId: caller.userId,
      contentId: content._id,
      amountMicros,
      purpose,
      soldBidId,
      provider: provider.kind,
      status: 'pending',
    });
    const siteUrl = siteUrlFor({ publicUrl, publicOrigins }, origin);
    // The client reads `order` on its return and asks the order's status; `cancelled` says the member left the
    // checkout (its cancelPaid: the provider tells that only when the session expires).
    const returnUrl = `${siteUrl}/profile/default?order=${orderId}`;
    try {
      const session = await provider.createCheckout({
        orderId,
        payerId: caller.userId,
        amountMicros,
        currency: 'usd',
        description,
        successUrl: returnUrl,
        cancelUrl: `${returnUrl}&cancelled=1`,
        siteUrl,
      });
      await PaymentOrderModel.updateOne({ _id: orderId }, { $set: { sessionId: session.sessionId } });
      return { status: 'checkout' as const, orderId, checkoutUrl: session.url, payerCookie: session.payerCookie };
    } catch (err) {
      // No checkout session exists, so no webhook can have changed this order meanwhile: it is still pending, and is
      // written by `_id` alone (a filter on `_id` and another field reads the whole collection on FerretDB).
      await PaymentOrderModel.updateOne({ _id: orderId }, { $set: { status: 'failed' } });
      if (!(err instanceof ProviderError)) throw err;
      logger.error({ err, orderId }, 'payment provider refused the checkout');
      throw new AppError(502, 'payment_provider', PAYMENT_MESSAGES.providerDown);
    }
  }

  /**
   * Pays back an order whose payment came after another had monetized its piece: at the provider, then the ledger
   * entry `refund:{orderId}` (the member's history shows it). Both are keyed by the order (the provider's
   * idempotency key, the entry's `_id`), so a redelivered or concurrent webhook refunds once. When the provider
   * fails, the webhook answers 502 and nothing is posted: the provider delivers it again, and that refunds.
   */
  async function refundSuperseded(order: PaymentOrderDoc): Promise<void> {
    const key = refundKey(order._id);
    if (await entryExists(key)) return;
    const facts = {
      orderId: order._id,
      contentId: String(order.contentId),
      payerId: String(order.userId),
      amountMicros: order.amountMicros,
      provider: order.provider,
    };
    if (!order.paymentId) return void logger.error(facts, 'a superseded payment names no provider payment: refund it by hand');
    let refundId: string;
    try {
      ({ refundId } = await provider.refund({ key, paymentId: order.paymentId, amountMicros: order.amountMicros, orderId: order._id }));
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      logger.error({ err, ...facts }, 'payment provider did not refund a superseded payment; its webhook will be delivered again');
      throw new AppError(502, 'payment_provider', PAYMENT_MESSAGES.providerDown);
    }
    await postRefund(order, refundId);
    logger.info({ ...facts, refundId }, 'refunded a listing fee paid for a piece monetized meanwhile by another payment');
  }

  /** The money came in: the order is paid, then the piece monetized by its payer (unless someone was first: then it is refunded). */
  async function applyCompleted(order: PaymentOrderDoc, event: WebhookEvent): Promise<void> {
    // Read, then written by `_id`: apply runs under the order's lock, so no other event changes it between.
    const paid =
      order.status === 'pending' || order.status === 'failed'
        ? await PaymentOrderModel.findByIdAndUpdate(
            order._id,
            { $set: { status: 'paid', paidEventId: event.eventId, paymentId: event.paymentId ?? order.paymentId ?? null } },
            { new: true },
          ).lean<PaymentOrderDoc>()
        : order;
    faultPoint(FAULT_POINTS.webhookAfterOrderPaid);
    // A later delivery finishes a refund that an earlier one could not make.
    if (paid?.status === 'superseded') return refundSuperseded(paid);
    if (paid?.status !== 'paid') return;
    const payerId = String(paid.userId);
    // The ref of the event that paid the order, so that a redelivery (or a crash retry) sees the entry as its own.
    const ref = `webhook:${paid.paidEventId}`;
    const relisting = paid.purpose === 'relisting' && paid.soldBidId;
    const { entry, created } = relisting
      ? await postRelisting(relisting, paid.contentId, payerId, paid.amountMicros, ref)
      : await postListing(paid.contentId, payerId, 'card', paid.amountMicros, ref);
    faultPoint(FAULT_POINTS.webhookAfterLedger);
    if (!created && entry.ref !== ref) {
      await PaymentOrderModel.updateOne({ _id: paid._id }, { $set: { status: 'superseded' } });
      return refundSuperseded({ ...paid, status: 'superseded' });
    }
    if (!relisting) await markPaidOut(paid.contentId, payerId);
  }

  /**
   * Applies one event to its order, holding the order's lock: a provider may deliver an event twice, or two
   * events of one order, at once to two processes, and each step below reads the order's status and then
   * writes it (a guarded update alone is not exclusive on FerretDB).
   */
  async function apply(event: WebhookEvent): Promise<void> {
    if (event.type === 'ignored' || !event.orderId) return;
    await withLock(
      `order:${event.orderId}`,
      async () => {
        const found = await PaymentOrderModel.findById(event.orderId).lean<PaymentOrderDoc>();
        const order = found?.provider === provider.kind ? found : null;
        if (!order || (event.sessionId && order.sessionId && order.sessionId !== event.sessionId)) {
          logger.warn({ eventId: event.eventId, orderId: event.orderId, sessionId: event.sessionId }, 'payment webhook for an unknown order');
          return;
        }
        if (event.type === 'checkout.completed') await applyCompleted(order, event);
        // A failure only ends a pending order: a late failure after the payment changes nothing. The piece stays
        // not paid out, as after a cancelled payment.
        else if (order.status === 'pending') await PaymentOrderModel.updateOne({ _id: order._id }, { $set: { status: 'failed' } });
      },
      ORDER_LOCK,
    );
  }

  /**
   * The code, if it exists, has not expired and has uses left. The code is read by `_id` alone and its expiry checked
   * here: a filter on `_id` and another field reads the whole collection on FerretDB.
   */
  async function usableCode(code: string, now: Date): Promise<DiscountCodeDoc | null> {
    const found = await DiscountCodeModel.findById(code).lean<DiscountCodeDoc>();
    if (!found || (found.expiresAt && found.expiresAt <= now)) return null;
    return (await DiscountUseModel.countDocuments({ code })) < found.maxUses ? found : null;
  }

  /** Takes a free use slot of the code (see DiscountUseModel); null when all are taken. Answers the use's id. */
  async function takeUse(code: DiscountCodeDoc, userId: string, contentId: Types.ObjectId, now: Date): Promise<string | null> {
    const taken = new Set((await DiscountUseModel.find({ code: code._id }, { slot: 1 }).lean()).map((use) => use.slot));
    for (let slot = 1; slot <= code.maxUses; slot += 1) {
      if (taken.has(slot)) continue;
      const _id = `${code._id}#${slot}`;
      try {
        await DiscountUseModel.create({ _id, code: code._id, slot, userId, contentId, at: now });
        return _id;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
    return null;
  }

  function requireCode(raw: string | undefined): string {
    const code = normalizeCode(raw ?? '');
    if (!code) throw badRequest(PAYMENT_MESSAGES.codeEmpty, [{ path: 'code', message: PAYMENT_MESSAGES.codeEmpty }]);
    return code;
  }

  return {
    async quote(caller: AuthContext, contentId: string) {
      const content = await contentReads.byId<ContentDoc>(contentId);
      if (!content || !(await canView(content, caller))) throw notFound(PAYMENT_MESSAGES.contentNotFound);
      const tier = tierOf(content);
      const left = await planCreditsLeft(caller.userId, tier);
      return {
        contentId: String(content._id),
        tier,
        fee: microsToUsd(LISTING_FEES[tier]),
        feeMicros: LISTING_FEES[tier],
        credit: left > 0 ? creditMethod(tier) : null,
        creditsLeft: left,
        isPaidOut: content.isPaidOut,
      };
    },

    /**
     * `content/paid`: a credit when the payer has one of the piece's tier (unless `useCredit` is false), else a card
     * checkout; `origin` is where the member's browser is (lib/public-origin.ts).
     */
    async pay(caller: AuthContext, request: { userId: string; contentId: string; useCredit?: boolean }, origin?: string) {
      const content = await payable(caller, request.userId, request.contentId);
      const tier = tierOf(content);
      const use = request.useCredit === false ? null : await takePlanCredit(caller.userId, tier, String(content._id));
      if (!use) return checkout(caller, content, listingCharge(content, tier), origin);
      faultPoint(FAULT_POINTS.listingAfterCredit);
      const { entry, created } = await postListing(content._id, caller.userId, creditMethod(tier), LISTING_FEES[tier], null);
      // The member's own listing by a credit, posted by an earlier try of this payment that stopped before it marked
      // the piece (a crash, a lost answer): the same credit paid it (takePlanCredit answers it again), and the retry
      // finishes it. Anyone else's listing came first: this credit goes back.
      if (!created && !isOwnCreditListing(entry, caller.userId, tier)) {
        await givePlanCreditBack(caller.userId, use);
        throw alreadyPaid();
      }
      faultPoint(FAULT_POINTS.listingAfterLedger);
      return { status: 'paid' as const, ...(await paidAnswer(await markPaidOut(content._id, caller.userId), content._id, caller)) };
    },

    /**
     * Opens a sold piece to bids again for its owner (the bids module has checked who and what): a fee under the card
     * minimum is waived and posted at once; any other is paid by a card checkout, and the webhook posts it.
     */
    async relist(caller: AuthContext, request: { content: ContentDoc; soldBidId: string; feeMicros: number }, origin?: string) {
      const { content, soldBidId } = request;
      const feeMicros = waivableFee(request.feeMicros);
      if (feeMicros === 0) {
        await postRelisting(soldBidId, content._id, caller.userId, 0, null);
        return { status: 'relisted' as const };
      }
      const description = `Knack relisting fee: ${content.title}`;
      return checkout(caller, content, { amountMicros: feeMicros, description, purpose: 'relisting', soldBidId }, origin);
    },

    /**
     * `tag/sell`: a member's listing in a tag, as the tag market calls it, sold (paid) or not. `isSell: false` is the
     * cancelPaid of a checkout the member left (the provider tells a cancel only when the session expires, a day
     * later): each of their orders still pending for a piece that the tag prices fails now, so the piece shows unsold
     * at once and can be paid again. A payment that still arrives for one of them pays it all the same (a failed order
     * moves to paid when its money comes). `isSell: true` changes nothing: a listing is sold only by its payment.
     * Both answer whether the member holds a listing they paid for (by card, credit or code) of a piece the tag prices.
     */
    async sellTag(caller: AuthContext, request: { tagId: string; isSell: boolean }) {
      const tag = await tagsService.getTag(request.tagId);
      const pricedByTag = async (contentId: unknown) => {
        const piece = await contentReads.byId<Pick<ContentDoc, 'subTag' | 'tags'>>(contentId, { subTag: 1, tags: 1 });
        const pricing = piece ? await tagsService.pricingTagOf(piece) : null;
        return Boolean(pricing && String(pricing._id) === String(tag._id));
      };
      // The member's orders of the last days, through their list by `_id`: an order left pending longer than a
      // checkout lasts is failed by the provider's own expiry. The listings paid come from the member's own fees by `_id`.
      const [recent, listedPieces] = await Promise.all([
        recentOrdersOf(caller.userId, new Date(Date.now() - RETURNABLE_ORDER_MS)),
        piecesListedBy(caller.userId),
      ]);
      const pending = recent.filter((order) => (order.purpose ?? 'listing') === 'listing' && order.status === 'pending');
      let sold = false;
      for (const contentId of listedPieces) if (!sold && (await pricedByTag(contentId))) sold = true;
      let returned = 0;
      if (!request.isSell) {
        for (const order of pending) {
          if (!(await pricedByTag(order.contentId))) continue;
          // Under the order's lock, as the webhook applies its events: a payment applied meanwhile is kept.
          await withLock(
            `order:${order._id}`,
            async () => {
              const now = await PaymentOrderModel.findById(order._id, { status: 1 }).lean<Pick<PaymentOrderDoc, 'status'>>();
              if (now?.status !== 'pending') return;
              await PaymentOrderModel.updateOne({ _id: order._id }, { $set: { status: 'failed' } });
              returned += 1;
            },
            ORDER_LOCK,
          );
        }
      }
      return {
        tagId: String(tag._id),
        isSell: sold,
        returned,
        message: request.isSell ? (sold ? PAYMENT_MESSAGES.tagSold : PAYMENT_MESSAGES.tagNotSold) : PAYMENT_MESSAGES.failed,
      };
    },

    /**
     * What a payment stopped half-way leaves, finished or undone (the listing-repairs job; every step is safe to run
     * again): a piece whose listing is in the ledger is marked monetized by its payer; a credit used for a listing that
     * never happened, longer ago than any request lasts, is given back; a credit movement a process died on while
     * recording it is applied once or dropped. A card payment stopped half-way needs none of it: its provider delivers the event
     * again until it is answered.
     */
    async repairListings(now = new Date()): Promise<{ marked: number; creditsBack: number; pendingCredits: number }> {
      // The listings posted since the last run, read from the ledger's journal (a consumer with its checkpoint), not
      // the whole ledger: each piece is marked by its payer unless it is already (a repeat, at least once, changes nothing).
      let marked = 0;
      await withLease(`journal:${LISTING_REPAIRS}`, LISTING_REPAIRS_LEASE_MS, () =>
        readJournal(LISTING_REPAIRS, async (entries) => {
          marked += await markListed(entries.filter((entry) => entry.kind === 'listing'));
        }),
      );
      let creditsBack = 0;
      // One use per member and piece stays when their own credit listing is posted; every other is given back. The
      // piece's listing is read by its key.
      const kept = new Set<string>();
      for (const use of await creditUsesBefore(new Date(now.getTime() - STALLED_CREDIT_USE_MS))) {
        const userId = String(use.userId);
        const listing = await entryById(`listing:${String(use.ref)}`);
        const paidBy = `${userId}:${String(use.ref)}`;
        if (listing && String(listing.actorId) === userId && listing.method?.endsWith('-credit') && !kept.has(paidBy)) {
          kept.add(paidBy);
          continue;
        }
        await givePlanCreditBack(userId, use._id);
        creditsBack += 1;
      }
      return { marked, creditsBack, pendingCredits: await settlePendingCredits() };
    },

    /**
     * An order of the caller's. Read by `_id` alone (with the member too, the filter would read every order on
     * FerretDB); another member's order answers 404, as one that does not exist.
     */
    async order(caller: AuthContext, orderId: string) {
      const order = await PaymentOrderModel.findById(orderId).lean<PaymentOrderDoc>();
      if (!order || String(order.userId) !== caller.userId) throw notFound(PAYMENT_MESSAGES.orderNotFound);
      const relisting = order.purpose === 'relisting';
      return toOrderDto(order, relisting ? { ...PAYMENT_MESSAGES, superseded: PAYMENT_MESSAGES.relistingSuperseded } : PAYMENT_MESSAGES);
    },

    /**
     * A provider's webhook: 400 and nothing applied unless the signature holds. An event applied before
     * answers `duplicate: true`. The event is recorded after it is applied (a crash in between re-applies it).
     */
    async receiveWebhook(kind: string, rawBody: Buffer, headers: IncomingHttpHeaders): Promise<{ received: true; duplicate: boolean }> {
      if (kind !== provider.kind) throw notFound(PAYMENT_MESSAGES.noProvider);
      let event: WebhookEvent;
      try {
        event = provider.parseWebhook(rawBody, headers);
      } catch (err) {
        if (!(err instanceof SignatureError)) throw err;
        logger.warn({ provider: kind, reason: err.message }, 'payment webhook refused');
        throw badRequest(PAYMENT_MESSAGES.badSignature);
      }
      const key = `${kind}:${event.eventId}`;
      if (await PaymentEventModel.exists({ _id: key })) return { received: true, duplicate: true };
      await (isSubscriptionEvent(event) ? subscriptions.applyEvent(event) : apply(event));
      try {
        await PaymentEventModel.create({
          _id: key,
          provider: kind,
          eventId: event.eventId,
          type: event.type,
          orderId: event.orderId,
          sessionId: event.sessionId,
          receivedAt: new Date(),
        });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        return { received: true, duplicate: true };
      }
      return { received: true, duplicate: false };
    },

    async checkCode(raw: string, now = new Date()) {
      const code = requireCode(raw);
      if (!(await usableCode(code, now))) throw notFound(PAYMENT_MESSAGES.codeInvalid);
      return { valid: true, message: PAYMENT_MESSAGES.codeValid };
    },

    /** `code/save`: one use of the code covers the piece's fee (counted only while uses are left). */
    async redeemCode(caller: AuthContext, request: { userId: string; contentId: string; code: string }, now = new Date()) {
      const code = requireCode(request.code);
      const content = await payable(caller, request.userId, request.contentId);
      const found = await usableCode(code, now);
      const tier = tierOf(content);
      // A good code for the other tier is told apart from a bad one, so the payer knows to use it elsewhere.
      if (found && !coversTier(found, tier)) throw badRequest(notCoveredMessage(tier), [{ path: 'code', message: notCoveredMessage(tier) }]);
      const use = found && (await takeUse(found, caller.userId, content._id, now));
      if (!use) throw notFound(PAYMENT_MESSAGES.codeInvalid);
      const { created } = await postListing(content._id, caller.userId, 'discount', LISTING_FEES[tier], code, now);
      if (!created) {
        await DiscountUseModel.deleteOne({ _id: use });
        throw alreadyPaid();
      }
      return paidAnswer(await markPaidOut(content._id, caller.userId), content._id, caller);
    },

    async createCode(caller: AuthContext, request: { code: string; maxUses: number; expiresAt?: string | null; covers?: DiscountCover }) {
      requireAdmin(caller, PAYMENT_MESSAGES.adminsOnly);
      const code = requireCode(request.code);
      const expiresAt = request.expiresAt ? new Date(request.expiresAt) : null;
      const covers = coverOf(request);
      try {
        await DiscountCodeModel.create({ _id: code, maxUses: request.maxUses, expiresAt, covers, createdBy: caller.userId });
      } catch (err) {
        if (isDuplicateKey(err)) throw new AppError(409, 'conflict', PAYMENT_MESSAGES.codeExists);
        throw err;
      }
      return { code, covers, maxUses: request.maxUses, usesLeft: request.maxUses, expiresAt: expiresAt?.toISOString() ?? null };
    },

    /** `code/all` (admins): every code with its uses. */
    async listCodes(caller: AuthContext, now = new Date()) {
      requireAdmin(caller, PAYMENT_MESSAGES.adminsOnlyList);
      return { codes: await listDiscountCodes(now) };
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
