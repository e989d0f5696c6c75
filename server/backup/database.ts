/**
 * The database a backup reads or a restore writes: MONGODB_URI, or the embedded one `npm start` runs (started here on
 * the same DATA_DIR). Reached through the driver alone, with none of what the app does when it connects (creating the
 * models' collections and indexes), so a backup changes nothing and a restore finds the database as it is.
 */
import mongoose from 'mongoose';
import type { Config } from '../config';
import { withDatabaseName } from '../db/connection';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../db/embedded';

export type Db = mongoose.mongo.Db;

export interface OpenDatabase {
  db: Db;
  /** Where it is, for messages: the host and the database's name, never a password. */
  description: string;
  /** `FerretDB v1.24.2` or `MongoDB 7.0.14`. */
  server: string;
  /** The MongoDB version the server reports (FerretDB reports the one it imitates). */
  serverVersion: string;
  ferretdb: boolean;
  close(): Promise<void>;
}

/** The URI with its user and password taken out. */
function shown(uri: string): string {
  try {
    const url = new URL(uri);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return 'the configured database';
  }
}

export async function openDatabase(config: Pick<Config, 'mongodbUri' | 'dataDir' | 'dbName'>, log: (message: string) => void): Promise<OpenDatabase> {
  const embedded: EmbeddedDatabase | undefined = config.mongodbUri ? undefined : await startEmbeddedDatabase({ dataDir: config.dataDir, log });
  const uri = withDatabaseName(config.mongodbUri ?? embedded!.uri, config.dbName);
  const client = new mongoose.mongo.MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    await client.connect();
    const db = client.db();
    const info = await db.admin().command({ buildInfo: 1 });
    const serverVersion = typeof info.version === 'string' ? info.version : 'unknown';
    const ferretdb = typeof info.ferretdbVersion === 'string';
    return {
      db,
      description: `database "${db.databaseName}" on ${embedded ? `the embedded ${embedded.kind} under ${config.dataDir}` : shown(uri)}`,
      server: ferretdb ? `FerretDB ${String(info.ferretdbVersion)}` : `MongoDB ${serverVersion}`,
      serverVersion,
      ferretdb,
      close: async () => {
        await client.close();
        await embedded?.stop();
      },
    };
  } catch (err) {
    await client.close().catch(() => {});
    await embedded?.stop();
    throw err;
  }
}

/** The collections a backup holds: every collection of the database but the server's own (`system.*`), and no views. */
export async function dataCollections(db: Db): Promise<Array<{ name: string; options: Record<string, unknown>; uuid: string | undefined }>> {
  const infos = await db.listCollections({}, { nameOnly: false }).toArray();
  return infos
    .filter((info) => (info.type ?? 'collection') === 'collection' && !info.name.startsWith('system.'))
    .map((info) => {
      const uuid: unknown = (info as { info?: { uuid?: unknown } }).info?.uuid;
      return {
        name: info.name,
        options: (info as { options?: Record<string, unknown> }).options ?? {},
        // mongodump writes the collection's UUID as 32 hex digits; MongoDB gives it as binary, FerretDB as text.
        uuid:
          uuid instanceof mongoose.mongo.Binary
            ? Buffer.from(uuid.buffer).toString('hex')
            : typeof uuid === 'string'
              ? uuid.replace(/-/g, '').toLowerCase()
              : undefined,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
