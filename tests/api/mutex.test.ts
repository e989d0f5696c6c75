/**
 * The one insert-based lock (server/lib/mutex.ts) on the real database: one holder at a time, a bounded wait
 * that ends in a clear 409, a lock left by a dead process taken once it expires, and a release that removes
 * only the releasing holder's own lock. Another process is played by writing its lock document, as it would.
 */
import { AppError } from '../../server/lib/errors';
import { MutexModel, purgeExpiredLocks, withLock } from '../../server/lib/mutex';
import { useTestDatabase } from '../helpers/db';

useTestDatabase();

beforeEach(async () => {
  await MutexModel.deleteMany({});
});

const later = (ms: number) => new Date(Date.now() + ms);

/** A promise and the function that settles it: work that goes on until the test says. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('withLock', () => {
  it('when another process holds the lock, then a caller waits no longer than its bound, hears 409 with its message, and its work never runs', async () => {
    await MutexModel.create({ _id: 'member:1', holder: 'other-process', expiresAt: later(60_000) });
    let ran = false;
    const started = performance.now();
    const refused = await withLock(
      'member:1',
      async () => {
        ran = true;
      },
      { waitMs: 300, busyMessage: 'Another knack of yours is still being recorded. Please try again.' },
    ).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 409, code: 'conflict', message: 'Another knack of yours is still being recorded. Please try again.' });
    expect(ran).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await MutexModel.findById('member:1').lean()).toMatchObject({ holder: 'other-process' });
  });

  it('when the other process lets go, then the waiting caller goes on and leaves no lock behind', async () => {
    await MutexModel.create({ _id: 'member:2', holder: 'other-process', expiresAt: later(60_000) });
    const waiting = withLock('member:2', async () => 'ran', { waitMs: 20_000 });
    await MutexModel.deleteOne({ _id: 'member:2', holder: 'other-process' });
    expect(await waiting).toBe('ran');
    expect(await MutexModel.countDocuments({ _id: 'member:2' })).toBe(0);
  });

  it('when a process died holding a lock, then the lock is taken once it has expired', async () => {
    await MutexModel.create({ _id: 'member:3', holder: 'crashed', expiresAt: later(-1_000) });
    expect(await withLock('member:3', async () => 'ran', { waitMs: 5_000 })).toBe('ran');
  });

  it('when a holder outlived its lock and another process took it, then the late holder’s release leaves the new lock alone', async () => {
    const theirs = later(60_000);
    await withLock('member:4', async () => {
      // Meanwhile this holder's time ran out, and another process cleared its lock and took its own.
      await MutexModel.deleteOne({ _id: 'member:4' });
      await MutexModel.create({ _id: 'member:4', holder: 'next-process', expiresAt: theirs });
    });
    expect(await MutexModel.findById('member:4').lean()).toMatchObject({ holder: 'next-process', expiresAt: theirs });
  });

  it('when 60 callers want one lock at once, then they hold it one at a time, and all of them get it', async () => {
    let inside = 0;
    let most = 0;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        withLock(
          'member:5',
          async () => {
            inside += 1;
            most = Math.max(most, inside);
            await MutexModel.exists({ _id: 'member:5' }); // some work at the database while holding it
            inside -= 1;
            return i;
          },
          { waitMs: 20_000 },
        ),
      ),
    );
    expect(answers.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(most).toBe(1);
    expect(await MutexModel.countDocuments({})).toBe(0);
  });

  it('when a caller waits in line behind a holder of this process past its bound, then it hears 409 when the bound runs out, and the holder and later callers go on', async () => {
    const work = gate();
    const holding = withLock('member:6', () => work.opened.then(() => 'first'), { waitMs: 5_000 });
    const impatient = withLock('member:6', async () => 'second', { waitMs: 100, busyMessage: 'Busy.' }).catch((err: unknown) => err);
    expect(await impatient).toMatchObject({ status: 409, message: 'Busy.' });
    const patient = withLock('member:6', async () => 'third', { waitMs: 20_000 });
    work.open();
    expect([await holding, await patient]).toEqual(['first', 'third']);
  });
});

describe('purgeExpiredLocks', () => {
  it('when dead holders left locks that nobody asks for again, then those past their expiry are deleted and held ones stay', async () => {
    await MutexModel.create([
      { _id: 'order:dead', holder: 'crashed', expiresAt: later(-1_000) },
      { _id: 'job:dead', holder: 'crashed', expiresAt: later(-60_000) },
      { _id: 'order:held', holder: 'alive', expiresAt: later(60_000) },
    ]);
    expect(await purgeExpiredLocks()).toBe(2);
    expect(await MutexModel.find({}, { _id: 1, holder: 1 }).lean()).toEqual([{ _id: 'order:held', holder: 'alive' }]);
  });
});
