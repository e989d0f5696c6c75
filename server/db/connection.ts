import mongoose from 'mongoose';
import type { Config } from '../config';
import type { Logger } from '../lib/logger';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded';

// Reject query operators smuggled in through request values ({ "$gt": "" }) everywhere.
mongoose.set('sanitizeFilter', true);
mongoose.set('strictQuery', true);

export interface Database {
  uri: string;
  embedded: EmbeddedDatabase | undefined;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Puts a database name into a mongodb:// URI that has none. */
export function withDatabaseName(uri: string, dbName: string): string {
  const url = new URL(uri);
  if (url.pathname && url.pathname !== '/') return uri;
  url.pathname = `/${dbName}`;
  return url.toString();
}

export async function connectDatabase(config: Pick<Config, 'mongodbUri' | 'dataDir' | 'dbName'>, logger: Logger): Promise<Database> {
  const embedded = config.mongodbUri ? undefined : await startEmbeddedDatabase({ dataDir: config.dataDir, log: (message) => logger.info(message) });
  const uri = withDatabaseName(config.mongodbUri ?? embedded!.uri, config.dbName);
  try {
    await mongoose.connect(uri, { serverSelectionTimeoutMS: 10_000 });
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  logger.info({ database: embedded?.kind ?? 'MONGODB_URI' }, 'database connected');
  await ensureIndexes();
  return {
    uri,
    embedded,
    ping: async () => {
      await mongoose.connection.db!.admin().ping();
    },
    close: async () => {
      await mongoose.disconnect();
      await embedded?.stop();
    },
  };
}

/** Builds the indexes every registered model declares (hot reads must be indexed reads). */
export async function ensureIndexes(): Promise<void> {
  await Promise.all(Object.values(mongoose.models).map((model) => model.init()));
}
