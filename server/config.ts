/**
 * The only reader of process.env. Every variable is documented in README.md (Configuration).
 * Values are parsed and defaulted here; a wrong value stops the process at start with a clear message.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { parseFaultPoint, type ArmedFaultPoint } from './lib/fault-points';
import { PROJECT_ROOT } from './lib/paths';
import { isStellarAccountId, isStellarSecretSeed } from './lib/stellar-address';

export const DEFAULT_SUPPORT_EMAIL = 'support@knack.example';

export type Environment = 'development' | 'production' | 'test';

export interface Config {
  env: Environment;
  /** HTTP port of the one process that serves the API and the SPA. */
  port: number;
  host: string;
  /** MongoDB connection string; when absent an embedded database is started (see server/db/embedded.ts). */
  mongodbUri: string | undefined;
  /** Database name used with the embedded database or when the URI names none. */
  dbName: string;
  /** Where local state lives: db/, bin/ (FerretDB), later uploads/ and mail/. */
  dataDir: string;
  /** The built SPA (vite build output). */
  clientDir: string;
  logLevel: string;
  /** Seed reference data (tags, plans, CMS) at start. Idempotent. */
  seedOnStart: boolean;
  /** Publish the demo catalogue on an empty database (server/db/demo.ts). */
  seedDemo: boolean;
  /** Check every API response against openapi.yaml (on in tests and development). */
  validateResponses: boolean;
  /**
   * Express "trust proxy": how many proxies stand in front of the app, or their addresses and subnets; false
   * when clients reach it directly. Never `true`, which would take a client's own X-Forwarded-For entry as its address.
   */
  trustProxy: false | number | string[];
  /** How long a graceful stop waits for open requests before exiting. */
  shutdownTimeoutMs: number;
  /** Run the cron jobs in the API process; false when they run apart (`npm run jobs`). */
  jobsInProcess: boolean;
  /** Serve the mail outbox (/dev/mail) to every client, not only to this machine (never in production). */
  devMail: boolean;
  /** The address people use to reach Knack; links in emails start with it. */
  publicUrl: string;
  /**
   * Every origin people may reach Knack at, PUBLIC_URL's first: a checkout's links go back to the one the member
   * came from (in development localhost and 127.0.0.1 of the port), any other to PUBLIC_URL.
   */
  publicOrigins: string[];
  /** The support account's email: messages to the recipient list's 'Admin' entry go to it (made at start if missing). */
  supportEmail: string;
  auth: AuthConfig;
  mail: MailConfig;
  storage: StorageConfig;
  payments: PaymentsConfig;
  payouts: PayoutsConfig;
  ipfs: IpfsConfig;
  stellar: StellarConfig;
  analytics: AnalyticsConfig;
  /** Posting pieces to members' Instagram professional accounts; undefined when no Instagram app is configured. */
  instagram: InstagramConfig | undefined;
  /**
   * KNACK_FAULT_POINT: the point where a crash test makes this process kill itself (lib/fault-points.ts); unset in
   * every real deployment, and refused at start with NODE_ENV=production.
   */
  faultPoint: ArmedFaultPoint | undefined;
}

/**
 * The Instagram app (Instagram API with Instagram Login) that members connect their professional account to, and the
 * addresses of Instagram's three hosts: the consent page, the token exchange, and the Graph API at its version.
 */
export interface InstagramConfig {
  appId: string;
  appSecret: string;
  authorizeUrl: string;
  apiUrl: string;
  graphUrl: string;
  /** The key the members' access tokens are encrypted with at rest (AES-256-GCM), derived from JWT_SECRET. */
  tokensKey: string;
  /** The HMAC key of the connect flow's `state` and of the short-lived image links Instagram fetches. */
  linksKey: string;
}

export interface AuthConfig {
  /** Keys derived from JWT_SECRET (in development a random one kept under DATA_DIR/secrets), one per use. */
  keys: SigningKeys;
  jwtIssuer: string;
  jwtAudience: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /** The refresh cookie is Secure (HTTPS only; browsers also accept it on localhost). */
  cookieSecure: boolean;
  bcryptCost: number;
  /** Accounts with these emails are admins; nothing a client sends can make an admin. */
  adminEmails: string[];
  /** The admins who may delete any member's piece (a subset of adminEmails); other admins may hide it, not delete it. */
  adminRemoveEmails: string[];
  google: { clientId: string; certsUrl: string | undefined } | undefined;
  facebook: { appId: string; appSecret: string; graphUrl: string } | undefined;
  /** How many requests each API key may make in a minute (API_KEY_REQUESTS_PER_MINUTE, 600 by default). */
  apiKeyRequestsPerMinute: number;
}

