/**
 * createApp(deps): the whole HTTP surface in one Express app, with the stored public answers in front of it
 * (lib/public-responses.ts). Order matters:
 * security headers -> request log -> compression -> health -> contract docs (+ dev outbox) ->
 * JSON body and cookies -> contract validator -> feature routers -> JSON 404 for /api -> SPA -> the one error handler.
 */
import compression from 'compression';
import cookieParser from 'cookie-parser';
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { pinoHttp } from 'pino-http';
import type { Config } from './config';
import { docsRouter } from './docs/docs.routes';
import { outboxRouter, type Mailer } from './integrations/mail';
import { createPaymentProvider, isSandbox, sandboxCheckoutRouter } from './integrations/payments';
import type { Storage } from './integrations/storage';
import { clientRouter } from './lib/client';
import { answerContractBreach, compileRoutePatternsOnce, multipartPaths, strictQueryNumbers } from './lib/contract';
import { AppError, answerErrorsLast, errorHandler } from './lib/errors';
import type { Logger } from './lib/logger';
import { answerStoredFirst } from './lib/public-responses';
import { requestIdOf } from './lib/request-id';
import { OPENAPI_PATH } from './lib/paths';
import { authRouter, createAuthService } from './modules/auth';
import { cmsRouter } from './modules/cms';
import { contentsRouter, createContentsService } from './modules/contents';
import { createFeedsService, createLinkPreviews, feedsRouter, previewTags } from './modules/feeds';
import { createKnacksService, knacksRouter } from './modules/knacks';
import { createMediaService, filesRouter, uploadRouter, type DecodeLimits } from './modules/media';
import { createPaymentsService, paymentsRouter, paymentsWebhookRouter, WEBHOOK_PATH } from './modules/payments';
import { createShareService, securityHeaders, shareRouter } from './modules/share';
import { subscriptionsRouter } from './modules/subscriptions';
import { tagsRouter } from './modules/tags';
import { profileImagesRouter, usersRouter } from './modules/users';
import { createHistoryService, historyRouter } from './modules/history';
import { createPayouts, createWalletService, walletRouter } from './modules/wallet';
import { createPayoutProvider, type PayoutProvider } from './integrations/payouts';

export interface AppDeps {
  config: Pick<Config, 'env' | 'clientDir' | 'validateResponses' | 'trustProxy' | 'publicUrl' | 'devMail' | 'auth' | 'payments' | 'payouts'>;
  logger: Logger;
  /** Resolves when the database answers; used by /readyz. */
  pingDatabase: () => Promise<void>;
  mailer: Mailer;
  storage: Storage;
  /** Where payouts and approved cash-outs are sent; by default the configured provider (config.payouts). */
  payoutProvider?: PayoutProvider;
  /** Where multipart uploads are streamed before they are stored; by default `knack-uploads` in the system's temp folder. */
  uploadTempDir?: string;
  /** How much audio, and how long, ffmpeg may decode from one upload; by default DECODE_LIMITS (media/audio.ts). */
  decodeLimits?: DecodeLimits;
}

