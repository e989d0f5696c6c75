/**
 * A member's knack window: the times of their last knacks, which tell when the next one needs the emailed
 * code (more than KNACKS_BEFORE_CODE in RECENT_WINDOW_MS, counted from their last right code).
 *
 * The window is kept as a numbered chain of versions (lib/numbered-chain.ts), each an inserted document that is
 * never changed: `{userId}|{day}|{version}`, one chain per UTC day. The next knack takes the latest version, checks
 * the count and inserts the version after it with its own time added. Of two knacks that took the same version,
 * anywhere, one inserts the next and the other finds it taken, reads it and counts again. No lock, and no update
 * of a shared document, in the way of a knack; and as each process remembers the latest version it saw, a knack
 * usually costs one insert.
 *
 * A day's first version carries on from the previous day's last one (knacks older than that are all outside
 * the window), which keeps chains short and lets the housekeeping job delete whole old days, which no window
 * reads any more.
 *
 * The one inexactness is at the turn of a UTC day: a member's knack that started in the old day and is still
 * being inserted there while the same member's next knack starts the new day's chain is not carried over,
 * so the count may be one short for that one knack.
 */
import mongoose, { Schema, model } from 'mongoose';
import { numberedChains } from '../../lib/numbered-chain';

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

/** The window's versions: chain `{userId}|{day}`, each version `{chain}|{n}` (lib/numbered-chain.ts). */
const versions = numberedChains<Pick<WindowVersion, 'recentAt'>>(KnackWindowModel, { separator: '|', projection: { recentAt: 1 } });

const chainOf = (userId: string, day: number) => `${userId}|${day}`;

/** Forgets every chain this process knows, for tests that empty the collection under a running app. */
export const forgetKnackWindows = versions.forget;

const dayOf = (now: Date) => Math.floor(now.getTime() / DAY_MS);

/** The member's window as it stands for a knack at `now`: today's latest version, or what yesterday's left. */
async function currentWindow(userId: string, now: Date, exact = false): Promise<{ chain: string; version: number; recentAt: Date[] }> {
  const day = dayOf(now);
  const chain = chainOf(userId, day);
  const today = await versions.end(chain, exact);
  if (today.doc) return { chain, version: today.n, recentAt: today.doc.recentAt };
  // Read to its end: a day's chain starts from it once, and a knack made through another process since this
  // process last looked must be carried over (a new day has no later insert that would find it out).
  const yesterday = await versions.end(chainOf(userId, day - 1), true);
  return { chain, version: 0, recentAt: yesterday.doc?.recentAt ?? [] };
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
    const counted = [...recent, now].slice(-KNACKS_BEFORE_CODE);
    if (await versions.insertAt(chain, version + 1, { recentAt: counted, expiresAt: new Date((dayOf(now) + 2) * DAY_MS) })) return true;
    // Another knack of the member's inserted this version first: count again after it, read to the chain's end.
    exact = true;
  }
}

/** Deletes the versions of days no window reads any more (the housekeeping job). */
export async function purgeOldWindows(now = new Date()): Promise<number> {
  const { deletedCount } = await KnackWindowModel.deleteMany({ expiresAt: mongoose.trusted({ $lte: now }) });
  return deletedCount;
}
