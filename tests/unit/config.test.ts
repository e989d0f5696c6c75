import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { ConfigError, loadConfig } from '../../server/config';
import { createIpfsPinning } from '../../server/integrations/ipfs';
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
    expect(keys).toHaveLength(13);
    expect(new Set(keys).size).toBe(13);
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
    expect(config.instagram).toBeUndefined();
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

  it("when an Instagram app is given, then posting to Instagram is on, at Instagram's addresses, with keys of its own", () => {
    const config = loadConfig({ JWT_SECRET: 'y'.repeat(32), INSTAGRAM_APP_ID: ' 1234567890123 ', INSTAGRAM_APP_SECRET: 'shh' });
    expect(config.instagram).toEqual({
      appId: '1234567890123',
      appSecret: 'shh',
      authorizeUrl: 'https://www.instagram.com/oauth/authorize',
      apiUrl: 'https://api.instagram.com',
      graphUrl: 'https://graph.instagram.com/v19.0',
      tokensKey: expect.stringMatching(/^[\w-]{43}$/),
      linksKey: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(config.instagram!.tokensKey).not.toBe(config.instagram!.linksKey);
    expect(Object.values(config.auth.keys)).not.toContain(config.instagram!.tokensKey);
  });

  it('when ADMIN_REMOVE_EMAILS is given, then it is parsed like ADMIN_EMAILS; unset, no admin may delete any piece', () => {
    const config = loadConfig({
      JWT_SECRET: 'y'.repeat(32),
      ADMIN_EMAILS: 'boss@knack.example,ops@knack.example',
      ADMIN_REMOVE_EMAILS: ' Boss@Knack.example ,',
    });
    expect(config.auth.adminRemoveEmails).toEqual(['boss@knack.example']);
    expect(loadConfig({ JWT_SECRET: 'y'.repeat(32), ADMIN_EMAILS: 'boss@knack.example' }).auth.adminRemoveEmails).toEqual([]);
  });

  it('when ADMIN_REMOVE_EMAILS names an address that is not in ADMIN_EMAILS, then the config is refused with a message naming it', () => {
    expect(() =>
      loadConfig({ JWT_SECRET: 'y'.repeat(32), ADMIN_EMAILS: 'boss@knack.example', ADMIN_REMOVE_EMAILS: 'boss@knack.example,eve@knack.example' }),
    ).toThrow(new ConfigError('ADMIN_REMOVE_EMAILS may name only admins: eve@knack.example is not in ADMIN_EMAILS.'));
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

  describe('TRUST_PROXY: whose X-Forwarded-For is believed', () => {
    const setTo = (value: string, env: NodeJS.ProcessEnv = {}) => loadConfig({ ...env, TRUST_PROXY: value }).trustProxy;
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), PAYMENTS_PROVIDER: 'sandbox' };
    const refused =
      'TRUST_PROXY=true would believe every address a client writes into X-Forwarded-For, so anyone could pass for a new address in the rate limits. ' +
      'Set the number of proxies in front of Knack (TRUST_PROXY=1 for one load balancer), or their addresses or subnets (TRUST_PROXY=10.0.0.0/8,192.0.2.10).';

    it('when it is a hop count, then Express is given that count; 0, false or unset trust no proxy', () => {
      expect(setTo('1')).toBe(1);
      expect(setTo(' 2 ')).toBe(2);
      for (const none of ['0', 'false', '', ' ']) expect(setTo(none)).toBe(false);
      expect(loadConfig({}).trustProxy).toBe(false);
    });

    it('when it is a list of proxy addresses or subnets, then Express is given that list', () => {
      expect(setTo('10.0.0.0/8, 192.0.2.10')).toEqual(['10.0.0.0/8', '192.0.2.10']);
      expect(setTo('loopback,uniquelocal,linklocal')).toEqual(['loopback', 'uniquelocal', 'linklocal']);
      expect(setTo('2001:db8::/32,::1', production)).toEqual(['2001:db8::/32', '::1']);
    });

    it('when it is true, then start fails in production and in development, saying what to set instead', () => {
      for (const env of [production, {}, { NODE_ENV: 'test' }]) {
        for (const value of ['true', 'TRUE', ' true']) {
          expect(() => setTo(value, env)).toThrow(ConfigError);
          expect(() => setTo(value, env)).toThrow(refused);
        }
      }
    });

    it.each(['yes', '1.5', '-1', '100', '10.0.0.0/33', '999.1.1.1', '0.0.0.0/0', '::/0', 'proxy.internal', '10.0.0.1,,10.0.0.2'])(
      'when it is %p, then start fails and names the value',
      (value) => {
        expect(() => setTo(value)).toThrow(ConfigError);
        expect(() => setTo(value)).toThrow(
          /^TRUST_PROXY must be a hop count from 1 to 20 \(1 for one load balancer\) or a comma-separated list of proxy addresses or subnets/,
        );
      },
    );
  });

  describe('PUBLIC_URL and PUBLIC_ORIGINS: where links back to the site go', () => {
    it('when nothing is set in development, then PUBLIC_URL is localhost on the port, and links may also go to 127.0.0.1 on the port', () => {
      expect(loadConfig({ PORT: '4000' })).toMatchObject({
        publicUrl: 'http://localhost:4000',
        publicOrigins: ['http://localhost:4000', 'http://127.0.0.1:4000'],
      });
    });

    it('when production sets PUBLIC_URL and PUBLIC_ORIGINS, then links go only to those origins', () => {
      const config = loadConfig({
        NODE_ENV: 'production',
        JWT_SECRET: 'x'.repeat(40),
        PAYMENTS_PROVIDER: 'sandbox',
        PUBLIC_URL: 'https://knack.example/',
        PUBLIC_ORIGINS: ' https://www.knack.example , http://192.0.2.7:3000/ ,https://knack.example',
      });
      expect(config).toMatchObject({
        publicUrl: 'https://knack.example',
        publicOrigins: ['https://knack.example', 'https://www.knack.example', 'http://192.0.2.7:3000'],
      });
      expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), PAYMENTS_PROVIDER: 'sandbox' }).publicOrigins).toEqual(['http://localhost:3000']);
    });

    it.each(['knack.example', 'https://knack.example/pay', 'ftp://knack.example', 'https://knack.example,,https://b.example', 'https://user@knack.example'])(
      'when PUBLIC_ORIGINS is %p, then start fails and names the entry',
      (value) => {
        expect(() => loadConfig({ PUBLIC_ORIGINS: value })).toThrow(ConfigError);
        expect(() => loadConfig({ PUBLIC_ORIGINS: value })).toThrow(
          /^PUBLIC_ORIGINS must be a comma-separated list of origins such as https:\/\/www\.knack\.example/,
        );
      },
    );
  });

  describe('IPFS pinning: kept by the app, or uploaded to Pinata or a Kubo node', () => {
    const base = { JWT_SECRET: 'z'.repeat(32), DATA_DIR: '/var/lib/knack', PUBLIC_URL: 'https://knack.example' };
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJrbmFjayJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    const cid = 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o';

    it('when nothing is set, then files are kept under DATA_DIR/ipfs and served by the app at PUBLIC_URL/ipfs/', () => {
      const config = loadConfig(base);
      expect(config.ipfs).toEqual({ pinata: undefined, kubo: undefined, gatewayUrl: 'https://ipfs.io/ipfs/' });
      const pinning = createIpfsPinning(config);
      expect(pinning.kind).toBe('local');
      expect(pinning).toMatchObject({ root: path.join('/var/lib/knack', 'ipfs') });
      expect(pinning.urlOf(cid)).toBe(`https://knack.example/ipfs/${cid}`);
    });

    it('when PINATA_JWT is set, then files are uploaded to Pinata, and their URLs are on the public gateway', () => {
      const config = loadConfig({ ...base, PINATA_JWT: ` ${jwt} ` });
      expect(config.ipfs).toEqual({ pinata: { jwt, apiUrl: 'https://api.pinata.cloud' }, kubo: undefined, gatewayUrl: 'https://ipfs.io/ipfs/' });
      const pinning = createIpfsPinning(config);
      expect(pinning.kind).toBe('pinning-service');
      expect(pinning.urlOf(cid)).toBe(`https://ipfs.io/ipfs/${cid}`);
    });

    it('when IPFS_GATEWAY_URL and PINATA_API_URL are set, then URLs start with that gateway (with or without its last slash) and uploads go to that API', () => {
      for (const gateway of ['https://knack.mypinata.cloud/ipfs', 'https://knack.mypinata.cloud/ipfs/']) {
        const config = loadConfig({ ...base, PINATA_JWT: jwt, PINATA_API_URL: 'http://127.0.0.1:9999/', IPFS_GATEWAY_URL: gateway });
        expect(config.ipfs.pinata).toEqual({ jwt, apiUrl: 'http://127.0.0.1:9999' });
        expect(createIpfsPinning(config).urlOf(cid)).toBe(`https://knack.mypinata.cloud/ipfs/${cid}`);
      }
    });

    it('when IPFS_KUBO_URL is set, then files are added through that node, with the Authorization header its AuthSecret stands for', () => {
      const plain = loadConfig({ ...base, IPFS_KUBO_URL: 'http://127.0.0.1:5001/' });
      expect(plain.ipfs).toEqual({ pinata: undefined, kubo: { url: 'http://127.0.0.1:5001', authorization: undefined }, gatewayUrl: 'https://ipfs.io/ipfs/' });
      expect(createIpfsPinning(plain).kind).toBe('kubo');
      const bearer = loadConfig({ ...base, IPFS_KUBO_URL: 'http://kubo:5001', IPFS_KUBO_AUTH: 'bearer:s3cret-token' });
      expect(bearer.ipfs.kubo).toEqual({ url: 'http://kubo:5001', authorization: 'Bearer s3cret-token' });
      const basic = loadConfig({ ...base, IPFS_KUBO_URL: 'http://kubo:5001', IPFS_KUBO_AUTH: 'basic:knack:pass:word' });
      expect(basic.ipfs.kubo?.authorization).toBe(`Basic ${Buffer.from('knack:pass:word').toString('base64')}`);
    });

    it.each([
      [{ PINATA_JWT: jwt, IPFS_KUBO_URL: 'http://kubo:5001' }, 'PINATA_JWT and IPFS_KUBO_URL cannot both be set: files are pinned through one of them.'],
      [{ PINATA_API_URL: 'https://api.pinata.cloud' }, 'PINATA_API_URL must be set with PINATA_JWT.'],
      [{ IPFS_KUBO_AUTH: 'bearer:token' }, 'IPFS_KUBO_AUTH must be set with IPFS_KUBO_URL.'],
      [
        { IPFS_GATEWAY_URL: 'https://ipfs.io/ipfs/' },
        'IPFS_GATEWAY_URL must be set with PINATA_JWT or IPFS_KUBO_URL: files kept under DATA_DIR/ipfs are on no IPFS node, and only this app serves them (PUBLIC_URL/ipfs/).',
      ],
      [{ PINATA_JWT: 'not-a-jwt' }, 'PINATA_JWT must be the JWT of a Pinata API key (three base64url parts separated by dots).'],
      [
        { IPFS_KUBO_URL: 'http://kubo:5001', IPFS_KUBO_AUTH: 'token-without-scheme' },
        "IPFS_KUBO_AUTH must be the AuthSecret of the Kubo node's API.Authorizations: bearer:<token> or basic:<user>:<password>.",
      ],
      [{ IPFS_KUBO_URL: 'kubo:5001' }, 'IPFS_KUBO_URL must be an http(s) URL such as http://127.0.0.1:5001; got "kubo:5001".'],
      [
        { PINATA_JWT: jwt, IPFS_GATEWAY_URL: 'gateway.pinata.cloud' },
        'IPFS_GATEWAY_URL must be an http(s) URL such as https://gateway.pinata.cloud/ipfs/; got "gateway.pinata.cloud".',
      ],
      [
        { IPFS_PINNING_URL: 'https://api.pinata.cloud/psa', IPFS_PINNING_TOKEN: 'token' },
        'IPFS_PINNING_URL and IPFS_PINNING_TOKEN cannot be used: the IPFS Pinning Service API pins a CID that a node already provides and cannot upload a file. ' +
          'Set PINATA_JWT to upload to Pinata, or IPFS_KUBO_URL to add files through a Kubo node (unset both to keep files under DATA_DIR/ipfs).',
      ],
    ])('when %p is set, then start fails and says what to set', (env, message) => {
      expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, ...env })).toThrow(message);
    });

    it('when a secret is malformed, then the message does not repeat it', () => {
      const messageOf = (env: Record<string, string>) => {
        try {
          loadConfig({ ...base, ...env });
        } catch (err) {
          return (err as Error).message;
        }
        throw new Error('no error');
      };
      expect(messageOf({ PINATA_JWT: 'secret-jwt-value' })).not.toContain('secret-jwt-value');
      expect(messageOf({ IPFS_KUBO_URL: 'http://kubo:5001', IPFS_KUBO_AUTH: 'Bearer leaked-token' })).not.toContain('leaked-token');
    });
  });

  describe('HORIZON_URL, STELLAR_NETWORK and STELLAR_USDC_ASSET: which Stellar network Knack talks to', () => {
    const TESTNET = 'Test SDF Network ; September 2015';
    const PUBLIC = 'Public Global Stellar Network ; September 2015';
    const TESTNET_USDC = 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5';
    const PUBLIC_USDC = 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN';
    const stellar = (env: NodeJS.ProcessEnv) => loadConfig(env).stellar;

    it('when nothing is set, then Knack talks to testnet through SDF testnet Horizon, and reads the rate against Circle testnet USDC', () => {
      expect(stellar({})).toEqual({
        network: { name: 'testnet', passphrase: TESTNET, horizonUrl: 'https://horizon-testnet.stellar.org' },
        usdcAsset: { code: 'USDC', issuer: TESTNET_USDC },
      });
    });

    it('when the public network is chosen, then its Horizon and Circle USDC are the defaults', () => {
      expect(stellar({ STELLAR_NETWORK: 'public' })).toEqual({
        network: { name: 'public', passphrase: PUBLIC, horizonUrl: 'https://horizon.stellar.org' },
        usdcAsset: { code: 'USDC', issuer: PUBLIC_USDC },
      });
      expect(stellar({ STELLAR_NETWORK: PUBLIC, HORIZON_URL: 'https://horizon.example.org/' }).network).toEqual({
        name: 'public',
        passphrase: PUBLIC,
        horizonUrl: 'https://horizon.example.org',
      });
      expect(stellar({ STELLAR_NETWORK: TESTNET }).network.name).toBe('testnet');
    });

    it('when a custom passphrase is given with its Horizon, then it is used, with no USDC unless one is named', () => {
      const env = { STELLAR_NETWORK: 'Standalone Network ; February 2017', HORIZON_URL: 'http://127.0.0.1:8000' };
      expect(stellar(env)).toEqual({
        network: { name: 'custom', passphrase: 'Standalone Network ; February 2017', horizonUrl: 'http://127.0.0.1:8000' },
        usdcAsset: undefined,
      });
      expect(stellar({ ...env, STELLAR_USDC_ASSET: `USDC:${PUBLIC_USDC}` }).usdcAsset).toEqual({ code: 'USDC', issuer: PUBLIC_USDC });
    });

    it('when a Horizon on this machine is named, then plain http is accepted (a stand-in or a local network)', () => {
      for (const url of ['http://localhost:8000', 'http://127.0.0.1:41234/', 'http://[::1]:8000']) {
        expect(stellar({ HORIZON_URL: url }).network.horizonUrl).toBe(url.replace(/\/$/, ''));
      }
    });

    it.each([
      [
        { STELLAR_NETWORK: 'public', HORIZON_URL: 'https://horizon-testnet.stellar.org' },
        'STELLAR_NETWORK is public but HORIZON_URL https://horizon-testnet.stellar.org is a Horizon of the testnet network: set HORIZON_URL to a Horizon of the public network (https://horizon.stellar.org), or STELLAR_NETWORK to testnet.',
      ],
      [
        { HORIZON_URL: 'https://horizon.stellar.org' },
        'STELLAR_NETWORK is testnet but HORIZON_URL https://horizon.stellar.org is a Horizon of the public network: set HORIZON_URL to a Horizon of the testnet network (https://horizon-testnet.stellar.org), or STELLAR_NETWORK to public.',
      ],
      [
        { STELLAR_NETWORK: 'Standalone Network ; February 2017' },
        'HORIZON_URL must be set with a custom STELLAR_NETWORK passphrase: the address of a Horizon of that network.',
      ],
      [
        { STELLAR_NETWORK: 'Standalone Network ; February 2017', HORIZON_URL: 'https://horizon-testnet.stellar.org' },
        'STELLAR_NETWORK is a custom passphrase but HORIZON_URL https://horizon-testnet.stellar.org is a Horizon of the testnet network: set HORIZON_URL to a Horizon of your network, or STELLAR_NETWORK to testnet.',
      ],
      [
        { STELLAR_NETWORK: 'publik' },
        'STELLAR_NETWORK must be testnet, public, or the passphrase of another Stellar network such as "Standalone Network ; February 2017"; got "publik".',
      ],
      [
        { HORIZON_URL: 'http://horizon.internal:8000' },
        'HORIZON_URL must be an https:// address such as https://horizon-testnet.stellar.org (http:// only for a Horizon on this machine: localhost, 127.0.0.1 or [::1]); got "http://horizon.internal:8000".',
      ],
      [
        { HORIZON_URL: 'horizon-testnet.stellar.org' },
        'HORIZON_URL must be an https:// address such as https://horizon-testnet.stellar.org (http:// only for a Horizon on this machine: localhost, 127.0.0.1 or [::1]); got "horizon-testnet.stellar.org".',
      ],
    ])('when %p is set, then start fails and says what to set', (env, message) => {
      expect(() => stellar(env)).toThrow(ConfigError);
      expect(() => stellar(env)).toThrow(message);
    });

    it.each([
      'USDC',
      `USDC:${TESTNET_USDC.slice(0, -1)}A`,
      `USDC:${TESTNET_USDC.toLowerCase()}`,
      `:${TESTNET_USDC}`,
      `TOOLONGCODE13:${TESTNET_USDC}`,
      `US-D:${TESTNET_USDC}`,
    ])('when STELLAR_USDC_ASSET is %p, then start fails and names the value', (value) => {
      expect(() => stellar({ STELLAR_USDC_ASSET: value })).toThrow(ConfigError);
      expect(() => stellar({ STELLAR_USDC_ASSET: value })).toThrow(
        `STELLAR_USDC_ASSET must be CODE:ISSUER, an asset code of 1 to 12 letters and digits and its issuer's G address, such as USDC:${PUBLIC_USDC}; got "${value}".`,
      );
    });
  });

  describe('STELLAR_ANCHOR_SECRET: the account that anchors the daily ledger roots', () => {
    const ANCHOR_MESSAGE =
      'STELLAR_ANCHOR_SECRET must be the secret seed of a Stellar account: S followed by 55 letters and digits, with a valid checksum (unset it to keep the daily ledger roots unanchored).';

    it('when it is unset or blank, then there is no anchor account and the roots stay unanchored', () => {
      expect(loadConfig({}).stellar.anchorSecret).toBeUndefined();
      expect(loadConfig({ STELLAR_ANCHOR_SECRET: '  ' }).stellar.anchorSecret).toBeUndefined();
    });

    it('when it is a secret seed, then it is kept as given (without spaces around it)', () => {
      const secret = Keypair.random().secret();
      expect(loadConfig({ STELLAR_ANCHOR_SECRET: ` ${secret} ` }).stellar.anchorSecret).toBe(secret);
    });

    it('when it is not a secret seed, then start fails, says what it must be, and never repeats the value', () => {
      const keypair = Keypair.random();
      const secret = keypair.secret();
      const typo = secret.slice(0, 10) + (secret[10] === 'A' ? 'B' : 'A') + secret.slice(11);
      for (const value of [keypair.publicKey(), typo, secret.toLowerCase(), secret.slice(0, 55), 'hunter2']) {
        let thrown: unknown;
        try {
          loadConfig({ STELLAR_ANCHOR_SECRET: value });
        } catch (err) {
          thrown = err;
        }
        expect(thrown).toBeInstanceOf(ConfigError);
        expect((thrown as Error).message).toBe(ANCHOR_MESSAGE);
      }
    });
  });

  describe('ANALYTICS_DRIVER, POSTHOG_HOST and POSTHOG_API_KEY: where product events go besides Knack', () => {
    const refusal = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error('the config was accepted');
    };

    it('when nothing is set, then events are kept by Knack only', () => {
      expect(loadConfig({}).analytics).toEqual({ driver: 'none', posthog: undefined });
      expect(loadConfig({ ANALYTICS_DRIVER: 'none' }).analytics).toEqual({ driver: 'none', posthog: undefined });
    });

    it("when ANALYTICS_DRIVER is posthog with a project key, then events go to PostHog's US cloud, or to POSTHOG_HOST", () => {
      expect(loadConfig({ ANALYTICS_DRIVER: 'posthog', POSTHOG_API_KEY: ' phc_abc123XYZ ' }).analytics).toEqual({
        driver: 'posthog',
        posthog: { host: 'https://us.i.posthog.com', apiKey: 'phc_abc123XYZ' },
      });
      expect(loadConfig({ ANALYTICS_DRIVER: 'PostHog', POSTHOG_API_KEY: 'phc_abc', POSTHOG_HOST: 'https://eu.i.posthog.com/' }).analytics).toEqual({
        driver: 'posthog',
        posthog: { host: 'https://eu.i.posthog.com', apiKey: 'phc_abc' },
      });
    });

    it('when the choice is incomplete or wrong, then start fails saying what to set, never repeating the key', () => {
      expect(refusal({ ANALYTICS_DRIVER: 'mixpanel' })).toBe('ANALYTICS_DRIVER must be none or posthog; got "mixpanel".');
      expect(refusal({ ANALYTICS_DRIVER: 'posthog' })).toBe(
        'POSTHOG_API_KEY must be set with ANALYTICS_DRIVER=posthog: the project API key (phc_…) from the PostHog project settings.',
      );
      expect(refusal({ ANALYTICS_DRIVER: 'posthog', POSTHOG_API_KEY: 'phx_personalSecret' })).toBe(
        'POSTHOG_API_KEY must be a project API key (phc_…), not a personal API key (phx_…): a personal key opens the whole PostHog account, and it would travel with every batch.',
      );
      expect(refusal({ ANALYTICS_DRIVER: 'posthog', POSTHOG_API_KEY: 'not a key' })).toBe(
        'POSTHOG_API_KEY must be a PostHog project API key: phc_ followed by letters and digits.',
      );
      expect(refusal({ ANALYTICS_DRIVER: 'posthog', POSTHOG_API_KEY: 'phc_abc', POSTHOG_HOST: 'eu.i.posthog.com' })).toBe(
        'POSTHOG_HOST must be an http(s) URL such as https://eu.i.posthog.com; got "eu.i.posthog.com".',
      );
      expect(refusal({ POSTHOG_API_KEY: 'phc_abc' })).toBe(
        'POSTHOG_API_KEY must be set with ANALYTICS_DRIVER=posthog (unset it to keep product events in Knack only).',
      );
      expect(refusal({ POSTHOG_API_KEY: 'phc_abc', POSTHOG_HOST: 'https://eu.i.posthog.com' })).toBe(
        'POSTHOG_API_KEY and POSTHOG_HOST must be set with ANALYTICS_DRIVER=posthog (unset them to keep product events in Knack only).',
      );
    });
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
    [{ INSTAGRAM_APP_ID: '1234567890' }, /INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET must be set together/],
    [{ INSTAGRAM_APP_SECRET: 'shh' }, /INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET must be set together/],
    [{ INSTAGRAM_APP_ID: 'my-app', INSTAGRAM_APP_SECRET: 'shh' }, /INSTAGRAM_APP_ID must be the Instagram app's numeric id/],
    [{ INSTAGRAM_APP_ID: '1234567890', INSTAGRAM_APP_SECRET: 'shh', INSTAGRAM_GRAPH_URL: 'graph' }, /INSTAGRAM_GRAPH_URL must be an http\(s\) URL/],
    [{ PUBLIC_URL: 'knack.example' }, /PUBLIC_URL must be an http/],
    [{ BCRYPT_COST: '4' }, /BCRYPT_COST must be a whole number from 10 to 15/],
  ])('when %p is set, then start fails with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
