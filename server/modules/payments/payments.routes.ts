import express, { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../auth';
import type { PaymentsService } from './payments.service';

/** Webhooks are checked against the exact bytes sent, so this path gets its body raw (see createApp). */
export const WEBHOOK_PATH = /^\/api\/v2\/payments\/webhook\/[^/]+$/;

/** The listing-fee calls: the quote, paying (credit or checkout), orders and discount codes. */
export function paymentsRouter(config: AuthConfig, payments: PaymentsService): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.get('/payments/listing-quote/:id', signedIn, async (req: ApiRequest<'getListingQuote'>, res: ApiResponse<'getListingQuote'>) => {
    res.json(await payments.quote(req.auth!, req.params.id));
  });

  router.post('/content/paid', signedIn, async (req: ApiRequest<'payForContent'>, res: ApiResponse<'payForContent'>) => {
    res.json(await payments.pay(req.auth!, req.body));
  });

  router.get('/payments/orders/:id', signedIn, async (req: ApiRequest<'getPaymentOrder'>, res: ApiResponse<'getPaymentOrder'>) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await payments.order(req.auth!, req.params.id));
  });

  router.post('/code/discount-code', signedIn, async (req: ApiRequest<'checkDiscountCode'>, res: ApiResponse<'checkDiscountCode'>) => {
    res.json(await payments.checkCode(req.body.code));
  });

  router.post('/code/save', signedIn, async (req: ApiRequest<'redeemDiscountCode'>, res: ApiResponse<'redeemDiscountCode'>) => {
    res.json(await payments.redeemCode(req.auth!, req.body));
  });

  router.post('/code/create', signedIn, async (req: ApiRequest<'createDiscountCode'>, res: ApiResponse<'createDiscountCode'>) => {
    res.status(201).json(await payments.createCode(req.auth!, req.body));
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
