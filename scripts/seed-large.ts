/**
 * `npm run seed:large -- [--scale 0.1] [--members n] [--pieces n] [--ledger n] [--follows n] [--comments n]
 * [--messages n] [--now yyyy-mm-dd] [--no-demo]`: a large data set, built in minutes, for measuring what grows with
 * the data (scripts/bench-scale.ts, docs/scaling.md). At scale 1: 100,000 members, 100,000 pieces, 1,000,000
 * ledger entries, 500,000 follows, 200,000 comments and 100,000 messages, with the skew of a real catalogue: a few
 * artists own many pieces, get most of the knacks and have most of the followers.
 *
 * Where: the database `npm start` uses (MONGODB_URI, or the embedded one under DATA_DIR, named DB_NAME). It goes on
 * top of the demo data: on an empty catalogue the reference data and the demo are seeded first, as `npm start` does,
 * so the demo members (nora_vale...) sign in as usual, and the large pieces show the demo pieces' pictures and songs
 * (a large piece shares the stored files of a demo piece of its kind: the set is for reading, and deleting one of its
 * pieces would delete that demo piece's files too). With `--no-demo`, or when the demo pieces are absent, pieces name
 * placeholder files that are not stored (every JSON answer is whole; pictures do not load).
 *
 * What it writes: only the facts, as the modules write them, and the documents a fact needs: members (with the
 * demo password), pieces, ledger entries (`knack:{contentId}:{userId}` with the knack's legs at its tag's price, a
 * `listing:{contentId}` fee for each monetized piece, `payout:{userId}:{yyyy-mm}` for members whose balance reached
 * the payout minimum before this month, with its payout record and the member's PayPal address), follows
 * `{followerId}:{followedId}`, comments and shares as numbered chains `{contentId}-{n}`, and message threads (their
 * messages `{threadId}-{n}` and each member's box). The totals kept on members and pieces (pieces listed, followers,
 * followings, reactions, comments, the week's trend, the radar score) are written equal to these facts. Then every
 * registered kept state is rebuilt (server/jobs/kept-states.ts), so the kept documents come from the product's own
 * code. Documents go straight through the driver in batches of BATCH, `ordered: false`, each built by its model
 * (defaults and casting as the app stores them).
 *
 * Deterministic: the same options (and `--now`, default today 00:00 UTC) make the same documents, ids included; a
 * second run on the same database inserts nothing new (every `_id` is taken).
 */
import { Types, type Collection } from 'mongoose';
import { loadConfig } from '../server/config';
import { connectDatabase } from '../server/db/connection';
import { DEMO_PASSWORD, seedDemoContent } from '../server/db/demo';
import { seedReferenceData } from '../server/db/seed';
import { createIpfsPinning } from '../server/integrations/ipfs';
import { createMailer } from '../server/integrations/mail';
import { createStorage } from '../server/integrations/storage';
import { keptStates } from '../server/jobs/kept-states';
import { isKeptStateMarked, rebuildKeptState } from '../server/lib/kept-state';
import { utcDayOf } from '../server/lib/calendar';
import { isDuplicateKey } from '../server/lib/duplicate-key';
import { LISTING_FEES, PREMIUM_KNACK_MICROS } from '../server/lib/listing-fees';
import { createLogger } from '../server/lib/logger';
import { knackPriceMicros, truncateToCents } from '../server/lib/money';
import { slugOf, wordsOf } from '../server/lib/search';
import { buildServices } from '../server/services';
import { CommentModel } from '../server/modules/comments';
import { ContentModel, radarScoreOf } from '../server/modules/contents';
import { FollowModel } from '../server/modules/follows';
import { LedgerEntryModel, knackKey, storeImportedEntries, type LedgerEntryDoc, type LedgerLeg } from '../server/modules/ledger';
import { BoxModel, MessageModel, ThreadModel } from '../server/modules/messages';
import { TagModel, type TagDoc } from '../server/modules/tags';
import { UserExtModel, UserModel } from '../server/modules/users';
import { MIN_PAYOUT_MICROS, PayoutSendModel, payoutFee, payoutKey, type PayoutFees } from '../server/modules/wallet';
import bcrypt from 'bcrypt';

/** How many of each kind at scale 1. */
export const FULL_SIZES = { members: 100_000, pieces: 100_000, ledger: 1_000_000, follows: 500_000, comments: 200_000, messages: 100_000 };
export type Sizes = typeof FULL_SIZES;
export type Kind = keyof Sizes;

