import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Types } from 'mongoose';
import pino from 'pino';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { defaultJobs, startJobs } from '../../server/jobs/scheduler';
import { createLogger } from '../../server/lib/logger';
import { MutexModel, withLease } from '../../server/lib/mutex';
import { createMediaService, mediaHousekeeping, StoredFileModel, UploadModel, uploadKeys } from '../../server/modules/media';
import { createTestApp, createTestServices, testConfig } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { waitUntil } from '../helpers/wait';
import { png, wav } from '../helpers/media';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

const root = mkdtempSync(path.join(os.tmpdir(), 'knack-jobs-test-'));
const storage = localStorage(root);
const logger = createLogger('silent');
const media = createMediaService({ storage, logger, signingSecret: testConfig().auth.keys.mediaUrls });
const housekeeping = () => mediaHousekeeping({ media, storage, logger });
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let ana: Awaited<ReturnType<typeof createActiveMember>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test'), storage });
  await seedReferenceData();
  ana = await createActiveMember(app, smtp);
});
afterAll(async () => {
  await smtp.stop();
  rmSync(root, { recursive: true, force: true });
});

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
/** Sets timestamps past mongoose (which would overwrite them). */
const age = (_id: Types.ObjectId, fields: { createdAt?: Date; updatedAt?: Date }) => UploadModel.collection.updateOne({ _id }, { $set: fields });
const bearer = () => ({ Authorization: `Bearer ${ana.token}` });

async function upload(kind: 'photo' | 'audio') {
  const res = await request(app)
    .post(`/api/v2/content/upload-${kind}`)
    .set(bearer())
    .attach('file', kind === 'photo' ? await png() : wav(2), kind === 'photo' ? 'a.png' : 'a.wav')
    .expect(201);
  return (await UploadModel.findOne({ key: res.body.path }).lean())!;
}

async function readStored(key: string): Promise<string> {
  let text = '';
  for await (const chunk of await storage.read(key)) text += String(chunk);
  return text;
}

describe('the lease', () => {
  it('when two runs start at once, then the job runs once', async () => {
    let runs = 0;
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    // The run that takes the lease holds it until the other attempt has been turned away.
    const job = async () => {
      runs++;
      await finished;
      return 'done';
    };
    const attempts = [withLease('twice', 60_000, job), withLease('twice', 60_000, job)];
    expect(await Promise.race(attempts)).toEqual({ taken: false });
    finish();
    const outcomes = await Promise.all(attempts);
    expect(runs).toBe(1);
    expect(outcomes.map((o) => o.taken).sort()).toEqual([false, true]);
    expect(outcomes.find((o) => o.taken)).toEqual({ taken: true, result: 'done' });
  });

  it('when another instance holds the lease, then the run is skipped; when it has expired, then it is taken', async () => {
    await MutexModel.create({ _id: 'held', holder: 'other', expiresAt: new Date(Date.now() + 60_000) });
    const fn = jest.fn(async () => undefined);
    expect(await withLease('held', 60_000, fn)).toEqual({ taken: false });
    expect(fn).not.toHaveBeenCalled();

    await MutexModel.create({ _id: 'expired', holder: 'crashed', expiresAt: ago(1) });
    let holder: string | undefined;
    const outcome = await withLease('expired', 60_000, async () => {
      holder = (await MutexModel.findById('expired').lean())?.holder;
    });
    expect(outcome.taken).toBe(true);
    expect(holder).toMatch(new RegExp(`:${process.pid}:`));
  });

  it('when ten callers find one expired lease at once, then exactly one of them takes it', async () => {
    for (let round = 0; round < 5; round++) {
      await MutexModel.create({ _id: `crowd:${round}`, holder: 'crashed', expiresAt: ago(1) });
      let holders = 0;
      let most = 0;
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () =>
          withLease(`crowd:${round}`, 60_000, async () => {
            most = Math.max(most, ++holders);
            await new Promise((resolve) => setImmediate(resolve));
            holders--;
          }),
        ),
      );
      // Each caller that took it ran alone; the others were turned away, or came after the holder gave it back.
      expect(most).toBe(1);
      expect(outcomes.filter((o) => o.taken).length).toBeGreaterThanOrEqual(1);
    }
  });

  it('when a run ends, even by an error, then the lease is given back and the next run takes it', async () => {
    await expect(withLease('released', 60_000, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await MutexModel.findById('released').lean()).toBeNull();
    expect(await withLease('released', 60_000, async () => 1)).toEqual({ taken: true, result: 1 });
  });

  it('when the lease expired during a run and someone else took it, then the end of the run leaves their lease alone', async () => {
    const theirs = new Date(Date.now() + 60_000);
    await withLease('overrun', 60_000, async () => {
      await MutexModel.updateOne({ _id: 'overrun' }, { $set: { holder: 'next', expiresAt: theirs } });
    });
    expect(await MutexModel.findById('overrun').lean()).toMatchObject({ holder: 'next', expiresAt: theirs });
  });
});