/**
 * One key per purpose, each derived from JWT_SECRET with HKDF, so that a value made for one purpose (a media
 * URL's signature, a knack code's hash) can never pass as another (an access token), and a leak of one key
 * reveals neither the secret nor the other keys.
 */
export interface SigningKeys {
  /** HS256 key of access tokens. */
  accessTokens: string;
  /** HMAC key of signed media URLs (files of pieces that are not public). */
  mediaUrls: string;
  /** HMAC key of the emailed 4-digit knack codes as stored. */
  knackCodes: string;
  /** HMAC key of the anonymous visitor ids that count embed plays. */
  visitorIds: string;
  /** What list cursors are encrypted and signed with (lib/page-cursor.ts): they hold positions a reader may not see. */
  pageCursors: string;
  /**
   * The 32-byte ed25519 seed of the key that signs the wallet challenges (SEP-10): every process derives the same
   * key, and it is stored nowhere.
   */
  stellarWebAuth: string;
  /**
   * The HMAC key each NFT issuer's ed25519 seed is derived from, with the mint's id: every process derives the same
   * issuer, and no issuer's secret key is ever stored.
   */
  nftIssuers: string;
  /** HMAC key of the signed links to a pending sale in a bidder's inbox (`/approve?token=…`, `/cancel?token=…`). */
  bidLinks: string;
  /** HMAC key of the mails' unsubscribe links, each for one member and one kind of mail (`/mail/unsubscribe?token=…`). */
  mailUnsubscribe: string;
  /** HMAC key of the passes a visitor uploads a Top 50 song with (lib/upload-pass.ts). */
  uploadPasses: string;
  /** HS256 key of the events tokens a page's beacon carries in place of the Authorization header it cannot send. */
  eventsTokens: string;
}

/**
 * Where product events go besides Knack's own store: nowhere (`none`, the default), or PostHog's capture API. Sending
 * them to a third party is a choice the operator names, never a side effect of a key left in the environment.
 */
export interface AnalyticsConfig {
  driver: 'none' | 'posthog';
  /** With ANALYTICS_DRIVER=posthog: the capture host (US cloud by default) and the project API key (write-only, phc_…). */
  posthog: { host: string; apiKey: string } | undefined;
}

export interface MailConfig {
  /** smtp(s)://user:pass@host:port; unset: mails go to the outbox under DATA_DIR/mail. */
  smtpUrl: string | undefined;
  from: string;
}

export interface PaymentsConfig {
  /**
   * Who takes listing-fee payments: Stripe Checkout, or the local sandbox checkout (no real money), the default
   * outside production and only by an explicit PAYMENTS_PROVIDER=sandbox in production.
   */
  provider: 'sandbox' | 'stripe';
  /** What the sandbox signs its webhooks with; by default derived from JWT_SECRET (stable per install). */
  webhookSecret: string;
  /** Signs the cookie that lets only the member who started a sandbox checkout decide it (derived from JWT_SECRET). */
  sandboxPayerKey: string;
  /** Set with STRIPE_SECRET_KEY. */
  /** `timeoutMs`: how long one call waits for Stripe's answer (the driver's default unless a test sets it). */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string; timeoutMs?: number } | undefined;
}

export interface PayoutsConfig {
  /** The payout provider's fee in hundredths of a percent (PAYOUT_FEE_PERCENT 2 -> 200), capped at feeMaxMicros. */
  feeBasisPoints: number;
  feeMaxMicros: number;
  /** Where the sandbox payout driver keeps one JSON file per payout (DATA_DIR/payouts). */
  sandboxDir: string;
  /** PayPal Payouts when PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are set; unset: the sandbox driver. */
  paypal: { clientId: string; clientSecret: string; apiUrl: string } | undefined;
}

export interface IpfsConfig {
  /** Pinata's upload API when PINATA_JWT is set. */
  pinata: { jwt: string; apiUrl: string } | undefined;
  /** A Kubo node's RPC when IPFS_KUBO_URL is set; `authorization` is the header its API.Authorizations expect (IPFS_KUBO_AUTH). */
  kubo: { url: string; authorization: string | undefined } | undefined;
  /** With Pinata or Kubo: public URLs of pins are this with the CID after it. Unset: files under DATA_DIR/ipfs, served at PUBLIC_URL/ipfs/. */
  gatewayUrl: string;
}

