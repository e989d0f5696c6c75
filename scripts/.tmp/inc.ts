import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { startEmbeddedDatabase } from '/work/main/server/db/embedded';
(async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fx-'));
  const db = await startEmbeddedDatabase({ dataDir, binDir: '/work/main/data/bin' });
  const conn = await mongoose.createConnection(db.uri, { dbName: 'fx' }).asPromise();
  const c = conn.collection('t');
  await c.insertOne({ _id: 'a' as any, n: 0, arr: [] });
  await Promise.all(Array.from({ length: 200 }, () => c.updateOne({ _id: 'a' as any }, { $inc: { n: 1 } })));
  console.log('inc result', (await c.findOne({ _id: 'a' as any }))!.n);
  try {
    await c.updateOne({ _id: 'a' as any }, { $push: { arr: { $each: [1, 2, 3], $slice: -2 } } } as any);
    console.log('push slice', (await c.findOne({ _id: 'a' as any }))!.arr);
  } catch (e) { console.log('push slice error', (e as Error).message); }
  await Promise.all(Array.from({ length: 100 }, (_, i) => c.updateOne({ _id: 'a' as any }, { $max: { m: i } })));
  console.log('max', (await c.findOne({ _id: 'a' as any }))!.m);
  await conn.close(); await db.stop(); process.exit(0);
})();