/** Documents per insertMany. */
const BATCH = 2_000;
const DAY_MS = 86_400_000;
/** One in this many ledger entries is a monthly payout (at most: only members over the minimum are paid). */
const PAYOUT_SHARE = 0.005;
/** Of the members, this share are artists (they own every piece); the others only listen, follow and write. */
const ARTIST_SHARE = 0.2;
/** The larger, the more a few artists own, are knacked and are followed (rank = n * u^SKEW for a uniform u). */
const SKEW = 3;
/** The payout provider's fees when the configuration is not at hand (the defaults of PAYOUT_FEE_PERCENT and PAYOUT_FEE_MAX_USD). */
const DEFAULT_FEES: PayoutFees = { feeBasisPoints: 200, feeMaxMicros: 1_000_000 };

export interface LargeOptions {
  sizes: Sizes;
  /** The time the data set is built as of (its newest facts are before it). */
  now: Date;
  seed?: number;
  payoutFees?: PayoutFees;
  /** Told of each step: its name, how many documents and how long it took. */
  log?: (line: string) => void;
}

export interface LargeReport {
  /** Documents inserted per collection (those already there not counted). */
  inserted: Record<string, number>;
  /** Seconds per step. */
  seconds: Record<string, number>;
}

/** The sizes at a scale, each overridable. */
export function sizesAt(scale: number, overrides: Partial<Sizes> = {}): Sizes {
  const scaled = Object.fromEntries(Object.entries(FULL_SIZES).map(([kind, full]) => [kind, Math.max(1, Math.round(full * scale))])) as Sizes;
  return { ...scaled, ...overrides };
}

/** sfc32: a small, fast PRNG with a 128-bit state, seeded from one number; answers [0, 1). */
export function prng(seed: number): () => number {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88 + seed;
  let c = 0xb7e15162;
  let d = seed ^ 0xdeadbeef;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  return next;
}

const FIRST_NAMES = [
  'Ana',
  'Ben',
  'Chloe',
  'Diego',
  'Elif',
  'Farah',
  'Gus',
  'Hana',
  'Ivan',
  'Jade',
  'Kofi',
  'Lena',
  'Marco',
  'Nia',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Umar',
  'Vera',
  'Wes',
  'Xin',
  'Yara',
  'Zoe',
];
const LAST_NAMES = [
  'Silva',
  'Novak',
  'Okafor',
  'Lind',
  'Moreno',
  'Sato',
  'Kowalski',
  'Haddad',
  'Nguyen',
  'Costa',
  'Berg',
  'Ibrahim',
  'Rossi',
  'Tanaka',
  'Dubois',
  'Mensah',
];
const ADJECTIVES = [
  'Blue',
  'Quiet',
  'Golden',
  'Electric',
  'Late',
  'Wild',
  'Paper',
  'Silver',
  'Neon',
  'Slow',
  'Hidden',
  'Bright',
  'Velvet',
  'Northern',
  'Broken',
  'Warm',
];
const NOUNS = [
  'Harbour',
  'River',
  'Night',
  'Garden',
  'City',
  'Dream',
  'Rain',
  'Light',
  'Forest',
  'Signal',
  'Tide',
  'Canyon',
  'Window',
  'Echo',
  'Orbit',
  'Meadow',
];
const COMMENT_TEXTS = [
  'Love this!',
  'So good, on repeat.',
  'The colours are amazing.',
  'This made my day.',
  'Beautiful work.',
  'Wow, the detail here.',
  'Instant favourite.',
  'Can not stop listening.',
];
const MESSAGE_TEXTS = [
  'Hi! I love your work.',
  'Thanks so much!',
  'Would you do a commission?',
  'When is your next piece coming?',
  'Sure, let us talk.',
  'That sounds great.',
  'Just sent you the details.',
];
const SUBJECTS = ['Hello', 'Your latest piece', 'Commission', 'Collaboration?', 'Thank you', 'A question'];

/**
 * A deterministic ObjectId: its time is `at` (so ids sort as the documents were made, as the app's do), then a byte
 * naming the kind and a counter, which no id the app makes (random bytes, then its process counter) is likely to equal.
 */
function idAt(at: number, kind: number, n: number): Types.ObjectId {
  const hex =
    Math.floor(at / 1000)
      .toString(16)
      .padStart(8, '0') +
    'ee' +
    kind.toString(16).padStart(2, '0') +
    n.toString(16).padStart(12, '0');
  return new Types.ObjectId(hex);
}

/** A model as the seed writes through it: documents built by it (defaults, casting), stored by its collection. */
type Stored = { new (doc: unknown): { toObject(options: object): unknown }; collection: Collection };

