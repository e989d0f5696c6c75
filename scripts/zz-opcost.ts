import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import mongoose, { Types } from 'mongoose';
import { startBenchChild } from './bench-child';
let fpid = 0;
const fcpu = () => { const f = readFileSync(`/proc/${fpid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
async function timed(name: string, n: number, conc: number, op: (i: number) => Promise<unknown>) {
  let i = 0; const t0 = process.hrtime.bigint(); const c0 = process.cpuUsage(); const f0 = fcpu();
  await Promise.all(Array.from({ length: conc }, async () => { while (i < n) { const k = i++; await op(k); } }));
  const ms = Number(process.hrtime.bigint() - t0) / 1e6; const c = process.cpuUsage(c0); const f = fcpu() - f0;
  console.log(name.padEnd(30), (n / ms * 1000).toFixed(0).padStart(6), 'ops/s  node', ((c.user + c.system) / n / 1000).toFixed(3), 'ferret', (f / n).toFixed(3), 'ms/op');
}
(async () => {
  const child = await startBenchChild('opcost');
  fpid = Number(execSync('pgrep -n ferretdb').toString().trim());
  const db = mongoose.connection;
  const c = db.collection<any>('c'); const w = db.collection<any>('w'); const u = db.collection<any>('u');
  const docs = Array.from({ length: 60 }, (_, i) => ({ _id: new Types.ObjectId(), reactedCount: 0, trendScore: 0, radarScore: 0, title: 'x'.repeat(300), description: 'y'.repeat(400), tags: [{ name: 'Photos' }], ownerId: new Types.ObjectId(), media: { a: 'images/2026/01/000000000000000000000001.jpg', b: 'images/2026/01/000000000000000000000001-thumb.webp' } }));
  await c.insertMany(docs);
  const users = Array.from({ length: 600 }, (_, i) => ({ _id: new Types.ObjectId(), email: `m${i}@x.example`, isActive: true, tokenVersion: 0, username: `m_${i}`, fullName: 'M', bio: 'z'.repeat(200) }));
  await u.insertMany(users);
  const N = 6000, C = 16;
  for (let round = 0; round < 2; round++) {
    await timed('insertOne ledger-sized', N, C, (i) => w.insertOne({ _id: `k:${round}:${i}`, kind: 'knack', at: new Date(), actorId: new Types.ObjectId(), contentId: new Types.ObjectId(), legs: [{ account: 'a', amountMicros: -1 }, { account: 'b', amountMicros: 1 }, { account: 'c', amountMicros: 0 }], accounts: ['a', 'b', 'c'], method: null, amountMicros: null, ref: null }));
    await timed('findOne content (proj)', N, C, (i) => c.findOne({ _id: docs[i % 60]!._id }, { projection: { ownerId: 1, reactedCount: 1 } }));
    await timed('findOne user (proj)', N, C, (i) => u.findOne({ _id: users[i % 600]!._id }, { projection: { email: 1, isActive: 1, tokenVersion: 1 } }));
    await timed('findOne miss (ledger-like)', N, C, (i) => w.findOne({ _id: `nope:${i}` }));
    await timed('updateOne $inc content', N, C, (i) => c.updateOne({ _id: docs[i % 60]!._id }, { $inc: { reactedCount: 1, trendScore: 1 } }));
  }
  await child.close(); process.exit(0);
})();
