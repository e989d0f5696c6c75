/**
 * createApp(deps): the whole HTTP surface in one Express app, with the stored public answers in front of it
 * (lib/public-responses.ts). Order matters:
 * security headers -> request log -> compression -> health -> contract docs (+ dev outbox) -> the API key gate ->
 * JSON body and cookies -> contract validator -> the Idempotency-Key of money calls -> the audit log's recorder of admin calls -> the router of the module that serves the call (lib/contract-routes.ts) -> JSON 404 for /api -> SPA -> the one error handler.
 */
import compression from 'compression';
import cookieParser from 'cookie-parser';
import express, { type Express, type Request, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { SDF_NETWORKS, type Config } from './config';
import { docsRouter } from './docs/docs.routes';
import { isLocalPinning, localIpfsRouter, type IpfsPinning } from './integrations/ipfs';
import { outboxRouter, type Mailer } from './integrations/mail';
import { isSandbox, sandboxCheckoutRouter } from './integrations/payments';
import type { Storage } from './integrations/storage';
import { clientRouter } from './lib/client';
import { homeFirstPaint } from './lib/firstPaint';
import { answerContractBreach, strictQueryNumbers } from './lib/contract';
import { canonicalIds } from './lib/canonical-ids';
import { useFasterOperationLookup } from './lib/vendor-fixes/openapi-metadata';
import { useLeanSchemaRegistration } from './lib/vendor-fixes/openapi-schema-registration';
import { multipartPathMatcher, readContractDocument, serveByModule, type ModuleRouters } from './lib/contract-routes';
import { enterApp } from './lib/app-entry';
import { AppError, answerLast, errorHandler, RETRY_AFTER_OUTAGE_SECONDS } from './lib/errors';
import type { Logger } from './lib/logger';
import { storedAnswers } from './lib/public-responses';
import { requestLog } from './lib/request-log';
import { usePageCursorKey } from './lib/page-cursor';
import { OPENAPI_PATH } from './lib/paths';
import { authRouter, identityRouter } from './modules/auth';
import { cmsPageHtml, cmsRouter } from './modules/cms';
import { contentFilesRouter, contentsRouter } from './modules/contents';
import { dashboardRouter } from './modules/dashboard';
import { eventsBodyLimit, eventsRouter, EVENTS_PATH } from './modules/events';
import { createLinkPreviews, exploreFirstPaint, feedsRouter, previewTags } from './modules/feeds';
import { knacksRouter } from './modules/knacks';
import { unsubscribeRouter } from './modules/mailings';
import { filesRouter, uploadRouter, type DecodeLimits } from './modules/media';
import { paymentsRouter, paymentsWebhookRouter, WEBHOOK_PATH } from './modules/payments';
import { securityHeaders, shareRouter } from './modules/share';
import { instagramPagesRouter, instagramRouter } from './modules/instagram';
import { stellarRouter, walletsRouter } from './modules/stellar';
import { nftRouter, stellarTomlRouter } from './modules/nft';
import { bidsRouter } from './modules/bids';
import { subscriptionsRouter } from './modules/subscriptions';
import { tagsRouter } from './modules/tags';
import { creditsRouter, profileImagesRouter, usersRouter } from './modules/users';
import { historyRouter } from './modules/history';
import { followsRouter } from './modules/follows';
import { commentsRouter } from './modules/comments';
import { flagsRouter } from './modules/flags';
import { walletRouter } from './modules/wallet';
import { accountRouter } from './modules/account';
import { apiKeyGate, apiKeyLimit, apiKeysRouter, confirmKeyCall } from './modules/api-keys';
import { analyticsRouter } from './modules/analytics';
import { anchorsRouter } from './modules/anchors';
import { auditAdminActions, auditRouter } from './modules/audit';
import { idempotentCalls } from './modules/idempotency';
import { membersRouter } from './modules/members';
import { messagesRouter } from './modules/messages';
import { ownsProject, projectsRouter } from './modules/projects';
import type { PayoutProvider } from './integrations/payouts';
import { buildServices, type Services } from './services';

type ValidatorOptions = Parameters<typeof OpenApiValidator.middleware>[0];

export interface AppDeps {
  config: Pick<Config, 'env' | 'clientDir' | 'validateResponses' | 'trustProxy' | 'publicUrl' | 'devMail' | 'auth' | 'payments' | 'payouts' | 'stellar'> &
    Partial<Pick<Config, 'supportEmail' | 'publicOrigins' | 'analytics' | 'instagram'>>;
  logger: Logger;
  /** Resolves when the database answers; used by /readyz. */
  pingDatabase: () => Promise<void>;
  mailer: Mailer;
  storage: Storage;
  /** Where files are pinned to IPFS; the embedded default's files are served at /ipfs/{cid}. */
  ipfs: IpfsPinning;
  /** Where payouts and approved cash-outs are sent; by default the configured provider (config.payouts). */
  payoutProvider?: PayoutProvider;
  /** Where multipart uploads are streamed before they are stored; by default `knack-uploads` in the system's temp folder. */
  uploadTempDir?: string;
  /** How much audio, and how long, ffmpeg may decode from one upload; by default DECODE_LIMITS (media/audio.ts). */
  decodeLimits?: DecodeLimits;
  /** The process's services (server/services.ts), shared with the jobs; built from the deps above when not given. */
  services?: Services;
}

/**
 * The contract's validator, made once per process for each setting of `validateResponses` and shared by every app the
 * process makes: it compiles the contract's schemas at its first request (about a second), which the test suite would
 * otherwise pay again for each of its hundreds of apps. What differs per app, how a response that breaks the contract
 * is answered (with that app's logger), is found on the app the request reached (`app.locals.contractBreach`).
 */
const contractValidators = new Map<boolean, RequestHandler[]>();
function contractValidator(validateResponses: boolean): RequestHandler[] {
  let validator = contractValidators.get(validateResponses);
  if (!validator) {
    const isUploadPath = multipartPathMatcher(OPENAPI_PATH);
    validator = OpenApiValidator.middleware({
      // The parsed contract, copied because the validator changes the document it is given. Its check of the
      // contract against the OpenAPI schema (half a second at every start) runs in the test suite instead, with
      // the two contract linters.
      apiSpec: structuredClone(readContractDocument(OPENAPI_PATH)) as ValidatorOptions['apiSpec'],
      validateApiSpec: false,
      // The validator always turns query and path values into the contract's types (they arrive as text);
      // coerceTypes is for JSON bodies, which must already have them: no "12345" for 12345, no null for "".
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
      validateResponses: validateResponses && {
        onError: (err: Error, body: unknown, req: Request) => (req.app.locals.contractBreach as ReturnType<typeof answerContractBreach>)(err, body, req),
      },
      validateSecurity: false,
      ignoreUndocumented: false,
      ignorePaths: (path: string) => !path.startsWith('/api/v2') || isUploadPath(path) || WEBHOOK_PATH.test(path),
    }) as RequestHandler[];
    contractValidators.set(validateResponses, validator);
  }
  return validator;
}

export function createApp({
  config,
  logger,
  pingDatabase,
  mailer,
  storage,
  ipfs,
  payoutProvider,
  uploadTempDir,
  decodeLimits,
  services: given,
}: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'extended');

  app.use(securityHeaders(contentSecurityPolicy(config.auth, config.stellar.network.horizonUrl)));
  app.use(requestLog(logger, { ignore: (url) => url === '/healthz' || url === '/readyz' }));
  app.use(compression());

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (req, res) => {
    try {
      await pingDatabase();
      res.json({ status: 'ready' });
    } catch (err) {
      logger.warn({ err, reqId: req.id }, 'database not reachable');
      // Not ready while the database is away; the driver reconnects by itself and this answers 200 again.
      res.setHeader('Retry-After', String(RETRY_AFTER_OUTAGE_SECONDS));
      res.status(503).json({ status: 'unavailable', message: 'The database is not reachable.', code: 'unavailable' });
    }
  });

  app.use(docsRouter(config.publicUrl));
  app.use(filesRouter(storage, config.auth.keys.mediaUrls));
  usePageCursorKey(config.auth.keys.pageCursors);
  const services = given ?? buildServices({ config, logger, mailer, storage, ipfs, payoutProvider, decodeLimits });
  if (isLocalPinning(services.ipfs)) app.use(localIpfsRouter(services.ipfs));
  app.use(
    stellarTomlRouter({
      networkPassphrase: config.stellar.network.passphrase,
      signingKey: () => services.stellarWallets.signingAccount(),
      accounts: async () => [await services.anchors.anchorAccount()].filter((account): account is string => account !== null),
      publicUrl: config.publicUrl,
    }),
  );
  const routers = apiRouters(config, services, uploadTempDir);
  // A request with an API key is checked, counted and held to the calls the contract opens to keys before any
  // router reads it (the upload routers below read their bodies before the validator does).
  app.use('/api/v2', apiKeyGate(OPENAPI_PATH, apiKeyLimit(config.auth.apiKeyRequestsPerMinute)));
  // Uploads stream to disk and payment webhooks are verified over their raw bytes: they come before the JSON
  // parser and the contract validator (which would buffer them). The sandbox's checkout page delivers its signed
  // webhooks through the same handler.
  for (const list of Object.values(routers.rawBody)) app.use(...list);
  const { provider, payments } = services;
  if (isSandbox(provider)) {
    app.use(sandboxCheckoutRouter(provider, async ({ rawBody, headers }) => void (await payments.receiveWebhook(provider.kind, rawBody, headers))));
  }
  if (mailer.outboxDir && config.env !== 'production') app.use(outboxRouter(mailer.outboxDir, { openToAll: config.devMail }));
  // The mails' one-click unsubscribe link (RFC 8058): a page when opened, the unsubscribe when POSTed.
  app.use(unsubscribeRouter(services.mailings, config.publicUrl));
  // Where Instagram sends a member back after its consent page, and the pictures it fetches for a post.
  app.use(instagramPagesRouter(config.auth, services.instagram));
  // A batch of product events is small: its call reads at most 32 KB, where the others read up to 1 MB.
  app.use(EVENTS_PATH, eventsBodyLimit());
  app.use('/api/v2', express.json({ limit: '1mb' }), cookieParser());
  useFasterOperationLookup();
  useLeanSchemaRegistration();
  app.locals.contractBreach = answerContractBreach(logger);
  app.use(contractValidator(Boolean(config.validateResponses)), strictQueryNumbers, canonicalIds(OPENAPI_PATH), confirmKeyCall);
  // A call that moves money or credits (marked `x-idempotent`) sent with an Idempotency-Key is done once per key, and
  // answered again from the stored answer; it comes first, so that it keeps the answer the client is sent. Every
  // admin call that changes something is recorded as it answers (the contract marks them `x-admin`).
  app.use('/api/v2', idempotentCalls(config.auth, logger), auditAdminActions(logger), serveByModule(routers.json, OPENAPI_PATH));

  app.use('/api', (req, _res, next) => {
    next(new AppError(404, 'not_found', `No API call ${req.method} ${req.originalUrl.split('?')[0]}`));
  });

  const previewFor = createLinkPreviews(services.contents, services.feeds, config.publicUrl);
  app.use(
    clientRouter(config.clientDir, async (pathname, visitor, search) => {
      if (pathname === '/') return { firstPaint: homeFirstPaint(visitor) };
      // Explore as it opens; with a tab or an artist chosen in the query, the app draws it.
      if (pathname === '/explore' && !search) return { firstPaint: await exploreFirstPaint(services.feeds, visitor) };
      const cms = await cmsPageHtml(pathname, config.publicUrl, visitor);
      if (cms) return { head: cms.preview && previewTags(cms.preview), firstPaint: cms.firstPaint };
      const preview = await previewFor(pathname, visitor);
      if (!preview || 'movedTo' in preview) return preview;
      return { head: previewTags(preview), firstPaint: preview.firstPaint };
    }),
  );
  app.use(errorHandler(logger));
  enterApp(app, { first: storedAnswers(logger), last: answerLast(logger) });
  return app;
}