/** Writes documents in batches, `ordered: false`; a document whose `_id` (or unique key) is taken is skipped. */
async function insertAll(model: Stored, docs: Iterable<Record<string, unknown>>, build = true): Promise<number> {
  let inserted = 0;
  let batch: Record<string, unknown>[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const stored = build ? batch.map((doc) => new model(doc).toObject({ depopulate: true, versionKey: false })) : batch;
    batch = [];
    try {
      inserted += (await model.collection.insertMany(stored as never[], { ordered: false })).insertedCount;
    } catch (err) {
      const result = err as { insertedCount?: number; writeErrors?: unknown; result?: { insertedCount?: number } };
      const errors = Array.isArray(result.writeErrors) ? result.writeErrors : [result.writeErrors ?? err];
      if (!errors.every((e) => isDuplicateKey(e) || (e as { code?: number }).code === 11000)) throw err;
      inserted += result.insertedCount ?? result.result?.insertedCount ?? 0;
    }
  };
  for (const doc of docs) {
    batch.push(doc);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return inserted;
}

interface PieceMedia {
  photoUploadId: Types.ObjectId;
  audioUploadId: Types.ObjectId | null;
  media: Record<string, unknown>;
}

/** The media of the demo pieces of a kind, which the large pieces share; a placeholder when there is none. */
async function mediaOf(type: 'music' | 'art' | 'photos'): Promise<PieceMedia[]> {
  const found = await ContentModel.find({ type }, { photoUploadId: 1, audioUploadId: 1, media: 1 }).limit(20).lean();
  if (found.length) return found.map((piece) => ({ photoUploadId: piece.photoUploadId, audioUploadId: piece.audioUploadId ?? null, media: piece.media }));
  const music = type === 'music';
  return [
    {
      photoUploadId: idAt(0, 0xff, type.length),
      audioUploadId: music ? idAt(0, 0xfe, type.length) : null,
      media: {
        photoKey: `images/large/placeholder-${type}.jpg`,
        thumbKeys: {
          thumb: `images/large/placeholder-${type}-thumb.jpg`,
          mthumb: `images/large/placeholder-${type}-mthumb.jpg`,
          hthumb: `images/large/placeholder-${type}-hthumb.jpg`,
          wthumb: `images/large/placeholder-${type}-wthumb.jpg`,
        },
        audioKey: music ? 'audio/large/placeholder.wav' : null,
        waveformKey: music ? 'waveforms/large/placeholder.json' : null,
        duration: music ? 180 : null,
        fileName: music ? 'song.wav' : 'picture.jpg',
        fileSize: music ? 1_000_000 : 200_000,
        fileType: music ? 'audio/wav' : 'image/jpeg',
        status: 'ready',
      },
    },
  ];
}

/** Ledger entry as the ledger's `post` stores it: the accounts of its legs, which sum to zero. */
function entry(doc: Omit<LedgerEntryDoc, 'accounts'>): LedgerEntryDoc {
  if (doc.legs.reduce((sum, leg) => sum + leg.amountMicros, 0) !== 0) throw new RangeError(`${doc._id}: legs must sum to zero`);
  return { method: null, amountMicros: null, ref: null, ...doc, accounts: [...new Set(doc.legs.map((leg) => leg.account))] };
}

const userAccount = (id: string) => `user:${id}`;

/** The legs of a knack, as the ledger's knackLegs makes them (10% to a supporter who paid the listing). */
function knackLegs(valueMicros: number, ownerId: string, payerId: string | null): LedgerLeg[] {
  if (valueMicros === 0) return [];
  const payerShare = payerId && payerId !== ownerId ? Math.floor(valueMicros / 10) : 0;
  return [
    { account: 'platform:knacks', amountMicros: -valueMicros },
    { account: userAccount(ownerId), amountMicros: valueMicros - payerShare },
    ...(payerShare ? [{ account: userAccount(payerId!), amountMicros: payerShare }] : []),
  ];
}

/** Builds the large data set into the connected database (see the top of this file). */
export async function buildLargeDataSet({ sizes, now: asOf, seed = 40, payoutFees = DEFAULT_FEES, log = () => {} }: LargeOptions): Promise<LargeReport> {
  const now = asOf.getTime();
  const random = prng(seed);
  const between = (from: number, to: number) => from + Math.floor(random() * Math.max(0, to - from));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  /** 0 most of the time for a few, the higher ranks ever rarer: the skew of fame. */
  const skewed = (n: number) => Math.min(n - 1, Math.floor(n * random() ** SKEW));
  const report: LargeReport = { inserted: {}, seconds: {} };
  const step = async (name: string, run: () => Promise<number>) => {
    const started = Date.now();
    const count = await run();
    const seconds = (Date.now() - started) / 1000;
    report.inserted[name] = (report.inserted[name] ?? 0) + count;
    report.seconds[name] = (report.seconds[name] ?? 0) + seconds;
    log(`${name}: ${count.toLocaleString('en')} inserted in ${seconds.toFixed(1)} s (${Math.round(count / Math.max(seconds, 0.001)).toLocaleString('en')}/s)`);
  };

  // Tags: the pieces go under the reference sub-tags of Music, Art and Photos.
  const tags = await TagModel.find({}).lean<TagDoc[]>();
  const mains = tags.filter((tag) => !tag.parentTag);
  const subTags = tags.filter((tag) => tag.parentTag && mains.some((main) => main._id.equals(tag.parentTag)));
  if (!subTags.length) throw new Error('No tags: seed the reference data first (npm run seed).');
  const mainOf = (sub: TagDoc) => mains.find((main) => main._id.equals(sub.parentTag))!;
  const media = { music: await mediaOf('music'), art: await mediaOf('art'), photos: await mediaOf('photos') };

  // Members: the first ARTIST_SHARE of them are the artists, the lower the number the more famous.
  const memberCount = sizes.members;
  const artistCount = Math.max(1, Math.round(memberCount * ARTIST_SHARE));
  const memberIds: string[] = [];
  const memberAt = new Float64Array(memberCount);
  const usernames: string[] = [];
  const fullNames: string[] = [];
  for (let m = 0; m < memberCount; m++) {
    memberAt[m] = now - between(30 * DAY_MS, 730 * DAY_MS);
    memberIds.push(idAt(memberAt[m]!, 1, m).toHexString());
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    fullNames.push(`${first} ${last}`);
    usernames.push(`${first}_${last}_${m + 1}`.toLowerCase());
  }

  // Pieces: owners by fame, a sub-tag each, monetized mostly by the famous.
  const pieceCount = sizes.pieces;
  const pieceOwner = new Int32Array(pieceCount);
  const pieceTag = new Int32Array(pieceCount);
  const pieceAt = new Float64Array(pieceCount);
  const piecePayer = new Int32Array(pieceCount).fill(-1);
  const pieceListed = new Uint8Array(pieceCount);
  const pieceIds: string[] = [];
  const piecesOfArtist = new Map<number, number[]>();
  for (let p = 0; p < pieceCount; p++) {
    const owner = skewed(artistCount);
    pieceOwner[p] = owner;
    pieceTag[p] = Math.floor(random() * subTags.length);
    pieceAt[p] = between(memberAt[owner]!, now - 60_000);
    pieceListed[p] = random() < 0.97 ? 1 : 0;
    const famous = owner < Math.max(1, artistCount * 0.01);
    if (random() < (famous ? 0.9 : 0.3)) piecePayer[p] = random() < 0.9 ? owner : Math.floor(random() * memberCount);
    pieceIds.push(idAt(pieceAt[p]!, 2, p).toHexString());
    let list = piecesOfArtist.get(owner);
    if (!list) piecesOfArtist.set(owner, (list = []));
    list.push(p);
  }
  const artistsWithPieces = [...piecesOfArtist.keys()].sort((a, b) => a - b);
  const valueOf = (p: number) => knackPriceMicros(subTags[pieceTag[p]!]!.priceMicros);
  const listingAt = (p: number) => Math.min(now - 1, pieceAt[p]! + 10 * 60_000);
  /** A piece by the fame of its artist: the famous artists' pieces get most of the knacks and comments. */
  const popularPiece = () => {
    const pieces = piecesOfArtist.get(artistsWithPieces[skewed(artistsWithPieces.length)]!)!;
    return pieces[Math.floor(random() * pieces.length)]!;
  };
  /** A member by the fame of artists: who gets followed and written to. */
  const famousMember = () => skewed(artistCount);

  /** Draws `count` distinct pairs (a, b) with a != b; each draw tries `draw` a few times, then any free pair. */
  const distinctPairs = (count: number, bound: number, taken: Set<number>, draw: () => [number, number], valid: (a: number, b: number) => boolean) => {
    const pairs: [number, number][] = [];
    for (let made = 0; made < count; made++) {
      let pair: [number, number] | null = null;
      for (let attempt = 0; attempt < 50 && !pair; attempt++) {
        const [a, b] = draw();
        if (valid(a, b) && !taken.has(a * bound + b)) pair = [a, b];
      }
      if (!pair) throw new Error(`Too few distinct pairs for ${count.toLocaleString('en')}: raise the members or the pieces.`);
      taken.add(pair[0] * bound + pair[1]);
      pairs.push(pair);
    }
    return pairs;
  };

  // Knacks: (piece, member) pairs, at most one per member per piece, never one's own piece.
  const knackPairs = new Set<number>();
  const knacks: { piece: number; member: number; at: number }[] = [];
  const addKnacks = (count: number, notBefore: number) => {
    for (const [piece, member] of distinctPairs(
      count,
      memberCount,
      knackPairs,
      () => [popularPiece(), Math.floor(random() * memberCount)],
      (p, m) => pieceOwner[p] !== m,
    )) {
      const from = Math.max(pieceAt[piece]!, memberAt[member]!, piecePayer[piece]! >= 0 ? listingAt(piece) : 0, notBefore);
      knacks.push({ piece, member, at: between(from, now) });
    }
  };
  const monetized = [...Array(pieceCount).keys()].filter((p) => piecePayer[p]! >= 0);
  const payoutTarget = Math.round(sizes.ledger * PAYOUT_SHARE);
  const knackTarget = sizes.ledger - monetized.length - payoutTarget;
  if (knackTarget < 0) throw new Error(`The ledger (${sizes.ledger}) is smaller than the listing fees of the monetized pieces (${monetized.length}).`);
  addKnacks(knackTarget, 0);

  // Payouts: on the 1st of this month, of the balances over the minimum earned before it (the largest first).
  const payoutAt = Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), 1);
  const earnedBefore = new Map<number, number>();
  const credit = (member: number, micros: number) => earnedBefore.set(member, (earnedBefore.get(member) ?? 0) + micros);
  for (const knack of knacks) {
    if (knack.at >= payoutAt || piecePayer[knack.piece]! < 0) continue;
    const value = valueOf(knack.piece);
    const owner = pieceOwner[knack.piece]!;
    const payer = piecePayer[knack.piece]!;
    const payerShare = payer !== owner && value ? Math.floor(value / 10) : 0;
    credit(owner, value - payerShare);
    if (payerShare) credit(payer, payerShare);
  }
  const payees = [...earnedBefore]
    .map(([member, micros]) => ({ member, amount: truncateToCents(micros) }))
    .filter(({ amount }) => amount >= MIN_PAYOUT_MICROS)
    .sort((a, b) => b.amount - a.amount || a.member - b.member)
    .slice(0, payoutTarget);
  // Fewer members over the minimum than payouts asked: the rest of the ledger is knacks, after the payouts.
  if (payees.length < payoutTarget) addKnacks(payoutTarget - payees.length, payoutAt);

  // Follows: most to the famous artists, some between listeners.
  const followPairs = distinctPairs(
    sizes.follows,
    memberCount,
    new Set<number>(),
    () => [Math.floor(random() * memberCount), random() < 0.9 ? famousMember() : Math.floor(random() * memberCount)],
    (a, b) => a !== b,
  );

  // Totals kept on pieces and members, counted from the facts as the rankings job counts them.
  const trendFrom = utcDayOf(new Date(now - 6 * DAY_MS));
  const reacted = new Int32Array(pieceCount);
  const week = new Int32Array(pieceCount);
  for (const knack of knacks) {
    reacted[knack.piece] = reacted[knack.piece]! + 1;
    if (utcDayOf(new Date(knack.at)) >= trendFrom) week[knack.piece] = week[knack.piece]! + 1;
  }
  const followers = new Int32Array(memberCount);
  const followings = new Int32Array(memberCount);
  for (const [follower, followed] of followPairs) {
    followers[followed] = followers[followed]! + 1;
    followings[follower] = followings[follower]! + 1;
  }
  const listedCount = new Int32Array(memberCount);
  const ownerWeek = new Int32Array(memberCount);
  for (let p = 0; p < pieceCount; p++) {
    const owner = pieceOwner[p]!;
    listedCount[owner] = listedCount[owner]! + pieceListed[p]!;
    ownerWeek[owner] = ownerWeek[owner]! + week[p]!;
  }
  const commentsOf = new Int32Array(pieceCount);
  const commentPieces: number[] = [];
  for (let c = 0; c < sizes.comments; c++) {
    const piece = popularPiece();
    commentPieces.push(piece);
    commentsOf[piece] = commentsOf[piece]! + 1;
  }

  log(`planned in memory: ${memberCount} members, ${pieceCount} pieces, ${knacks.length + monetized.length + payees.length} ledger entries`);
  const passwordHash = await bcrypt.hash(DEMO_PASSWORD, 10);

  await step('users', () =>
    insertAll(
      UserModel,
      (function* () {
        for (let m = 0; m < memberCount; m++) {
          const [firstName, lastName] = fullNames[m]!.split(' ') as [string, string];
          const at = new Date(memberAt[m]!);
          yield {
            _id: new Types.ObjectId(memberIds[m]),
            email: `${usernames[m]}@large.knack.example`,
            username: usernames[m],
            firstName,
            lastName,
            fullName: fullNames[m],
            passwordHash,
            isActive: true,
            bio: m < artistCount ? `${pick(ADJECTIVES)} ${pick(NOUNS).toLowerCase()} and more.` : '',
            contentsCount: listedCount[m],
            followersCount: followers[m],
            followingsCount: followings[m],
            trendScore: ownerWeek[m],
            searchWords: wordsOf(usernames[m]!, fullNames[m]!),
            createdAt: at,
            updated: at,
          };
        }
      })(),
    ),
  );

  await step('contents', () =>
    insertAll(
      ContentModel,
      (function* () {
        for (let p = 0; p < pieceCount; p++) {
          const owner = pieceOwner[p]!;
          const sub = subTags[pieceTag[p]!]!;
          const main = mainOf(sub);
          const title = `${pick(ADJECTIVES)} ${pick(NOUNS)} ${p + 1}`;
          const uploadedAt = new Date(pieceAt[p]!);
          const shared = pick(media[main.type]);
          const payer = piecePayer[p]!;
          const listed = pieceListed[p] === 1;
          yield {
            _id: new Types.ObjectId(pieceIds[p]),
            ownerId: new Types.ObjectId(memberIds[owner]),
            ownerUsername: usernames[owner],
            ownerName: fullNames[owner],
            payerId: payer >= 0 ? new Types.ObjectId(memberIds[payer]) : null,
            title,
            slug: slugOf(title),
            titleWords: wordsOf(title),
            description: `${title}, by ${fullNames[owner]}.`,
            tags: [{ name: main.label }],
            subTag: sub.label,
            type: main.type,
            ...shared,
            isPaidOut: payer >= 0,
            setting: listed ? {} : { public: false, private: true },
            knackRateMicros: valueOf(p),
            reactedCount: reacted[p],
            commentsCount: commentsOf[p],
            listed,
            featureRank: uploadedAt.getTime(),
            trendScore: week[p],
            radarScore: radarScoreOf(uploadedAt, followers[owner]!, week[p]!, asOf),
            uploadedAt,
            updatedAt: uploadedAt,
          };
        }
      })(),
    ),
  );

  // The ledger's entries, stored in the ledger's order (time, then key) with their journal slots, numbered as
  // `post` numbers them: the journal's rebuild then has nothing to number (it would update each entry).
  const byCard = monetized.map((p) => piecePayer[p] !== pieceOwner[p] || random() < 0.6);
  const listingEntry = (i: number) => {
    const p = monetized[i]!;
    const fee = valueOf(p) >= PREMIUM_KNACK_MICROS ? LISTING_FEES.premium : LISTING_FEES.standard;
    const method = byCard[i] ? 'card' : fee === LISTING_FEES.premium ? 'premium-credit' : 'standard-credit';
    return entry({
      _id: `listing:${pieceIds[p]}`,
      kind: 'listing',
      at: new Date(listingAt(p)),
      actorId: new Types.ObjectId(memberIds[piecePayer[p]!]),
      contentId: new Types.ObjectId(pieceIds[p]),
      method,
      amountMicros: fee,
      ref: byCard[i] ? `large-payment-${p + 1}` : null,
      legs: [
        { account: byCard[i] ? 'external:payments' : 'platform:credits', amountMicros: -fee },
        { account: 'platform:fees', amountMicros: fee },
      ],
    });
  };
  const knackEntry = (i: number) => {
    const { piece, member, at } = knacks[i]!;
    const payer = piecePayer[piece]!;
    const value = payer >= 0 ? valueOf(piece) : 0;
    return entry({
      _id: knackKey(pieceIds[piece], memberIds[member]),
      kind: 'knack',
      at: new Date(at),
      actorId: new Types.ObjectId(memberIds[member]),
      contentId: new Types.ObjectId(pieceIds[piece]),
      legs: knackLegs(value, memberIds[pieceOwner[piece]!]!, payer >= 0 ? memberIds[payer]! : null),
      tagId: subTags[pieceTag[piece]!]!._id,
    });
  };
  const payoutEntry = (i: number) => {
    const { member, amount } = payees[i]!;
    const fee = payoutFee(amount, payoutFees);
    return entry({
      _id: payoutKey(memberIds[member]!, new Date(payoutAt)),
      kind: 'payout',
      at: new Date(payoutAt),
      actorId: new Types.ObjectId(memberIds[member]),
      contentId: null,
      amountMicros: amount,
      ref: null,
      legs: [
        { account: userAccount(memberIds[member]!), amountMicros: -amount },
        { account: 'external:payouts', amountMicros: amount - fee },
        ...(fee ? [{ account: 'platform:fees', amountMicros: fee }] : []),
      ],
    });
  };
  const makers = [listingEntry, knackEntry, payoutEntry];
  const ledgerOrder = [
    ...monetized.map((p, i) => ({ at: listingAt(p), id: `listing:${pieceIds[p]}`, make: 0, i })),
    ...knacks.map(({ piece, member, at }, i) => ({ at, id: knackKey(pieceIds[piece], memberIds[member]), make: 1, i })),
    ...payees.map(({ member }, i) => ({ at: payoutAt, id: payoutKey(memberIds[member]!, new Date(payoutAt)), make: 2, i })),
  ].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // A second run with the same options finds its entries stored: it stores none (their slots would stand for nothing).
  const storedBefore = ledgerOrder.length > 0 && (await LedgerEntryModel.exists({ _id: ledgerOrder[0]!.id })) !== null;
  await step('ledger_entries', async () =>
    storedBefore
      ? 0
      : storeImportedEntries(
          (function* () {
            for (const { make, i } of ledgerOrder) yield makers[make]!(i);
          })(),
        ),
  );

  // What a payout needs besides its entry: the member's PayPal address it went to, and its sent record.
  await step('user_exts', () =>
    insertAll(
      UserExtModel,
      payees.map(({ member }) => ({
        _id: idAt(memberAt[member]!, 3, member),
        userId: new Types.ObjectId(memberIds[member]),
        paypal: `${usernames[member]}@large.knack.example`,
        createdAt: new Date(memberAt[member]!),
        updatedAt: new Date(memberAt[member]!),
      })),
    ),
  );
  await step('payout_sends', () =>
    insertAll(
      PayoutSendModel,
      payees.map(({ member, amount }) => {
        const fee = payoutFee(amount, payoutFees);
        return {
          _id: payoutKey(memberIds[member]!, new Date(payoutAt)),
          kind: 'payout',
          userId: new Types.ObjectId(memberIds[member]),
          requestId: null,
          email: `${usernames[member]}@large.knack.example`,
          amountMicros: amount,
          feeMicros: fee,
          sentMicros: amount - fee,
          status: 'sent',
          attempts: 1,
          providerRef: `large-payout-${member + 1}`,
          at: new Date(payoutAt),
          sentAt: new Date(payoutAt),
        };
      }),
    ),
  );

  await step('follows', () =>
    insertAll(
      FollowModel,
      (function* () {
        for (const [follower, followed] of followPairs) {
          yield {
            _id: `${memberIds[follower]}:${memberIds[followed]}`,
            followerId: new Types.ObjectId(memberIds[follower]),
            followedId: new Types.ObjectId(memberIds[followed]),
            at: new Date(between(Math.max(memberAt[follower]!, memberAt[followed]!), now)),
          };
        }
      })(),
      false,
    ),
  );

  await step('comments', () =>
    insertAll(
      CommentModel,
      (function* () {
        const numberOf = new Int32Array(pieceCount);
        for (const piece of commentPieces) {
          const owner = pieceOwner[piece]!;
          let commentor = Math.floor(random() * memberCount);
          if (commentor === owner) commentor = (commentor + 1) % memberCount;
          const share = random() < 0.1;
          const music = subTags[pieceTag[piece]!]!.type === 'music';
          numberOf[piece] = numberOf[piece]! + 1;
          yield {
            _id: `${pieceIds[piece]}-${numberOf[piece]}`,
            kind: share ? 'share' : 'comment',
            contentId: new Types.ObjectId(pieceIds[piece]),
            ownerId: new Types.ObjectId(memberIds[owner]),
            commentorId: new Types.ObjectId(memberIds[commentor]),
            text: share ? '' : pick(COMMENT_TEXTS),
            atSeconds: !share && music && random() < 0.5 ? Math.floor(random() * 120) : null,
            sharedCommentId: null,
            at: new Date(between(Math.max(pieceAt[piece]!, memberAt[commentor]!), now)),
            removedAt: null,
          };
        }
      })(),
      false,
    ),
  );

  // Messages: threads of 1 to 8 messages between a member and (mostly) an artist, each side with its box.
  const threads: { id: string; subject: string; a: number; b: number; messages: { from: number; at: number; text: string }[] }[] = [];
  for (let left = sizes.messages, t = 0; left > 0; t++) {
    const a = Math.floor(random() * memberCount);
    let b = random() < 0.6 ? famousMember() : Math.floor(random() * memberCount);
    if (b === a) b = (a + 1) % memberCount;
    const length = Math.min(left, 1 + Math.floor(random() ** 2 * 8));
    left -= length;
    let at = between(Math.max(memberAt[a]!, memberAt[b]!), now - 60_000);
    const messages = Array.from({ length }, (_, n) => {
      at = between(at, Math.min(now, at + 3 * DAY_MS));
      return { from: n % 2 === 0 ? a : b, at, text: pick(MESSAGE_TEXTS) };
    });
    threads.push({ id: idAt(messages[0]!.at, 4, t).toHexString(), subject: pick(SUBJECTS), a, b, messages });
  }
  await step('message_threads', () =>
    insertAll(
      ThreadModel,
      threads.map((thread) => ({
        _id: thread.id,
        subject: thread.subject,
        memberIds: [new Types.ObjectId(memberIds[thread.a]), new Types.ObjectId(memberIds[thread.b])],
        at: new Date(thread.messages[0]!.at),
      })),
      false,
    ),
  );
  await step('messages', () =>
    insertAll(
      MessageModel,
      (function* () {
        for (const thread of threads) {
          for (const [n, message] of thread.messages.entries()) {
            yield {
              _id: `${thread.id}-${n + 1}`,
              threadId: thread.id,
              senderId: new Types.ObjectId(memberIds[message.from]),
              receiverId: new Types.ObjectId(memberIds[message.from === thread.a ? thread.b : thread.a]),
              text: message.text,
              at: new Date(message.at),
            };
          }
        }
      })(),
      false,
    ),
  );
  await step('message_boxes', () =>
    insertAll(
      BoxModel,
      (function* () {
        for (const thread of threads) {
          const last = thread.messages.at(-1)!;
          const lastN = thread.messages.length;
          for (const [me, other] of [
            [thread.a, thread.b],
            [thread.b, thread.a],
          ] as const) {
            // One's own messages count as read; the other's last ones are unread a third of the time.
            const ownLast = thread.messages.reduce((n, message, index) => (message.from === me ? index + 1 : n), 0);
            const readN = last.from === me || random() < 0.67 ? lastN : ownLast;
            yield {
              _id: `${thread.id}:${memberIds[me]}`,
              threadId: thread.id,
              userId: new Types.ObjectId(memberIds[me]),
              otherId: new Types.ObjectId(memberIds[other]),
              subject: thread.subject,
              at: new Date(last.at),
              lastN,
              lastSenderId: new Types.ObjectId(memberIds[last.from]),
              lastText: last.text,
              readN,
              isImportant: random() < 0.05,
              deletedAt: null,
            };
          }
        }
      })(),
      false,
    ),
  );

  // A run that inserted nothing (the same options again) leaves the states it built before as they are.
  const insertedAny = Object.values(report.inserted).some((count) => count > 0);
  for (const state of keptStates) {
    if (!insertedAny && (await isKeptStateMarked(state.name))) continue;
    const started = Date.now();
    // Nothing is kept yet for the facts just written: comparing first would only read them all once more.
    const rebuilt = await rebuildKeptState(state, { compare: false });
    const seconds = (Date.now() - started) / 1000;
    report.seconds[`rebuild ${state.name}`] = seconds;
    log(`rebuild ${state.name}: ${rebuilt.checked.toLocaleString('en')} written in ${seconds.toFixed(1)} s`);
  }
  return report;
}

