/**
 * The sandbox checkout page, `/checkout/sandbox/{sessionId}`: the amount and what it pays for, with two
 * forms (no scripts: the CSP allows none inline). Submitting delivers the signed webhook through `deliver`
 * (the app's webhook handler), then sends the browser on (303) to the success or cancel address.
 */
import cookieParser from 'cookie-parser';
import express, { Router, type Request } from 'express';
import type { SandboxCheckoutDoc } from './sandbox.model';
import { SANDBOX_PAYER_COOKIE, type SandboxProvider, type SignedDelivery } from './sandbox.driver';
import { escapeHtml } from '../../lib/html';

const dollars = (micros: number) => `$${(micros / 1_000_000).toFixed(2)}`;

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Knack sandbox checkout</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:0 16px;background:#f7f6fb;color:#161326}
main{max-width:440px;margin:48px auto;padding:28px;background:#fff;border:1px solid #e9e7f2;border-radius:16px}
h1{font-size:20px;margin:0 0 4px}.amount{font-size:40px;font-weight:700;margin:16px 0 4px}.meta{color:#5d5a6e;font-size:14px}
form{display:inline}button{font:inherit;padding:10px 18px;border-radius:10px;border:1px solid #5b3cf5;cursor:pointer;margin:20px 8px 0 0}
.approve{background:#5b3cf5;color:#fff}.decline{background:#fff;color:#5b3cf5}</style></head>
<body><main>${body}</main></body></html>`;

export function sandboxCheckoutRouter(sandbox: SandboxProvider, deliver: (delivery: SignedDelivery) => Promise<void>): Router {
  const router = Router();
  const notFound = page('Not found', '<h1>This checkout does not exist.</h1>');
  const notPayer = page(
    'Not yours',
    '<h1>Only the member who started this payment can open it.</h1><p class="meta">Pay from your own account, in the browser you signed in with.</p><p><a href="/">Back to Knack</a></p>',
  );
  const isPayer = (req: Request, checkout: SandboxCheckoutDoc) => sandbox.isPayer(checkout, (req.cookies as Record<string, unknown>)[SANDBOX_PAYER_COOKIE]);
  router.use('/checkout/sandbox', cookieParser());

  router.get('/checkout/sandbox/:sessionId', async (req, res) => {
    const checkout = await sandbox.checkout(req.params.sessionId);
    res.setHeader('Cache-Control', 'no-store');
    if (!checkout) return void res.status(404).type('html').send(notFound);
    if (!isPayer(req, checkout)) return void res.status(403).type('html').send(notPayer);
    const action = `/checkout/sandbox/${encodeURIComponent(checkout._id)}`;
    const decided = checkout.status === 'open' ? '' : `<p class="meta">This checkout was already ${checkout.status}.</p>`;
    res.type('html').send(
      page(
        'Pay',
        `<h1>Knack</h1><p class="meta">Sandbox checkout: no real money moves.</p>
        <div class="amount">${dollars(checkout.amountMicros)}${checkout.mode === 'subscription' ? '<span class="meta"> a month</span>' : ''}</div><p>${escapeHtml(checkout.description)}</p>${decided}
        <form method="post" action="${action}"><input type="hidden" name="decision" value="approve"><button class="approve" type="submit">Approve payment</button></form>
        <form method="post" action="${action}"><input type="hidden" name="decision" value="decline"><button class="decline" type="submit">Decline</button></form>`,
      ),
    );
  });

  router.post('/checkout/sandbox/:sessionId', express.urlencoded({ extended: false, limit: '1kb' }), async (req, res) => {
    const open = await sandbox.checkout(req.params.sessionId);
    if (!open) return void res.status(404).type('html').send(notFound);
    if (!isPayer(req, open)) return void res.status(403).type('html').send(notPayer);
    const decision = (req.body as { decision?: string } | undefined)?.decision;
    if (decision !== 'approve' && decision !== 'decline')
      return void res.status(400).type('html').send(page('Bad request', '<h1>Choose approve or decline.</h1>'));
    const decided = await sandbox.decide(req.params.sessionId, decision === 'approve');
    if (!decided) return void res.status(404).type('html').send(notFound);
    await deliver(decided.delivery);
    const { checkout } = decided;
    res.redirect(303, checkout.status === 'approved' ? checkout.successUrl : checkout.cancelUrl);
  });

  return router;
}