describe('media housekeeping: waveforms left processing', () => {
  it('when an upload is processing for over 15 minutes, then its waveform is made from the stored audio and it is ready', async () => {
    const audio = await upload('audio');
    const waveformKey = audio.waveformKey!;
    // The state a crash after the answer leaves: processing, no waveform.
    await UploadModel.collection.updateOne({ _id: audio._id }, { $set: { status: 'processing', updatedAt: ago(16) }, $unset: { waveformKey: '' } });
    await storage.delete([waveformKey]);
    await StoredFileModel.deleteOne({ _id: waveformKey });

    await housekeeping();

    const after = await UploadModel.findById(audio._id).lean();
    expect(after).toMatchObject({ status: 'ready', waveformKey });
    const peaks: number[] = JSON.parse(await readStored(waveformKey));
    expect(peaks.length).toBeGreaterThan(100);
    expect(Math.max(...peaks)).toBe(1);
    expect(await StoredFileModel.findById(waveformKey).lean()).toMatchObject({ uploadId: audio._id, contentType: 'application/json' });
  });

  it('when a crash came after the waveform was stored, on a published piece, then it still ends ready and the waveform is public', async () => {
    const audio = await upload('audio');
    await media.attach([audio], 'content:piece-2', 'public'); // what publishing a piece does
    // The waveform's object is gone but its record stays, as when a process stops between the two writes.
    await storage.delete([audio.waveformKey!]);
    await UploadModel.collection.updateOne({ _id: audio._id }, { $set: { status: 'processing', updatedAt: ago(20) }, $unset: { waveformKey: '' } });

    await housekeeping();

    expect(await UploadModel.findById(audio._id).lean()).toMatchObject({ status: 'ready', waveformKey: audio.waveformKey });
    const res = await request(app).get(`/files/${audio.waveformKey}`).expect(200); // unsigned: public
    expect(JSON.parse(res.text).length).toBeGreaterThan(100);
  });

  it('when the stored audio is gone, then the upload is marked failed; when it is processing for a short while, then it is left alone', async () => {
    const lost = await upload('audio');
    await storage.delete([lost.key]);
    await UploadModel.collection.updateOne({ _id: lost._id }, { $set: { status: 'processing', updatedAt: ago(30) } });
    const recent = await upload('audio');
    await UploadModel.collection.updateOne({ _id: recent._id }, { $set: { status: 'processing', updatedAt: ago(5) } });

    await housekeeping();

    expect((await UploadModel.findById(lost._id).lean())?.status).toBe('failed');
    expect((await UploadModel.findById(recent._id).lean())?.status).toBe('processing');
    await UploadModel.deleteOne({ _id: recent._id });
  });
});