export function createApp({ config, logger, pingDatabase, mailer, storage, payoutProvider, uploadTempDir, decodeLimits }: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'extended');

  app.use(securityHeaders(contentSecurityPolicy(config.auth)));
  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const id = requestIdOf(req);
        res.setHeader('X-Request-Id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    }),
  );
  app.use(compression());

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (req, res) => {
    try {
      await pingDatabase();
      res.json({ status: 'ready' });
    } catch (err) {
      req.log.warn({ err }, 'database not reachable');
      res.status(503).json({ status: 'unavailable', message: 'The database is not reachable.', code: 'unavailable' });
    }
  });

  app.use(docsRouter());
  const media = createMediaService({ storage, signingSecret: config.auth.keys.mediaUrls, logger, decodeLimits });
  app.use(filesRouter(storage, config.auth.keys.mediaUrls));
  // Multipart uploads stream to disk before the contract validator (which would buffer them).
  app.use(uploadRouter(config.auth, media, uploadTempDir));
  const contents = createContentsService(media);
  // Payment webhooks are verified over their raw bytes, so they come before the JSON parser; the sandbox's
  // checkout page delivers its signed webhooks through the same handler.
  const provider = createPaymentProvider(config);
  const payments = createPaymentsService({ provider, contents, publicUrl: config.publicUrl, logger });
  app.use(paymentsWebhookRouter(payments));
  if (isSandbox(provider)) {
    app.use(sandboxCheckoutRouter(provider, async ({ rawBody, headers }) => void (await payments.receiveWebhook(provider.kind, rawBody, headers))));
  }
  if (mailer.outboxDir && config.env !== 'production') app.use(outboxRouter(mailer.outboxDir, { openToAll: config.devMail }));
  app.use('/api/v2', express.json({ limit: '1mb' }), cookieParser());
  compileRoutePatternsOnce();
  const uploadPaths = multipartPaths(OPENAPI_PATH);
  app.use(
    OpenApiValidator.middleware({
      apiSpec: OPENAPI_PATH,
      // The validator always turns query and path values into the contract's types (they arrive as text);
      // coerceTypes is for JSON bodies, which must already have them: no "12345" for 12345, no null for "".
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
      validateResponses: config.validateResponses && { onError: answerContractBreach(logger) },
      validateSecurity: false,
      ignoreUndocumented: false,
      ignorePaths: (path: string) => !path.startsWith('/api/v2') || uploadPaths.has(path) || WEBHOOK_PATH.test(path),
    }),
    strictQueryNumbers,
  );

  const auth = createAuthService({ config: config.auth, publicUrl: config.publicUrl, mailer, logger });
  app.use(
    '/api/v2',
    tagsRouter,
    cmsRouter,
    authRouter(config.auth, auth),
    usersRouter(config.auth),
    profileImagesRouter(config.auth, media),
    contentsRouter(config.auth, contents),
    feedsRouter(config.auth, createFeedsService(contents)),
    knacksRouter(config.auth, createKnacksService({ mailer, secret: config.auth.keys.knackCodes })),
    subscriptionsRouter(config.auth),
    paymentsRouter(config.auth, payments),
    shareRouter(config.auth, createShareService({ mailer, publicUrl: config.publicUrl, secret: config.auth.keys.visitorIds, logger })),
    ...moneyRouters(config, logger, payoutProvider ?? createPayoutProvider(config), mailer),
  );

  app.use('/api', (req, _res, next) => {
    next(new AppError(404, 'not_found', `No API call ${req.method} ${req.originalUrl.split('?')[0]}`));
  });

  const previewFor = createLinkPreviews(contents, config.publicUrl);
  app.use(
    clientRouter(config.clientDir, async (pathname) => {
      const preview = await previewFor(pathname);
      return preview && previewTags(preview);
    }),
  );
  app.use(errorHandler(logger));
  answerErrorsLast(app, logger);
  answerStoredFirst(app, logger);
  return app;
}

/** History, wallet and cash-outs, on one payouts service (the provider and its fee). */
function moneyRouters(config: AppDeps['config'], logger: Logger, provider: PayoutProvider, mailer: Mailer) {
  const wallet = createWalletService(createPayouts({ provider, fees: config.payouts, logger }), { mailer, publicUrl: config.publicUrl, logger });
  return [historyRouter(config.auth, createHistoryService({ fees: config.payouts }), wallet), walletRouter(config.auth, wallet)];
}

/** Our own origin only, plus the sign-in providers' scripts and frames when they are configured. */
function contentSecurityPolicy(auth: AppDeps['config']['auth']) {
  const scripts = ["'self'"];
  const frames = ["'self'"];
  const connect = ["'self'"];
  if (auth.google) {
    scripts.push('https://accounts.google.com/gsi/client');
    frames.push('https://accounts.google.com');
    connect.push('https://accounts.google.com/gsi/');
  }
  if (auth.facebook) {
    scripts.push('https://connect.facebook.net');
    frames.push('https://www.facebook.com', 'https://web.facebook.com');
    connect.push('https://graph.facebook.com');
  }
  return {
    // http deployments (a LAN address) must keep working; TLS is the proxy's job.
    upgradeInsecureRequests: null,
    scriptSrc: scripts,
    frameSrc: frames,
    connectSrc: connect,
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    mediaSrc: ["'self'", 'blob:'],
  };
}