/** Which Stellar network Knack talks to, and through which Horizon. */
export interface StellarNetwork {
  /** testnet and public are the SDF networks; custom is any other (a standalone network, a private one). */
  name: 'testnet' | 'public' | 'custom';
  /** What every transaction is signed for: a transaction signed for one network is refused by another. */
  passphrase: string;
  /** The Horizon server's base address, without a trailing slash. */
  horizonUrl: string;
}

export interface StellarAsset {
  code: string;
  issuer: string;
}

export interface StellarConfig {
  network: StellarNetwork;
  /** The dollar the XLM rate is read against (Circle's USDC by default); none on a custom network unless named. */
  usdcAsset: StellarAsset | undefined;
  /**
   * The secret seed of Knack's account that anchors the ledger's daily roots (STELLAR_ANCHOR_SECRET); unset: the
   * roots are kept and shown as not anchored. Never logged, never answered.
   */
  anchorSecret?: string;
}

export interface StorageConfig {
  /** S3 or an S3-compatible server when S3_BUCKET is set; unset: local disk under DATA_DIR/uploads. */
  s3: S3Config | undefined;
}

export interface S3Config {
  bucket: string;
  region: string;
  /** MinIO and other S3-compatible servers; unset: AWS. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
  /** Both or neither; neither: the AWS SDK's default credential chain. */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** A CDN or public base URL in front of the bucket; media URLs start with it. */
  publicBaseUrl: string | undefined;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false; got "${env[name]}".`);
}

const PROXY_SUBNET_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address or subnet that Express's `trust proxy` takes (`10.0.0.0/8`, `::1`, `loopback`), and that is not everyone. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_SUBNET_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  // A prefix of 0 is every address: the same as trusting any X-Forwarded-For.
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Whose X-Forwarded-For entries are believed: a hop count, or the proxies' addresses. `true` believes all of
 * them, the client's own included, so it is refused everywhere (also in development, where it would hide the
 * mistake until production).
 */
function trustProxy(raw: string | undefined): false | number | string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === '0' || value.toLowerCase() === 'false') return false;
  if (value.toLowerCase() === 'true') {
    throw new ConfigError(
      'TRUST_PROXY=true would believe every address a client writes into X-Forwarded-For, so anyone could pass for a new address in the rate limits. ' +
        'Set the number of proxies in front of Knack (TRUST_PROXY=1 for one load balancer), or their addresses or subnets (TRUST_PROXY=10.0.0.0/8,192.0.2.10).',
    );
  }
  const invalid = () =>
    new ConfigError(
      `TRUST_PROXY must be a hop count from 1 to 20 (1 for one load balancer) or a comma-separated list of proxy addresses or subnets (10.0.0.0/8, 192.0.2.10, loopback); got "${raw}".`,
    );
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 20) throw invalid();
    return hops;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  if (!entries.every(isProxyAddress)) throw invalid();
  return entries;
}

/** PUBLIC_URL's origin, the extra PUBLIC_ORIGINS, and in development the app's own port on localhost and 127.0.0.1. */
function publicOrigins(env: NodeJS.ProcessEnv, mode: Environment, publicUrl: string, port: number): string[] {
  const extra = (env.PUBLIC_ORIGINS ?? '').trim();
  const listed = extra ? extra.split(',').map((entry) => entry.trim()) : [];
  const origins = listed.map((entry) => {
    const url = URL.canParse(entry) ? new URL(entry) : null;
    const isOrigin = url && /^https?:$/.test(url.protocol) && !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
    if (!isOrigin) {
      throw new ConfigError(
        `PUBLIC_ORIGINS must be a comma-separated list of origins such as https://www.knack.example (scheme, host and port only); got "${entry}".`,
      );
    }
    return url.origin;
  });
  const local = mode === 'development' ? [`http://localhost:${port}`, `http://127.0.0.1:${port}`] : [];
  return [...new Set([publicUrl, ...origins, ...local].map((url) => new URL(url).origin))];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  if (!['development', 'production', 'test'].includes(nodeEnv)) {
    throw new ConfigError(`NODE_ENV must be development, production or test; got "${nodeEnv}".`);
  }
  const mode = nodeEnv as Environment;
  const dataDir = path.resolve(PROJECT_ROOT, env.DATA_DIR ?? 'data');
  const mongodbUri = env.MONGODB_URI?.trim() || undefined;
  const port = int(env, 'PORT', 3000, 0, 65535);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(publicUrl)) throw new ConfigError('PUBLIC_URL must be an http(s) URL such as https://knack.example.');
  if (mongodbUri && !/^mongodb(\+srv)?:\/\//.test(mongodbUri)) {
    throw new ConfigError('MONGODB_URI must start with mongodb:// or mongodb+srv://.');
  }
  const secret = jwtSecret(env, mode, dataDir);
  const auth = authConfig(env, secret);
  return {
    env: mode,
    port,
    // A development machine serves only itself unless told otherwise: its outbox and sandbox checkout are
    // tools for the person at the keyboard. A production container must answer on every interface.
    host: env.HOST?.trim() || (mode === 'production' ? '0.0.0.0' : '127.0.0.1'),
    mongodbUri,
    dbName: env.DB_NAME ?? 'knack',
    dataDir,
    clientDir: path.resolve(PROJECT_ROOT, env.CLIENT_DIR ?? 'dist/client'),
    logLevel: env.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    seedOnStart: bool(env, 'SEED_ON_START', true),
    seedDemo: bool(env, 'SEED_DEMO', mode === 'development'),
    validateResponses: bool(env, 'VALIDATE_RESPONSES', mode !== 'production'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    jobsInProcess: bool(env, 'JOBS_IN_PROCESS', true),
    publicUrl,
    publicOrigins: publicOrigins(env, mode, publicUrl, port),
    supportEmail: (env.SUPPORT_EMAIL?.trim() || DEFAULT_SUPPORT_EMAIL).toLowerCase(),
    auth,
    mail: { smtpUrl: env.SMTP_URL?.trim() || undefined, from: env.MAIL_FROM ?? 'Knack <no-reply@knack.example>' },
    storage: storageConfig(env),
    devMail: bool(env, 'DEV_MAIL', false),
    payments: paymentsConfig(env, mode, secret),
    payouts: payoutsConfig(env, dataDir),
    ipfs: ipfsConfig(env),
    stellar: stellarConfig(env),
    analytics: analyticsConfig(env),
    instagram: instagramConfig(env, secret),
    faultPoint: faultPointConfig(env, mode),
  };
}

