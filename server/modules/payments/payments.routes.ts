import express, { Router, type Request } from 'express';
import type { AuthConfig } from '../../config';
import { setPayerCookie } from '../../integrations/payments';
import { auditDetails } from '../../lib/audit-details';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requestOrigin } from '../../lib/public-origin';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { requireAuth } from '../users';
import type { PaymentsService } from './payments.service';

/** Webhooks are checked against the exact bytes sent, so this path gets its body raw (see createApp). */
export const WEBHOOK_PATH = /^\/api\/v2\/payments\/webhook\/[^/]+$/;

/**
 * Discount code tries (checking one, or redeeming one) in an hour. A member types a code once or twice,
 * 20 leaves room for typos; 60 per address leaves room for several members behind one router. Past that
 * it is someone guessing codes, with new accounts or not.
 */
export const CODE_LIMITS = {
  member: { max: 20, windowMs: 60 * 60_000 } satisfies Limit,
  address: { max: 60, windowMs: 60 * 60_000 } satisfies Limit,
};
/**
 * `content/paid` calls per member in an hour: each can open an order and a checkout at the provider, and a
 * person paying listing fees one checkout at a time does not reach 30 in an hour.
 */
export const PAY_LIMIT: Limit = { max: 30, windowMs: 60 * 60_000 };

/** The listing-fee calls: the quote, paying (credit or checkout), orders and discount codes. */
export function paymentsRouter(config: AuthConfig, payments: PaymentsService): Router {
  const router = Router();
  const signedIn = requireAuth(config);
  const codeTry = async (req: Request) => {
    const tooMany = 'Too many discount code attempts. Please wait and try again.';
    await consumeLimit(`discount-code:user:${req.auth!.userId}`, CODE_LIMITS.member, tooMany);
    await consumeLimit(`discount-code:ip:${req.ip ?? 'unknown'}`, CODE_LIMITS.address, tooMany);
  };

  router.get('/payments/listing-quote/:id', signedIn, async (req: ApiRequest<'getListingQuote'>, res: ApiResponse<'getListingQuote'>) => {
    res.json(await payments.quote(req.auth!, req.params.id));
  });

  router.post('/content/paid', signedIn, async (req: ApiRequest<'payForContent'>, res: ApiResponse<'payForContent'>) => {
    await consumeLimit(`pay:user:${req.auth!.userId}`, PAY_LIMIT, 'Too many payment attempts. Please wait and try again.');
    const answer = await payments.pay(req.auth!, req.body, requestOrigin(req));
    if (answer.status !== 'checkout') return void res.json(answer);
    const { payerCookie, ...checkout } = answer;
    setPayerCookie(res, payerCookie, config.cookieSecure);
    res.json(checkout);
  });

  router.post('/tag/sell', signedIn, async (req: ApiRequest<'sellTag'>, res: ApiResponse<'sellTag'>) => {
    res.json(await payments.sellTag(req.auth!, req.body));
  });

  router.get('/payments/orders/:id', signedIn, async (req: ApiRequest<'getPaymentOrder'>, res: ApiResponse<'getPaymentOrder'>) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await payments.order(req.auth!, req.params.id));
  });

  router.post('/code/discount-code', signedIn, async (req: ApiRequest<'checkDiscountCode'>, res: ApiResponse<'checkDiscountCode'>) => {
    await codeTry(req);
    res.json(await payments.checkCode(req.body.code));
  });

  router.post('/code/save', signedIn, async (req: ApiRequest<'redeemDiscountCode'>, res: ApiResponse<'redeemDiscountCode'>) => {
    // Redeeming answers whether a code is good just as checking does, so it is counted with the checks.
    await codeTry(req);
    res.json(await payments.redeemCode(req.auth!, req.body));
  });

  router.post('/code/create', signedIn, async (req: ApiRequest<'createDiscountCode'>, res: ApiResponse<'createDiscountCode'>) => {
    const created = await payments.createCode(req.auth!, req.body);
    auditDetails(res, {
      target: { kind: 'discountCode', id: created.code },
      before: null,
      after: { covers: created.covers, maxUses: created.maxUses, expiresAt: created.expiresAt },
    });
    res.status(201).json(created);
  });

  router.get('/code/all', signedIn, async (req: ApiRequest<'listDiscountCodes'>, res: ApiResponse<'listDiscountCodes'>) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await payments.listCodes(req.auth!));
  });

  return router;
}

/**
 * `POST /api/v2/payments/webhook/{provider}`, mounted before the JSON parser and the contract validator:
 * the signature is over the raw bytes, which a parsed and re-serialized body would not reproduce.
 */
export function paymentsWebhookRouter(payments: PaymentsService): Router {
  const router = Router();
  router.post('/api/v2/payments/webhook/:provider', express.raw({ type: () => true, limit: '256kb' }), async (req, res) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    res.json(await payments.receiveWebhook(req.params.provider, rawBody, req.headers));
  });
  return router;
}
