/**
 * The entry of a second app process (started by second-process.ts): the app as createTestApp builds it, on the
 * test's database, in a Node process of its own, so that nothing one process keeps in memory can help the other.
 */
import type { AddressInfo } from 'node:net';
import mongoose from 'mongoose';
import '../../server/db/connection'; // the database settings the app runs with (request values never become operators)
import { localStorage } from '../../server/integrations/storage';
import { createTestApp } from './app';

async function main(): Promise<void> {
  await mongoose.connect(process.env.KNACK_SECOND_APP_DB_URI!, { serverSelectionTimeoutMS: 10_000 });
  const storageRoot = process.env.KNACK_SECOND_APP_STORAGE_ROOT;
  const server = createTestApp(storageRoot ? { storage: localStorage(storageRoot) } : {}).listen(0, '127.0.0.1', () => {
    process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  });
  // The test that started it has ended (or died): so does this process.
  process.on('disconnect', () => process.exit(0));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