/** A crash test's fault point; never in production, where a process that kills itself on purpose is an outage. */
function faultPointConfig(env: NodeJS.ProcessEnv, mode: Environment): ArmedFaultPoint | undefined {
  const raw = env.KNACK_FAULT_POINT?.trim();
  if (!raw) return undefined;
  if (mode === 'production') {
    throw new ConfigError('KNACK_FAULT_POINT is for crash tests only and is refused when NODE_ENV=production: unset it.');
  }
  const point = parseFaultPoint(raw);
  if (typeof point === 'string') throw new ConfigError(point);
  return point;
}

/** Both or neither: an app id without its secret (or the reverse) is a half-made setup, refused at start. */
function instagramConfig(env: NodeJS.ProcessEnv, secret: string): InstagramConfig | undefined {
  const appId = env.INSTAGRAM_APP_ID?.trim();
  const appSecret = env.INSTAGRAM_APP_SECRET?.trim();
  if (!appId && !appSecret) return undefined;
  if (!appId || !appSecret) throw new ConfigError('INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET must be set together (the Instagram app of Meta for Developers).');
  if (!/^\d{5,25}$/.test(appId)) throw new ConfigError(`INSTAGRAM_APP_ID must be the Instagram app's numeric id; got "${appId}".`);
  return {
    appId,
    appSecret,
    authorizeUrl: httpUrl(env, 'INSTAGRAM_AUTHORIZE_URL', 'https://www.instagram.com/oauth/authorize') ?? 'https://www.instagram.com/oauth/authorize',
    apiUrl: httpUrl(env, 'INSTAGRAM_API_URL', 'https://api.instagram.com') ?? 'https://api.instagram.com',
    graphUrl: httpUrl(env, 'INSTAGRAM_GRAPH_URL', 'https://graph.instagram.com/v19.0') ?? 'https://graph.instagram.com/v19.0',
    tokensKey: deriveKey(secret, 'instagram-tokens'),
    linksKey: deriveKey(secret, 'instagram-links'),
  };
}

const S3_VARIABLES = ['S3_REGION', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PUBLIC_URL'];

function httpUrl(env: NodeJS.ProcessEnv, name: string, example: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^https?:\/\/[^/\s]+/.test(raw)) throw new ConfigError(`${name} must be an http(s) URL such as ${example}; got "${raw}".`);
  return raw.replace(/\/+$/, '');
}

const POSTHOG_VARIABLES = ['POSTHOG_API_KEY', 'POSTHOG_HOST'];