describe('media housekeeping: unused uploads', () => {
  it('when an upload is unused for over 24 hours, then its files and records are removed; used and fresh ones stay', async () => {
    const old = await upload('photo');
    const fresh = await upload('photo');
    const avatar = await request(app)
      .post('/api/v2/user/upload-photo')
      .set(bearer())
      .attach('file', await png(), 'me.png')
      .expect(201);
    await request(app).post('/api/v2/user/update-photo').set(bearer()).send({ userId: ana.user.id, photoPath: avatar.body.path }).expect(200);
    const avatarUpload = (await UploadModel.findOne({ key: avatar.body.path }).lean())!;
    const cover = await upload('photo');
    await media.attach([cover], 'content:piece-1', 'public'); // what publishing a piece does
    const pieceUpload = (await UploadModel.findById(cover._id).lean())!;
    expect(avatarUpload.usedBy).toBe(`avatar:${ana.user.id}`);
    expect(pieceUpload.usedBy).toBe('content:piece-1');
    for (const u of [old, avatarUpload, pieceUpload]) await age(u._id, { createdAt: ago(25 * 60), updatedAt: ago(25 * 60) });
    const oldKeys = uploadKeys(old);
    expect(oldKeys).toHaveLength(5);
    expect(oldKeys.every((key) => existsSync(path.join(root, key)))).toBe(true);

    // Two runs at once (as if the lease had expired under a slow run): both harmless.
    await Promise.all([housekeeping(), housekeeping()]);

    expect(await UploadModel.findById(old._id).lean()).toBeNull();
    expect(await StoredFileModel.countDocuments({ uploadId: old._id })).toBe(0);
    expect(oldKeys.some((key) => existsSync(path.join(root, key)))).toBe(false);
    for (const kept of [fresh, avatarUpload, pieceUpload]) {
      expect(await UploadModel.findById(kept._id).lean()).toMatchObject({ key: kept.key, usedBy: kept.usedBy });
      expect(await StoredFileModel.countDocuments({ uploadId: kept._id })).toBe(5);
      expect(uploadKeys(kept).every((key) => existsSync(path.join(root, key)))).toBe(true);
    }
  });

  it('when a run stopped after marking uploads for removal, then the next run removes them', async () => {
    const marked = await upload('photo');
    await UploadModel.collection.updateOne({ _id: marked._id }, { $set: { usedBy: 'housekeeping:remove' } });
    expect(await housekeeping()).toMatchObject({ removed: 1 });
    expect(await UploadModel.findById(marked._id).lean()).toBeNull();
    expect(existsSync(path.join(root, marked.key))).toBe(false);
  });
});

