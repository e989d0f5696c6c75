/**
 * The services the API's routers and the scheduled jobs call, wired in one place: the process builds them once
 * (server/index.ts) and gives the same ones to the app and to the jobs (`npm run jobs` builds its own, once).
 */
import { DEFAULT_SUPPORT_EMAIL, type Config } from './config';
import { createAnalyticsSink } from './integrations/analytics';
import type { IpfsPinning } from './integrations/ipfs';
import type { Mailer } from './integrations/mail';
import { createPaymentProvider } from './integrations/payments';
import { createHorizon } from './integrations/horizon';
import { createPayoutProvider, type PayoutProvider } from './integrations/payouts';
import type { Storage } from './integrations/storage';
import type { Logger } from './lib/logger';
import { createAccountService } from './modules/account';
import { createAnchorsService } from './modules/anchors';
import { createAuthService, createIdentityService } from './modules/auth';
import { createBidsService } from './modules/bids';
import { createContentsService } from './modules/contents';
import { createEventForwarder, createEventsService } from './modules/events';
import { createFeedsService } from './modules/feeds';
import { createFlagsService } from './modules/flags';
import { endFollowsBetween } from './modules/follows';
import { createHistoryService } from './modules/history';
import { createKnacksService } from './modules/knacks';
import { createMailingsService } from './modules/mailings';
import { createMailOutbox } from './modules/mail-outbox';
import { createMediaService, type DecodeLimits } from './modules/media';
import { createMembersService } from './modules/members';
import { createMessagesService } from './modules/messages';
import { createNftService } from './modules/nft';
import { createPaymentsService } from './modules/payments';
import { createProjectsService } from './modules/projects';
import { createShareService } from './modules/share';
import { createInstagramService } from './modules/instagram';
import { createStellarService, createWalletsService } from './modules/stellar';
import { createSubscriptionsService } from './modules/subscriptions';
import { createPayouts, createWalletService } from './modules/wallet';

export interface ServiceDeps {
  config: Pick<Config, 'auth' | 'publicUrl' | 'payments' | 'payouts' | 'stellar'> &
    Partial<Pick<Config, 'supportEmail' | 'publicOrigins' | 'env' | 'analytics' | 'instagram'>>;
  logger: Logger;
  /** The driver that delivers mail; the services send through the durable outbox laid over it (modules/mail-outbox). */
  mailer: Mailer;
  storage: Storage;
  /** Where files are pinned to IPFS (createIpfsPinning(config)). */
  ipfs: IpfsPinning;
  /** Where payouts and approved cash-outs are sent; by default the configured provider (config.payouts). */
  payoutProvider?: PayoutProvider;
  /** How much audio, and how long, ffmpeg may decode from one upload; by default DECODE_LIMITS (media/audio.ts). */
  decodeLimits?: DecodeLimits;
}

/** The services the routers and the jobs call, each made once per process. */
export function buildServices({ config, logger, mailer: transport, storage, ipfs, payoutProvider, decodeLimits }: ServiceDeps) {
  // Every module's mail is kept in the outbox before it is delivered, so none is lost while the mail server is down.
  const mailOutbox = createMailOutbox({ transport, logger, messageIdHost: new URL(config.publicUrl).hostname });
  const mailer = mailOutbox.mailer;
  const media = createMediaService({ storage, signingSecret: config.auth.keys.mediaUrls, logger, decodeLimits });
  const contents = createContentsService(media);
  const provider = createPaymentProvider(config);
  const subscriptions = createSubscriptionsService({ provider, publicUrl: config.publicUrl, publicOrigins: config.publicOrigins, logger });
  const mailings = createMailingsService({ mailer, publicUrl: config.publicUrl, unsubscribeKey: config.auth.keys.mailUnsubscribe, logger });
  const payouts = createPayouts({
    provider: payoutProvider ?? createPayoutProvider(config),
    fees: config.payouts,
    logger,
    onSent: (send) => mailings.payoutSent(send),
  });
  const horizon = createHorizon(config);
  const stellar = createStellarService({ horizon, logger });
  const stellarWallets = createWalletsService({
    network: config.stellar.network,
    publicUrl: config.publicUrl,
    signingSeed: config.auth.keys.stellarWebAuth,
    logger,
  });
  const payments = createPaymentsService({ provider, contents, subscriptions, publicUrl: config.publicUrl, publicOrigins: config.publicOrigins, logger });
  const messages = createMessagesService({
    mailer,
    publicUrl: config.publicUrl,
    supportEmail: config.supportEmail ?? DEFAULT_SUPPORT_EMAIL,
    logger,
    endFollowsBetween,
  });
  return {
    mailOutbox,
    media,
    contents,
    ipfs,
    provider,
    subscriptions,
    payouts,
    mailings,
    payments,
    auth: createAuthService({
      config: config.auth,
      publicUrl: config.publicUrl,
      mailer,
      logger,
      onRegistered: async (user) => void (await contents.publishWaitingPiecesOf(user)),
    }),
    identity: createIdentityService({ publicUrl: config.publicUrl, mailer, logger }),
    feeds: createFeedsService(contents),
    knacks: createKnacksService({ mailer, secret: config.auth.keys.knackCodes }),
    share: createShareService({ mailer, publicUrl: config.publicUrl, secret: config.auth.keys.visitorIds, logger }),
    instagram: createInstagramService({ config: config.instagram, storage, publicUrl: config.publicUrl, logger }),
    history: createHistoryService({ fees: config.payouts }),
    wallet: createWalletService(payouts, { mailer, publicUrl: config.publicUrl, logger }),
    flags: createFlagsService({ contents, mailer, logger }),
    messages,
    members: createMembersService({
      adminEmails: config.auth.adminEmails,
      mailer,
      outboxPageServed: Boolean(mailer.outboxDir) && config.env !== 'production',
    }),
    projects: createProjectsService(contents),
    account: createAccountService({ contents, media, subscriptions, adminEmails: config.auth.adminEmails, logger }),
    stellarWallets,
    horizon,
    stellar,
    anchors: createAnchorsService({ horizon, stellar: config.stellar, logger }),
    bids: createBidsService({
      horizon,
      wallets: stellarWallets,
      payments,
      notify: (receiverId, subject, text) => messages.notify(receiverId, subject, text),
      linksKey: config.auth.keys.bidLinks,
      publicUrl: config.publicUrl,
      logger,
    }),
    events: createEventsService({
      tokenKey: { secret: config.auth.keys.eventsTokens, issuer: config.auth.jwtIssuer },
      forwarder: createEventForwarder(createAnalyticsSink(config), logger),
    }),
    nft: createNftService({ horizon, stellar, wallets: stellarWallets, contents, media, ipfs, issuersKey: config.auth.keys.nftIssuers, logger }),
  };
}

export type Services = ReturnType<typeof buildServices>;