function analyticsConfig(env: NodeJS.ProcessEnv): AnalyticsConfig {
  const raw = env.ANALYTICS_DRIVER?.trim() ?? '';
  const driver = raw.toLowerCase() || 'none';
  if (driver !== 'none' && driver !== 'posthog') throw new ConfigError(`ANALYTICS_DRIVER must be none or posthog; got "${raw}".`);
  if (driver === 'none') {
    const stray = POSTHOG_VARIABLES.filter((name) => env[name]?.trim());
    if (stray.length > 0) {
      const them = stray.length > 1 ? 'them' : 'it';
      throw new ConfigError(`${stray.join(' and ')} must be set with ANALYTICS_DRIVER=posthog (unset ${them} to keep product events in Knack only).`);
    }
    return { driver: 'none', posthog: undefined };
  }
  const apiKey = env.POSTHOG_API_KEY?.trim();
  // The key's value is never repeated in a message: a project key is write-only, but a personal one is a secret.
  if (!apiKey) {
    throw new ConfigError('POSTHOG_API_KEY must be set with ANALYTICS_DRIVER=posthog: the project API key (phc_…) from the PostHog project settings.');
  }
  if (apiKey.startsWith('phx_')) {
    throw new ConfigError(
      'POSTHOG_API_KEY must be a project API key (phc_…), not a personal API key (phx_…): a personal key opens the whole PostHog account, and it would travel with every batch.',
    );
  }
  if (!/^phc_[A-Za-z0-9]+$/.test(apiKey)) throw new ConfigError('POSTHOG_API_KEY must be a PostHog project API key: phc_ followed by letters and digits.');
  return { driver: 'posthog', posthog: { host: httpUrl(env, 'POSTHOG_HOST', 'https://eu.i.posthog.com') ?? 'https://us.i.posthog.com', apiKey } };
}

function storageConfig(env: NodeJS.ProcessEnv): StorageConfig {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) {
    const stray = S3_VARIABLES.filter((name) => env[name]?.trim());
    if (stray.length > 0) throw new ConfigError(`S3_BUCKET must be set with ${stray.join(', ')} (unset all of them to store media on local disk).`);
    return { s3: undefined };
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
    throw new ConfigError(`S3_BUCKET must be a bucket name (3 to 63 lowercase letters, digits, dots and hyphens); got "${bucket}".`);
  }
  const region = env.S3_REGION?.trim() || 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region)) throw new ConfigError(`S3_REGION must be a region name such as us-east-1; got "${region}".`);
  const endpoint = httpUrl(env, 'S3_ENDPOINT', 'http://minio:9000');
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || undefined;
  if (!accessKeyId !== !secretAccessKey) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS default credentials).');
  }
  return {
    s3: {
      bucket,
      region,
      endpoint,
      forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', endpoint !== undefined),
      accessKeyId,
      secretAccessKey,
      publicBaseUrl: httpUrl(env, 'S3_PUBLIC_URL', 'https://cdn.knack.example'),
    },
  };
}

function paymentsConfig(env: NodeJS.ProcessEnv, mode: Environment, secret: string): PaymentsConfig {
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || undefined;
  const stripeWebhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() || undefined;
  const chosen = env.PAYMENTS_PROVIDER?.trim().toLowerCase();
  // The sandbox lets members approve their own payments, so production never falls back to it by accident.
  if (mode === 'production' && !chosen && !secretKey) {
    throw new ConfigError(
      'Payments need a provider in production: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET for Stripe Checkout, or PAYMENTS_PROVIDER=sandbox to take no real money (members then approve their own listing fees).',
    );
  }
  const provider = chosen || (secretKey ? 'stripe' : 'sandbox');
  if (provider !== 'sandbox' && provider !== 'stripe') throw new ConfigError(`PAYMENTS_PROVIDER must be sandbox or stripe; got "${env.PAYMENTS_PROVIDER}".`);
  if (provider === 'stripe' && !secretKey) throw new ConfigError('STRIPE_SECRET_KEY must be set when PAYMENTS_PROVIDER is stripe.');
  if (secretKey && !stripeWebhookSecret)
    throw new ConfigError('STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY (the signing secret of the webhook endpoint).');
  const webhookSecret = env.PAYMENTS_WEBHOOK_SECRET?.trim() || deriveKey(secret, 'payments:sandbox-webhook');
  if (webhookSecret.length < 32) throw new ConfigError('PAYMENTS_WEBHOOK_SECRET must be 32 characters or more.');
  return {
    provider,
    webhookSecret,
    sandboxPayerKey: deriveKey(secret, 'payments:sandbox-payer'),
    stripe:
      secretKey && stripeWebhookSecret
        ? { secretKey, webhookSecret: stripeWebhookSecret, apiUrl: httpUrl(env, 'STRIPE_API_URL', 'https://api.stripe.com') ?? 'https://api.stripe.com' }
        : undefined,
  };
}

