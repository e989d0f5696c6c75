import path from 'node:path';
import { ConfigError, loadConfig } from '../../server/config';
import { PROJECT_ROOT } from '../../server/lib/paths';

describe('loadConfig', () => {
  it('when nothing is set, then every part is on its embedded default', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      devMail: false,
      mongodbUri: undefined,
      dbName: 'knack',
      dataDir: path.join(PROJECT_ROOT, 'data'),
      clientDir: path.join(PROJECT_ROOT, 'dist/client'),
      seedOnStart: true,
      seedDemo: true,
      jobsInProcess: true,
      validateResponses: true,
      trustProxy: false,
    });
  });

  it('when production is set, then responses are not validated and logs are at info', () => {
    const secret = 'x'.repeat(40);
    const production = { NODE_ENV: 'production', JWT_SECRET: secret, PAYMENTS_PROVIDER: 'sandbox' };
    expect(loadConfig(production)).toMatchObject({ validateResponses: false, logLevel: 'info', seedDemo: false, host: '0.0.0.0' });
    expect(loadConfig({ ...production, SEED_DEMO: 'true', JOBS_IN_PROCESS: 'false' })).toMatchObject({ seedDemo: true, jobsInProcess: false });
  });

  it('when HOST is set, then the server listens there (e.g. 0.0.0.0 to open a development machine to its network)', () => {
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ DEV_MAIL: 'true' }).devMail).toBe(true);
  });

  it('when payments are not chosen in production, then start fails and says how to choose; the sandbox only by name', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) };
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(/Payments need a provider in production: set STRIPE_SECRET_KEY .* or PAYMENTS_PROVIDER=sandbox/);
    expect(loadConfig({ ...production, PAYMENTS_PROVIDER: 'sandbox' }).payments.provider).toBe('sandbox');
    expect(loadConfig({ ...production, STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).payments.provider).toBe('stripe');
    expect(loadConfig({ NODE_ENV: 'development', JWT_SECRET: 'x'.repeat(40) }).payments.provider).toBe('sandbox');
  });

  it('when keys are derived from JWT_SECRET, then each purpose has its own, none is the secret, and a restart gives the same', () => {
    const secret = 'z'.repeat(40);
    const config = loadConfig({ JWT_SECRET: secret });
    const keys = [...Object.values(config.auth.keys), config.payments.webhookSecret, config.payments.sandboxPayerKey];
    expect(keys).toHaveLength(7);
    expect(new Set(keys).size).toBe(7);
    expect(keys).not.toContain(secret);
    for (const key of keys) expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    expect(loadConfig({ JWT_SECRET: secret }).auth.keys).toEqual(config.auth.keys);
    expect(loadConfig({ JWT_SECRET: 'w'.repeat(40) }).auth.keys.accessTokens).not.toBe(config.auth.keys.accessTokens);
  });

  it('when auth settings are given, then admins, providers and token lifetimes are parsed', () => {
    const config = loadConfig({
      JWT_SECRET: 'y'.repeat(32),
      ADMIN_EMAILS: ' Boss@Knack.example, ops@knack.example ,',
      GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com',
      FACEBOOK_APP_ID: '42',
      FACEBOOK_APP_SECRET: 'shh',
      ACCESS_TOKEN_TTL_SECONDS: '600',
      PUBLIC_URL: 'https://knack.example/',
    });
    expect(config.auth).toMatchObject({
      adminEmails: ['boss@knack.example', 'ops@knack.example'],
      google: { clientId: 'client.apps.googleusercontent.com', certsUrl: undefined },
      facebook: { appId: '42', appSecret: 'shh', graphUrl: 'https://graph.facebook.com/v19.0' },
      accessTokenTtlSeconds: 600,
      bcryptCost: 12,
      cookieSecure: true,
    });
    expect(config.publicUrl).toBe('https://knack.example');
  });

  it('when values are given, then they are parsed', () => {
    const config = loadConfig({
      PORT: '8080',
      MONGODB_URI: 'mongodb://db.internal:27017/knack',
      SEED_ON_START: 'false',
      TRUST_PROXY: '1',
      DATA_DIR: '/var/lib/knack',
    });
    expect(config).toMatchObject({ port: 8080, mongodbUri: 'mongodb://db.internal:27017/knack', seedOnStart: false, trustProxy: 1, dataDir: '/var/lib/knack' });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be a whole number from 0 to 65535/],
    [{ NODE_ENV: 'staging' }, /NODE_ENV must be/],
    [{ SEED_ON_START: 'maybe' }, /SEED_ON_START must be true or false/],
    [{ MONGODB_URI: 'postgres://x' }, /MONGODB_URI must start with mongodb/],
    [{ NODE_ENV: 'production' }, /JWT_SECRET must be set in production/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET must be 32 characters or more/],
    [{ FACEBOOK_APP_ID: '123' }, /FACEBOOK_APP_SECRET must be set/],
    [{ PUBLIC_URL: 'knack.example' }, /PUBLIC_URL must be an http/],
    [{ BCRYPT_COST: '4' }, /BCRYPT_COST must be a whole number from 10 to 15/],
  ])('when %p is set, then start fails with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
