/**
 * A member's knack window: the times of their last knacks, which tell when the next one needs the emailed
 * code (more than KNACKS_BEFORE_CODE in RECENT_WINDOW_MS, counted from their last right code).
 *
 * The window is kept as a chain of versions, each an inserted document that is never changed:
 * `{userId}|{day}|{version}`, one chain per UTC day. The next knack reads the latest version, checks the count
 * and inserts the version after it with its own time added. An insert on a unique `_id` is the one step that
 * two callers cannot both win, on MongoDB and on FerretDB alike (whose updates are read, change, write without
 * isolation): of two knacks that read the same version, anywhere, one inserts the next and the other finds it
 * taken, reads it and counts again. No lock, and no update of a shared document, in the way of a knack.
 *
 * A day's first version carries on from the previous day's last one (knacks older than that are all outside
 * the window), which keeps chains short and lets the housekeeping job delete whole old days. Each process
 * remembers the latest version it saw per chain and what it holds (a version never changes), so a knack usually
 * costs one insert: should another process have inserted that version first, the insert finds out. A process
 * that does not know a chain finds its end by doubling steps and halving, in a few reads by `_id`. What a process
 * remembers holds as long as no version of a live chain is deleted: the housekeeping job deletes only days that
 * no window reads any more, and a test that empties the collection calls forgetKnackWindows.
 *
 * The one inexactness is at the turn of a UTC day: a member's knack that started in the old day and is still
 * being inserted there while the same member's next knack starts the new day's chain is not carried over,
 * so the count may be one short for that one knack.
 */
import mongoose, { Schema, model } from 'mongoose';
import { isDuplicateKey } from '../../lib/mutex';
import { insertWhole, readById } from '../../lib/query';

/**
 * Knacks a member may make in the window before the emailed code is asked. The code is asked when the recent
 * count "exceeds 9": counting the knack being made, the 10th would make it 10, so the 10th needs it.
 */
export const KNACKS_BEFORE_CODE = 9;
export const RECENT_WINDOW_MS = 24 * 3_600_000;
const DAY_MS = 86_400_000;

const windowSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** The last KNACKS_BEFORE_CODE knack times since the last right code, oldest first. */
    recentAt: { type: [Date], default: [] },
    /** After this nothing reads the version (the day after its own has ended): the housekeeping job deletes it. */
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
windowSchema.index({ expiresAt: 1 });
export const KnackWindowModel = model<WindowVersion>('KnackWindow', windowSchema, 'knack_windows');

interface WindowVersion {
  _id: string;
  recentAt: Date[];
  expiresAt: Date;
}

/** The latest known version of a chain: its number (0 for none yet) and its knack times. */
interface Latest {
  version: number;
  recentAt: Date[];
}

const chainOf = (userId: string, day: number) => `${userId}|${day}`;
const versionId = (chain: string, version: number) => `${chain}|${version}`;

/** Per chain, the latest version this process saw and its knack times: where the next knack starts. */
const known = new Map<string, Latest>();
const CHAINS_KEPT = 10_000;
function remember(chain: string, latest: Latest): void {
  if (known.size >= CHAINS_KEPT && !known.has(chain)) known.clear();
  if (latest.version > (known.get(chain)?.version ?? 0)) known.set(chain, latest);
}

/** Forgets every chain this process knows, for tests that empty the collection under a running app. */
export function forgetKnackWindows(): void {
  known.clear();
}

const read = (chain: string, version: number) => readById<WindowVersion>(KnackWindowModel, versionId(chain, version), { recentAt: 1 });

/**
 * The latest version of a chain. Versions are numbered from 1 without gaps, so steps that double from the last
 * version known find a missing one, and halving finds the last before it. A knack trusts what this process knows
 * without reading, even that a chain has no version yet (should a newer one exist, its insert finds out); `exact`
 * looks further.
 */
async function latestOf(chain: string, exact: boolean): Promise<Latest | null> {
  let latest: Latest | null = known.get(chain) ?? null;
  if (!exact) return latest;
  let step = 1;
  let missing = 0;
  for (;;) {
    const version = (latest?.version ?? 0) + step;
    const found = await read(chain, version);
    if (!found) {
      missing = version;
      break;
    }
    latest = { version, recentAt: found.recentAt };
    step *= 2;
  }
  let low = latest?.version ?? 0;
  while (missing - low > 1) {
    const middle = Math.floor((low + missing) / 2);
    const found = await read(chain, middle);
    if (found) {
      low = middle;
      latest = { version: middle, recentAt: found.recentAt };
    } else missing = middle;
  }
  if (latest) remember(chain, latest);
  return latest;
}

const dayOf = (now: Date) => Math.floor(now.getTime() / DAY_MS);

/** The member's window as it stands for a knack at `now`: today's latest version, or what yesterday's left. */
async function currentWindow(userId: string, now: Date, exact = false): Promise<{ chain: string; version: number; recentAt: Date[] }> {
  const day = dayOf(now);
  const chain = chainOf(userId, day);
  const today = await latestOf(chain, exact);
  if (today) return { chain, ...today };
  // Read to its end: a day's chain starts from it once, and a knack made through another process since this
  // process last looked must be carried over (a new day has no later insert that would find it out).
  const yesterday = await latestOf(chainOf(userId, day - 1), true);
  return { chain, version: 0, recentAt: yesterday?.recentAt ?? [] };
}

const inWindow = (recentAt: Date[], now: Date) => recentAt.filter((at) => at.getTime() > now.getTime() - RECENT_WINDOW_MS);

/** The member's knacks in the window at `now`. */
export async function recentKnacks(userId: string, now: Date): Promise<number> {
  return inWindow((await currentWindow(userId, now, true)).recentAt, now).length;
}

/**
 * What a knack does when the window is full: throws to refuse it, resolves true to go on with a new count (the
 * right code was given), or false to leave it uncounted.
 */
export type AtLimit = () => Promise<boolean>;

/**
 * Counts a knack at `now` in the member's window, exactly once wherever it runs; false when `atLimit` left it
 * uncounted.
 */
export async function countKnack(userId: string, now: Date, atLimit: AtLimit): Promise<boolean> {
  let cleared = false;
  let exact = false;
  for (;;) {
    const { chain, version, recentAt } = await currentWindow(userId, now, exact);
    let recent = inWindow(recentAt, now);
    if (recent.length >= KNACKS_BEFORE_CODE && !exact && !cleared) {
      // Read from a hint, a newer version may have started a new count (a code given through another process):
      // before asking for the code, the window is read to its end.
      exact = true;
      continue;
    }
    if (recent.length >= KNACKS_BEFORE_CODE) {
      if (!cleared && !(await atLimit())) return false;
      cleared = true;
      recent = [];
    }
    const next = version + 1;
    try {
      const counted = [...recent, now].slice(-KNACKS_BEFORE_CODE);
      await insertWhole(KnackWindowModel, { _id: versionId(chain, next), recentAt: counted, expiresAt: new Date((dayOf(now) + 2) * DAY_MS) });
      remember(chain, { version: next, recentAt: counted });
      return true;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // Another knack of the member's inserted this version first: count again after it, read to the chain's end.
      exact = true;
    }
  }
}

/** Deletes the versions of days no window reads any more (the housekeeping job). */
export async function purgeOldWindows(now = new Date()): Promise<number> {
  const { deletedCount } = await KnackWindowModel.deleteMany({ expiresAt: mongoose.trusted({ $lte: now }) });
  return deletedCount;
}