/** A decimal with at most 2 decimals from min to max, in hundredths (2.5 -> 250), read exactly. */
function hundredths(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(raw);
  const value = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : NaN;
  if (!Number.isSafeInteger(value) || value < min * 100 || value > max * 100) {
    throw new ConfigError(`${name} must be a number from ${min} to ${max} with at most 2 decimals; got "${raw}".`);
  }
  return value;
}

function payoutsConfig(env: NodeJS.ProcessEnv, dataDir: string): PayoutsConfig {
  const clientId = env.PAYPAL_CLIENT_ID?.trim() || undefined;
  const clientSecret = env.PAYPAL_CLIENT_SECRET?.trim() || undefined;
  if (!clientId !== !clientSecret)
    throw new ConfigError('PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET must be set together (or neither, for the sandbox payout driver).');
  const apiUrl = httpUrl(env, 'PAYPAL_API_URL', 'https://api-m.paypal.com') ?? 'https://api-m.sandbox.paypal.com';
  return {
    feeBasisPoints: hundredths(env, 'PAYOUT_FEE_PERCENT', 200, 0, 50),
    // hundredths of a dollar -> micro-dollars
    feeMaxMicros: hundredths(env, 'PAYOUT_FEE_MAX_USD', 100, 0, 1000) * 10_000,
    sandboxDir: path.join(dataDir, 'payouts'),
    paypal: clientId && clientSecret ? { clientId, clientSecret, apiUrl } : undefined,
  };
}

export const DEFAULT_IPFS_GATEWAY = 'https://ipfs.io/ipfs/';

/** A Kubo API.Authorizations secret as its config writes it, turned into the header it expects. */
function kuboAuthorization(raw: string): string {
  const bearer = /^bearer:(\S+)$/.exec(raw);
  if (bearer) return `Bearer ${bearer[1]}`;
  const basic = /^basic:([^:\s]+:\S+)$/.exec(raw);
  if (basic) return `Basic ${Buffer.from(basic[1]!).toString('base64')}`;
  // The value is a secret: the message does not repeat it.
  throw new ConfigError("IPFS_KUBO_AUTH must be the AuthSecret of the Kubo node's API.Authorizations: bearer:<token> or basic:<user>:<password>.");
}

function ipfsConfig(env: NodeJS.ProcessEnv): IpfsConfig {
  const pinningApi = ['IPFS_PINNING_URL', 'IPFS_PINNING_TOKEN'].filter((name) => env[name]?.trim());
  if (pinningApi.length > 0) {
    throw new ConfigError(
      `${pinningApi.join(' and ')} cannot be used: the IPFS Pinning Service API pins a CID that a node already provides and cannot upload a file. ` +
        'Set PINATA_JWT to upload to Pinata, or IPFS_KUBO_URL to add files through a Kubo node (unset both to keep files under DATA_DIR/ipfs).',
    );
  }
  const jwt = env.PINATA_JWT?.trim() || undefined;
  const kuboUrl = httpUrl(env, 'IPFS_KUBO_URL', 'http://127.0.0.1:5001');
  const kuboAuth = env.IPFS_KUBO_AUTH?.trim() || undefined;
  const pinataApiUrl = httpUrl(env, 'PINATA_API_URL', 'https://api.pinata.cloud');
  const gateway = httpUrl(env, 'IPFS_GATEWAY_URL', 'https://gateway.pinata.cloud/ipfs/');
  if (jwt && kuboUrl) throw new ConfigError('PINATA_JWT and IPFS_KUBO_URL cannot both be set: files are pinned through one of them.');
  if (pinataApiUrl && !jwt) throw new ConfigError('PINATA_API_URL must be set with PINATA_JWT.');
  if (kuboAuth && !kuboUrl) throw new ConfigError('IPFS_KUBO_AUTH must be set with IPFS_KUBO_URL.');
  if (gateway && !jwt && !kuboUrl) {
    throw new ConfigError(
      'IPFS_GATEWAY_URL must be set with PINATA_JWT or IPFS_KUBO_URL: files kept under DATA_DIR/ipfs are on no IPFS node, and only this app serves them (PUBLIC_URL/ipfs/).',
    );
  }
  if (jwt && !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(jwt)) {
    throw new ConfigError('PINATA_JWT must be the JWT of a Pinata API key (three base64url parts separated by dots).');
  }
  return {
    pinata: jwt ? { jwt, apiUrl: pinataApiUrl ?? 'https://api.pinata.cloud' } : undefined,
    kubo: kuboUrl ? { url: kuboUrl, authorization: kuboAuth && kuboAuthorization(kuboAuth) } : undefined,
    gatewayUrl: `${gateway ?? DEFAULT_IPFS_GATEWAY.replace(/\/+$/, '')}/`,
  };
}

