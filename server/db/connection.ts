import mongoose from 'mongoose';
import type { Config } from '../config';
import type { Logger } from '../lib/logger';
import { serverIsFerretDB } from '../lib/guarded-write';
import { useClosedSocketWriteFailure } from '../lib/vendor-fixes/mongodb-closed-socket-write';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded';

// Reject query operators smuggled in through request values ({ "$gt": "" }) everywhere.
mongoose.set('sanitizeFilter', true);
mongoose.set('strictQuery', true);
// Indexes are built by ensureIndexes, which knows which ones the database in use can make use of.
mongoose.set('autoIndex', false);
// A write to a connection the database closed fails instead of waiting for ever (the driver's server monitor would
// otherwise stop checking, and the app would not serve again after a database restart): lib/vendor-fixes.
useClosedSocketWriteFailure();

/**
 * How the app connects, and how it lives through a database restart. The driver notices a server gone and
 * reconnects by itself once it answers again; meanwhile each call waits at most `serverSelectionTimeoutMS` for a
 * server and then fails, and the error handler answers it 503 with `Retry-After` (lib/errors.ts). mongoose's
 * own buffer is off: it would hold a call while it believes the connection down (10 s by default, then a vaguer
 * error), where the driver already waits and knows better. Nothing runs a query before `connectDatabase` resolves.
 */
export const DATABASE_CONNECT_OPTIONS = { serverSelectionTimeoutMS: 5_000, bufferCommands: false } as const satisfies mongoose.ConnectOptions;

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
    await mongoose.connect(uri, DATABASE_CONNECT_OPTIONS);
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

/**
 * Creates every registered model's collection and builds the indexes it declares: all of them on MongoDB, where the
 * hot reads are indexed reads. On FerretDB only the unique ones, for the rule each enforces. Its SQLite backend
 * answers every query but a lookup by `_id` by reading the whole collection, whatever indexes exist, so there a
 * secondary index is only a cost, paid on every write of its collection: a piece's knack count, for one, rewrote
 * nine of them. Those an older embedded database still has are dropped.
 */
export async function ensureIndexes(): Promise<void> {
  const ferret = await serverIsFerretDB();
  await Promise.all(
    Object.values(mongoose.models).map(async (model) => {
      await model.init();
      if (!ferret) {
        await model.createIndexes();
        return;
      }
      for (const [fields, options] of model.schema.indexes()) {
        if (options?.unique) await model.collection.createIndex(fields as Record<string, 1 | -1>, options as mongoose.mongo.CreateIndexesOptions);
      }
      for (const index of await model.collection.indexes()) {
        if (index.name && index.name !== '_id_' && !index.unique) await model.collection.dropIndex(index.name);
      }
    }),
  );
}
