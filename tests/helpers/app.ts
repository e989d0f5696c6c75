import mongoose from 'mongoose';
import path from 'node:path';
import { createApp, type AppDeps } from '../../server/app';
import { createLogger } from '../../server/lib/logger';

export const FIXTURE_CLIENT_DIR = path.resolve(__dirname, '../fixtures/client');

/** The real app, as production builds it, with responses checked against openapi.yaml. */
export function createTestApp(overrides: Partial<AppDeps> = {}) {
  return createApp({
    config: { clientDir: FIXTURE_CLIENT_DIR, validateResponses: true, trustProxy: false },
    logger: createLogger('silent'),
    pingDatabase: async () => {
      await mongoose.connection.db!.admin().ping();
    },
    ...overrides,
  });
}