export const SDF_NETWORKS = {
  testnet: {
    passphrase: 'Test SDF Network ; September 2015',
    horizonUrl: 'https://horizon-testnet.stellar.org',
    // Circle's USDC on testnet (developers.circle.com, USDC contract addresses).
    usdcIssuer: 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5',
  },
  public: {
    passphrase: 'Public Global Stellar Network ; September 2015',
    horizonUrl: 'https://horizon.stellar.org',
    usdcIssuer: 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN',
  },
} as const;

/** The Horizon servers SDF runs, by host, and the network each serves: a host of one never serves another. */
const SDF_HORIZON_HOSTS: Record<string, 'testnet' | 'public'> = {
  'horizon-testnet.stellar.org': 'testnet',
  'horizon.stellar.org': 'public',
};

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function stellarNetworkChoice(raw: string | undefined): { name: StellarNetwork['name']; passphrase: string } {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'testnet' || value === SDF_NETWORKS.testnet.passphrase) return { name: 'testnet', passphrase: SDF_NETWORKS.testnet.passphrase };
  if (value === 'public' || value === SDF_NETWORKS.public.passphrase) return { name: 'public', passphrase: SDF_NETWORKS.public.passphrase };
  // A passphrase is a sentence ("Standalone Network ; February 2017"): one word is a misspelt network name, which
  // would otherwise become a network nobody runs, and every transaction would be refused.
  if (!/\s/.test(value)) {
    throw new ConfigError(
      `STELLAR_NETWORK must be testnet, public, or the passphrase of another Stellar network such as "Standalone Network ; February 2017"; got "${raw}".`,
    );
  }
  return { name: 'custom', passphrase: value };
}

function horizonUrl(raw: string): string {
  const url = URL.canParse(raw) ? new URL(raw) : null;
  const allowed = url && !url.username && !url.password && (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)));
  if (!allowed) {
    throw new ConfigError(
      `HORIZON_URL must be an https:// address such as https://horizon-testnet.stellar.org (http:// only for a Horizon on this machine: localhost, 127.0.0.1 or [::1]); got "${raw}".`,
    );
  }
  return raw.replace(/\/+$/, '');
}

function stellarConfig(env: NodeJS.ProcessEnv): StellarConfig {
  const { name, passphrase } = stellarNetworkChoice(env.STELLAR_NETWORK);
  const given = env.HORIZON_URL?.trim();
  if (name === 'custom' && !given) {
    throw new ConfigError('HORIZON_URL must be set with a custom STELLAR_NETWORK passphrase: the address of a Horizon of that network.');
  }
  const url = given ? horizonUrl(given) : SDF_NETWORKS[name as keyof typeof SDF_NETWORKS].horizonUrl;
  const servedNetwork = SDF_HORIZON_HOSTS[new URL(url).hostname];
  if (servedNetwork && servedNetwork !== name) {
    const chosen = name === 'custom' ? 'a custom passphrase' : name;
    const fix = name === 'custom' ? 'a Horizon of your network' : `a Horizon of the ${name} network (${SDF_NETWORKS[name].horizonUrl})`;
    throw new ConfigError(
      `STELLAR_NETWORK is ${chosen} but HORIZON_URL ${url} is a Horizon of the ${servedNetwork} network: set HORIZON_URL to ${fix}, or STELLAR_NETWORK to ${servedNetwork}.`,
    );
  }
  return { network: { name, passphrase, horizonUrl: url }, usdcAsset: usdcAsset(env.STELLAR_USDC_ASSET, name), anchorSecret: anchorSecret(env) };
}

function anchorSecret(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.STELLAR_ANCHOR_SECRET?.trim();
  if (!value) return undefined;
  // The value itself is never repeated in the message: it is a secret.
  if (!isStellarSecretSeed(value)) {
    throw new ConfigError(
      'STELLAR_ANCHOR_SECRET must be the secret seed of a Stellar account: S followed by 55 letters and digits, with a valid checksum (unset it to keep the daily ledger roots unanchored).',
    );
  }
  return value;
}