/** `--name value` from the command line, else the environment variable, else undefined. */
function option(args: string[], name: string, env?: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  if (at >= 0) return args[at + 1];
  return env ? process.env[env] : undefined;
}

async function main() {
  const args = process.argv.slice(2);
  const scale = Number(option(args, 'scale', 'SEED_SCALE') ?? 1);
  if (!(scale > 0)) throw new Error(`--scale must be a positive number, not ${option(args, 'scale', 'SEED_SCALE')}`);
  const overrides: Partial<Sizes> = {};
  for (const kind of Object.keys(FULL_SIZES) as Kind[]) {
    const value = option(args, kind, `SEED_${kind.toUpperCase()}`);
    if (value === undefined) continue;
    if (!/^\d+$/.test(value)) throw new Error(`--${kind} must be a whole number, not ${value}`);
    overrides[kind] = Number(value);
  }
  const sizes = sizesAt(scale, overrides);
  const day = option(args, 'now');
  const now = day ? new Date(`${day}T00:00:00Z`) : new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
  if (Number.isNaN(now.getTime())) throw new Error(`--now must be a day (yyyy-mm-dd), not ${day}`);

  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const started = Date.now();
  const db = await connectDatabase(config, logger);
  const say = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${line}`);
  try {
    say(`database ${db.uri.replace(/\/\/[^@]*@/, '//')}: building ${JSON.stringify(sizes)} as of ${now.toISOString().slice(0, 10)}`);
    await seedReferenceData({ supportEmail: config.supportEmail });
    if (!args.includes('--no-demo') && !(await ContentModel.exists({}))) {
      say('the catalogue is empty: seeding the demo first, as npm start does');
      const services = buildServices({ config, logger, mailer: createMailer(config), storage: createStorage(config), ipfs: createIpfsPinning(config) });
      await seedDemoContent({ services, logger });
      await services.events.forwarded();
    }
    const report = await buildLargeDataSet({ sizes, now, payoutFees: config.payouts, log: say });
    // The counts are the inserted ones: counting a collection on FerretDB reads all of it (about 17 minutes for these).
    const inserted = Object.entries(report.inserted).map(([name, count]) => `${name} ${count.toLocaleString('en')}`);
    say(`built in ${((Date.now() - started) / 1000).toFixed(0)} s; inserted: ${inserted.join(', ')}`);
  } finally {
    await db.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  });
}