describe('the scheduler', () => {
  function capture() {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    return { lines, logger: pino({ level: 'debug' }, stream) };
  }

  it('when jobs are scheduled, then each run goes through the lease, a failure is logged, and stop ends them', async () => {
    const { lines, logger: log } = capture();
    let runs = 0;
    const held: (string | undefined)[] = [];
    const scheduler = startJobs({ logger: log, storage, services: createTestServices({ storage }) }, [
      {
        name: 'every-second',
        schedule: '* * * * * *',
        leaseMs: 500,
        run: async () => (held.push((await MutexModel.findById('job:every-second').lean())?.holder), ++runs),
      },
      { name: 'always-fails', schedule: '* * * * * *', leaseMs: 500, run: async () => Promise.reject(new Error('broken')) },
    ]);
    expect(scheduler.jobs().map(({ name, schedule, status }) => ({ name, schedule, status }))).toEqual([
      { name: 'every-second', schedule: '* * * * * *', status: 'idle' },
      { name: 'always-fails', schedule: '* * * * * *', status: 'idle' },
    ]);
    // The schedule ticks each second: wait for the first done run and the first failure, however long they take.
    await waitUntil(() => runs > 0 && lines.some((l) => l.msg === 'job failed'));
    await scheduler.stop();
    expect(lines).toContainEqual(expect.objectContaining({ job: 'every-second', msg: 'job done', result: expect.any(Number) }));
    expect(lines).toContainEqual(expect.objectContaining({ job: 'always-fails', msg: 'job failed', err: expect.objectContaining({ message: 'broken' }) }));
    // Each run held the lease under the job's name while it ran, and gave it back after.
    expect(held[0]).toMatch(new RegExp(`:${process.pid}:`));
    expect(await MutexModel.findById('job:every-second').lean()).toBeNull();
    expect(scheduler.jobs().map((job) => [job.name, job.status, job.nextRunAt])).toEqual([
      ['every-second', 'destroyed', null],
      ['always-fails', 'destroyed', null],
    ]);
  });

  it('when the default jobs start, then housekeeping, rankings, payouts, the mail jobs, the outbox retries and the counts are scheduled in UTC; stop destroys every schedule', async () => {
    const scheduler = startJobs({ logger, storage, services: createTestServices({ storage }) });
    const scheduled = scheduler.jobs();
    expect(scheduled.map(({ name, schedule, status }) => ({ name, schedule, status }))).toEqual([
      { name: 'media-housekeeping', schedule: '*/10 * * * *', status: 'idle' },
      { name: 'refresh-rankings', schedule: '*/5 * * * *', status: 'idle' },
      { name: 'monthly-payouts', schedule: '0 0 1 * *', status: 'idle' },
      { name: 'payout-notices', schedule: '4-59/10 * * * *', status: 'idle' },
      { name: 'monthly-statements', schedule: '0 6 1 * *', status: 'idle' },
      { name: 'weekly-digest', schedule: '0 8 * * 1', status: 'idle' },
      { name: 'mail-outbox', schedule: '* * * * *', status: 'idle' },
      { name: 'expired-records', schedule: '7 * * * *', status: 'idle' },
      { name: 'ledger-roots', schedule: '17 * * * *', status: 'idle' },
      { name: 'ledger-balances', schedule: '* * * * *', status: 'idle' },
      { name: 'follow-repairs', schedule: '*/2 * * * *', status: 'idle' },
      { name: 'comment-repairs', schedule: '1-59/2 * * * *', status: 'idle' },
      { name: 'message-repairs', schedule: '*/2 * * * *', status: 'idle' },
      { name: 'bid-sales', schedule: '* * * * *', status: 'idle' },
      { name: 'account-deletions', schedule: '3-59/10 * * * *', status: 'idle' },
      { name: 'listing-repairs', schedule: '6-59/10 * * * *', status: 'idle' },
      { name: 'earnings-rollups', schedule: '1-59/5 * * * *', status: 'idle' },
      { name: 'admin-stats', schedule: '2-59/5 * * * *', status: 'idle' },
      { name: 'product-events', schedule: '4-59/5 * * * *', status: 'idle' },
      { name: 'sandbox-renewals', schedule: '*/15 * * * *', status: 'idle' },
    ]);
    const payoutsAt = scheduled[2]!.nextRunAt!;
    expect([payoutsAt.getUTCDate(), payoutsAt.getUTCHours(), payoutsAt.getUTCMinutes()]).toEqual([1, 0, 0]);
    expect(payoutsAt.getTime()).toBeGreaterThan(Date.now());
    expect(scheduled[1]!.nextRunAt!.getUTCMinutes() % 5).toBe(0);

    await scheduler.stop();
    expect(scheduler.jobs().map((job) => job.status)).toEqual(Array.from({ length: scheduled.length }, () => 'destroyed'));
  });
});

describe('the services the jobs run through', () => {
  it('when the jobs are given the services the app was built with, then each job runs through those same services, not copies of its own', async () => {
    const services = createTestServices({ storage });
    const runMonthly = jest.spyOn(services.payouts, 'runMonthly');
    const finishStalledDeletions = jest.spyOn(services.account, 'finishStalledDeletions');
    const ledgerRoots = jest.spyOn(services.anchors, 'run');
    const jobs = defaultJobs({ logger, storage, services });
    await jobs.find((job) => job.name === 'monthly-payouts')!.run();
    await jobs.find((job) => job.name === 'account-deletions')!.run();
    await jobs.find((job) => job.name === 'ledger-roots')!.run();
    expect(runMonthly).toHaveBeenCalledTimes(1);
    expect(finishStalledDeletions).toHaveBeenCalledTimes(1);
    expect(ledgerRoots).toHaveBeenCalledTimes(1);
  });
});