function usdcAsset(raw: string | undefined, network: StellarNetwork['name']): StellarAsset | undefined {
  const value = raw?.trim();
  if (!value) return network === 'custom' ? undefined : { code: 'USDC', issuer: SDF_NETWORKS[network].usdcIssuer };
  const [code = '', issuer = '', ...rest] = value.split(':');
  if (!/^[A-Za-z0-9]{1,12}$/.test(code) || !isStellarAccountId(issuer) || rest.length > 0) {
    throw new ConfigError(
      `STELLAR_USDC_ASSET must be CODE:ISSUER, an asset code of 1 to 12 letters and digits and its issuer's G address, such as USDC:${SDF_NETWORKS.public.usdcIssuer}; got "${raw}".`,
    );
  }
  return { code, issuer };
}

/** A random key kept on disk, so development sessions survive restarts without any setup. */
function localSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secrets', 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function jwtSecret(env: NodeJS.ProcessEnv, mode: Environment, dataDir: string): string {
  let secret = env.JWT_SECRET;
  if (!secret) {
    if (mode === 'production') throw new ConfigError('JWT_SECRET must be set in production (32 characters or more).');
    secret = localSecret(dataDir);
  }
  if (secret.length < 32) throw new ConfigError('JWT_SECRET must be 32 characters or more.');
  return secret;
}

/** A 256-bit key for one purpose, the same on every start for the same secret. */
function deriveKey(secret: string, purpose: string): string {
  return Buffer.from(hkdfSync('sha256', secret, 'knack', `knack:${purpose}`, 32)).toString('base64url');
}

/** A comma-separated list of emails, trimmed and lower-cased. */
const emailList = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean);

/**
 * ADMIN_REMOVE_EMAILS: the admins who may delete any piece. Only admins can be given that power, so an address that
 * is not also in ADMIN_EMAILS is a mistake (a typo would otherwise silently give nobody the power).
 */
function adminRemoveEmails(env: NodeJS.ProcessEnv, adminEmails: readonly string[]): string[] {
  const removers = emailList(env.ADMIN_REMOVE_EMAILS);
  const notAdmin = removers.find((email) => !adminEmails.includes(email));
  if (notAdmin) throw new ConfigError(`ADMIN_REMOVE_EMAILS may name only admins: ${notAdmin} is not in ADMIN_EMAILS.`);
  return removers;
}

function authConfig(env: NodeJS.ProcessEnv, secret: string): AuthConfig {
  const googleClientId = env.GOOGLE_CLIENT_ID?.trim();
  const facebookAppId = env.FACEBOOK_APP_ID?.trim();
  const facebookSecret = env.FACEBOOK_APP_SECRET?.trim();
  if (facebookAppId && !facebookSecret) throw new ConfigError('FACEBOOK_APP_SECRET must be set with FACEBOOK_APP_ID.');
  const adminEmails = emailList(env.ADMIN_EMAILS);
  return {
    keys: {
      accessTokens: deriveKey(secret, 'access-tokens'),
      mediaUrls: deriveKey(secret, 'media-urls'),
      knackCodes: deriveKey(secret, 'knack-codes'),
      visitorIds: deriveKey(secret, 'visitor-ids'),
      pageCursors: deriveKey(secret, 'page-cursors'),
      stellarWebAuth: deriveKey(secret, 'stellar-web-auth'),
      nftIssuers: deriveKey(secret, 'nft-issuers'),
      bidLinks: deriveKey(secret, 'bid-links'),
      mailUnsubscribe: deriveKey(secret, 'mail-unsubscribe'),
      uploadPasses: deriveKey(secret, 'upload-passes'),
      eventsTokens: deriveKey(secret, 'events-tokens'),
    },
    jwtIssuer: env.JWT_ISSUER ?? 'knack',
    jwtAudience: env.JWT_AUDIENCE ?? 'knack-web',
    accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL_SECONDS', 900, 30, 86_400),
    refreshTokenTtlDays: int(env, 'REFRESH_TOKEN_TTL_DAYS', 30, 1, 365),
    cookieSecure: bool(env, 'COOKIE_SECURE', true),
    bcryptCost: int(env, 'BCRYPT_COST', 12, 10, 15),
    adminEmails,
    adminRemoveEmails: adminRemoveEmails(env, adminEmails),
    google: googleClientId ? { clientId: googleClientId, certsUrl: env.GOOGLE_CERTS_URL?.trim() || undefined } : undefined,
    facebook:
      facebookAppId && facebookSecret
        ? { appId: facebookAppId, appSecret: facebookSecret, graphUrl: (env.FACEBOOK_GRAPH_URL ?? 'https://graph.facebook.com/v19.0').replace(/\/+$/, '') }
        : undefined,
    apiKeyRequestsPerMinute: int(env, 'API_KEY_REQUESTS_PER_MINUTE', 600, 1, 100_000),
  };
}