/**
 * The API's routers by the module that serves them, named as `x-module` names it in the contract: those that read
 * the raw request body first, the rest behind the JSON parser and the contract validator.
 */
export function apiRouters(config: AppDeps['config'], services: Services, uploadTempDir?: string) {
  const { auth } = config;
  const rawBody: ModuleRouters = {
    media: [uploadRouter(auth, services.media, uploadTempDir)],
    contents: [contentFilesRouter(auth, services.contents, uploadTempDir)],
    payments: [paymentsWebhookRouter(services.payments)],
  };
  const json: ModuleRouters = {
    tags: [tagsRouter],
    cms: [cmsRouter(auth)],
    auth: [authRouter(auth, services.auth), identityRouter(auth, services.identity)],
    users: [usersRouter(auth), profileImagesRouter(auth, services.media), creditsRouter(auth)],
    contents: [contentsRouter(auth, services.contents, ownsProject, (email, chart) => services.auth.waitingAccountForUpload(email, chart))],
    feeds: [feedsRouter(auth, services.feeds)],
    knacks: [knacksRouter(auth, services.knacks)],
    subscriptions: [subscriptionsRouter(auth, services.subscriptions)],
    payments: [paymentsRouter(auth, services.payments)],
    share: [shareRouter(auth, services.share)],
    instagram: [instagramRouter(auth, services.instagram)],
    history: [historyRouter(auth, services.history, services.wallet)],
    wallet: [walletRouter(auth, services.wallet)],
    anchors: [anchorsRouter(auth, services.anchors)],
    follows: [followsRouter(auth)],
    comments: [commentsRouter(auth)],
    flags: [flagsRouter(auth, services.flags)],
    account: [accountRouter(auth, services.account)],
    messages: [messagesRouter(auth, services.messages)],
    members: [membersRouter(auth, services.members)],
    projects: [projectsRouter(auth, services.projects)],
    stellar: [walletsRouter(auth, services.stellarWallets), stellarRouter(auth, services.stellar)],
    nft: [nftRouter(auth, services.nft)],
    bids: [bidsRouter(auth, services.bids)],
    audit: [auditRouter(auth)],
    dashboard: [dashboardRouter(auth)],
    events: [eventsRouter(auth, services.events)],
    analytics: [analyticsRouter(auth)],
    'api-keys': [apiKeysRouter(auth)],
  };
  return { rawBody, json };
}

/**
 * Our own origin only, plus the sign-in providers' scripts and frames when they are configured. The page may also
 * read this Knack's Horizon and SDF's two: the proof verifier asks Horizon for the anchoring transaction in the
 * visitor's browser, so that it trusts nothing Knack's server says. Other Horizons are for the verifier script
 * (scripts/verify-proof.mjs): a page script that may fetch any address is what an injected script would want.
 */
function contentSecurityPolicy(auth: AppDeps['config']['auth'], horizonUrl: string) {
  const scripts = ["'self'"];
  const frames = ["'self'"];
  const horizons = [horizonUrl, SDF_NETWORKS.testnet.horizonUrl, SDF_NETWORKS.public.horizonUrl].map((url) => new URL(url).origin);
  const connect = ["'self'", ...new Set(horizons)];
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
