import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { createApp, type AppDeps } from '../../server/app';
import { loadConfig } from '../../server/config';
import { localIpfsPinning } from '../../server/integrations/ipfs';
import { outboxMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { createLogger } from '../../server/lib/logger';
import { buildServices } from '../../server/services';

export const FIXTURE_CLIENT_DIR = path.resolve(__dirname, '../fixtures/client');
export const TEST_JWT_SECRET = 'test-secret-for-knack-tests-0123456789abcdef';

type TestConfig = AppDeps['config'];

/**
 * The configuration tests run with: production defaults where they matter (Secure cookies, real bcrypt hashes).
 * bcrypt runs at the lowest cost the server accepts, 10, not production's 12: each of the suite's hundreds of
 * sign-ups and sign-ins would otherwise hold a core four times as long (about 0.2 s against 0.05 s), and no test
 * measures the hash's strength (the config test checks that 12 is the default).
 */
export function testConfig(overrides: Partial<TestConfig> = {}): TestConfig {
  const base = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: TEST_JWT_SECRET,
    ADMIN_EMAILS: 'admin@knack.example',
    ADMIN_REMOVE_EMAILS: 'admin@knack.example',
    DATA_DIR: os.tmpdir(),
    BCRYPT_COST: '10',
    // No test reaches a real Stellar network: a test of the Stellar calls points Knack at the Horizon stand-in
    // (tests/helpers/horizon-standin.ts), and any other call is refused on this machine at once.
    HORIZON_URL: 'http://127.0.0.1:9',
  });
  return {
    env: base.env,
    clientDir: FIXTURE_CLIENT_DIR,
    validateResponses: true,
    trustProxy: false,
    publicUrl: 'http://knack.test',
    devMail: false,
    auth: base.auth,
    payments: base.payments,
    payouts: base.payouts,
    stellar: base.stellar,
    ...overrides,
  };
}

export interface TestAppOptions extends Partial<Omit<AppDeps, 'config'>> {
  config?: Partial<TestConfig>;
}

/** The real app, as production builds it, with responses checked against openapi.yaml. */
export function createTestApp(options: TestAppOptions = {}) {
  const { config, ...deps } = options;
  return createApp({
    config: testConfig(config),
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    pingDatabase: async () => {
      await mongoose.connection.db!.admin().ping();
    },
    mailer: outboxMailer(mkdtempSync(path.join(os.tmpdir(), 'knack-outbox-')), 'Knack <no-reply@knack.test>'),
    storage: localStorage(mkdtempSync(path.join(os.tmpdir(), 'knack-uploads-'))),
    ipfs: localIpfsPinning(mkdtempSync(path.join(os.tmpdir(), 'knack-ipfs-')), testConfig(config).publicUrl),
    // Each app streams uploads into a folder of its own, so a test that looks for leftovers sees only its own.
    uploadTempDir: mkdtempSync(path.join(os.tmpdir(), 'knack-upload-temp-')),
    ...deps,
  });
}

/** The services as the server builds them once per process, for the app and the jobs alike, with the test configuration. */
export function createTestServices({
  config,
  ...deps
}: { config?: Partial<TestConfig> } & Partial<Pick<AppDeps, 'mailer' | 'storage' | 'ipfs' | 'logger'>> = {}) {
  return buildServices({
    config: testConfig(config),
    logger: deps.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    mailer: deps.mailer ?? outboxMailer(mkdtempSync(path.join(os.tmpdir(), 'knack-outbox-')), 'Knack <no-reply@knack.test>'),
    storage: deps.storage ?? localStorage(mkdtempSync(path.join(os.tmpdir(), 'knack-uploads-'))),
    ipfs: deps.ipfs ?? localIpfsPinning(mkdtempSync(path.join(os.tmpdir(), 'knack-ipfs-')), testConfig(config).publicUrl),
  });
}
