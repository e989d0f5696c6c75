/**
 * Demo content for a fresh local Knack (SEED_DEMO, on by default outside production): a handful of artists
 * with a few dozen pieces (generated pictures and short songs) published through the real media and
 * content services, some reactions and re-posts, and listener accounts following the artists, so every Explore
 * tab differs. Then the economy runs once through the real calls (demo.economy.ts): pieces listed with plan
 * credits, listeners' plays and views knacked, comments, and a cash-out waiting for an admin, so that a newcomer
 * signed in as Nora sees money at once. Runs only on an empty catalogue, so it never touches real data. Demo
 * artists and listeners sign in with DEMO_PASSWORD.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcrypt';
import type { Types } from 'mongoose';
import sharp from 'sharp';
import { escapeHtml } from '../lib/html';
import type { Logger } from '../lib/logger';
import { wordsOf } from '../lib/search';
import { anyOf, ours } from '../lib/query';
import { ContentModel } from '../modules/contents';
import { recordFollows } from '../modules/follows';
import { addOutsideReactions } from '../modules/knacks';
import { encodeWav } from '../modules/media';
import { nameIndexState, UserModel } from '../modules/users';
import type { Services } from '../services';
import { seedDemoEconomy } from './demo.economy';

export const DEMO_PASSWORD = 'Demo!pass1';

/**
 * The artists, each with how many of the listeners follow them. Counts are counted from follows, so each follower
 * is a real account: Nora and Maya have more followers than On the Radar allows (100), the others fewer.
 */
const ARTISTS = [
  { username: 'nora_vale', firstName: 'Nora', lastName: 'Vale', bio: 'Jazz pianist from Lisbon. Late-night sessions.', followers: 110 },
  { username: 'kai.moreno', firstName: 'Kai', lastName: 'Moreno', bio: 'Street and travel photography.', followers: 35 },
  { username: 'pixel_ada', firstName: 'Ada', lastName: 'Okafor', bio: 'Pixel art and tiny worlds.', followers: 12 },
  { username: 'leo_beats', firstName: 'Leo', lastName: 'Sato', bio: 'Beats, hip hop and instrumentals.', followers: 60 },
  { username: 'maya_lens', firstName: 'Maya', lastName: 'Lind', bio: 'Nature, animals and quiet places.', followers: 130 },
];
/** Listener accounts (no pieces of their own): listener n follows every artist with more than n followers. */
const LISTENERS = Math.max(...ARTISTS.map((artist) => artist.followers));

type Piece = [artist: number, title: string, tag: 'Music' | 'Art' | 'Photos', subTag: string, reactions: number];
const PIECES: Piece[] = [
  [0, 'Blue Jazz Night', 'Music', 'Jazz', 42],
  [0, 'Rain on the Tagus', 'Music', 'Jazz', 17],
  [0, 'Alfama Waltz', 'Music', 'Instrumentals', 9],
  [0, 'Midnight Tram', 'Music', 'Jazz', 3],
  [3, 'Concrete Bloom', 'Music', 'Hip Hop', 27],
  [3, 'Late Bus Beat', 'Music', 'Beats', 14],
  [3, 'Neon Rooftops', 'Music', 'Beats', 6],
  [3, 'Slow Motion City', 'Music', 'Instrumentals', 1],
  [3, 'Paper Planes', 'Music', 'Pop', 0],
  [1, 'Lisbon at Dusk', 'Photos', 'Travel', 33],
  [1, 'Night Train to Porto', 'Photos', 'Trains', 12],
  [1, 'Red Vespa', 'Photos', 'Motorcycles', 8],
  [1, 'Harbour Lights', 'Photos', 'Travel', 4],
  [1, 'Old Town Market', 'Photos', 'People', 2],
  [1, 'Runway Sunrise', 'Photos', 'Planes', 0],
  [4, 'Fox in the Snow', 'Photos', 'Animals and Pets', 51],
  [4, 'Fern Valley', 'Photos', 'Nature', 19],
  [4, 'Glass Lake', 'Photos', 'Nature', 7],
  [4, 'Sleeping Cat', 'Photos', 'Animals and Pets', 5],
  [4, 'Autumn Ridge', 'Photos', 'Nature', 1],
  [4, 'Green Pavilion', 'Photos', 'Architecture & Buildings', 0],
  [2, 'Tiny Castle', 'Art', 'Pixel Art', 38],
  [2, 'Dragon Garden', 'Art', 'Fantasy Art', 21],
  [2, 'Fractal Bloom', 'Art', 'Fractal Art', 11],
  [2, 'Robot Dreams', 'Art', 'A.I. Art', 6],
  [2, 'Sunset Arcade', 'Art', 'Pixel Art', 2],
  [2, 'Crystal Circuit', 'Art', 'Digital Art', 0],
  [0, 'Sunday Morning Keys', 'Music', 'Music 2', 0],
  [1, 'Blue Door', 'Photos', 'Architecture & Buildings', 1],
  [2, 'Moon Harbor', 'Art', 'Digital Art', 4],
];
const FEATURED = ['Blue Jazz Night', 'Tiny Castle', 'Fox in the Snow'];

const PALETTES = [
  ['#0f2027', '#2c5364', '#f7b733'],
  ['#42275a', '#734b6d', '#ff6b6b'],
  ['#134e5e', '#71b280', '#f9d423'],
  ['#1f1c2c', '#928dab', '#f64f59'],
  ['#0b486b', '#f56217', '#ffe000'],
];

/** A 1200x800 picture: a gradient, a few shapes and the title. */
function picture(index: number, title: string): Promise<Buffer> {
  const [from, to, accent] = PALETTES[index % PALETTES.length]!;
  const shapes = Array.from({ length: 6 }, (_, i) => {
    const x = (index * 97 + i * 211) % 1200;
    const y = (index * 53 + i * 137) % 800;
    return `<circle cx="${x}" cy="${y}" r="${60 + ((index + i) % 5) * 40}" fill="${accent}" fill-opacity="${0.15 + (i % 3) * 0.15}"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="1200" height="800" fill="url(#g)"/>${shapes}
    <text x="60" y="740" font-family="sans-serif" font-size="72" font-weight="700" fill="#fff" fill-opacity="0.9">${escapeHtml(title)}</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** A few seconds of a chord that swells and fades. */
function song(index: number, seconds = 6, sampleRate = 16_000): Buffer {
  const root = 220 * 2 ** ((index % 12) / 12);
  const notes = [root, root * 1.25, root * 1.5];
  const samples = seconds * sampleRate;
  return encodeWav(
    (i) => {
      const t = i / sampleRate;
      const envelope = Math.sin((Math.PI * i) / samples) * (0.6 + 0.4 * Math.sin(2 * Math.PI * 0.5 * t));
      return (notes.reduce((sum, f) => sum + Math.sin(2 * Math.PI * f * t), 0) / notes.length) * envelope * 0.8;
    },
    samples,
    sampleRate,
  );
}

/** How many pieces have their media made at once. */
const MEDIA_AT_ONCE = 3;

/** `map` over `items` with at most `limit` calls under way, answers in the items' order. */
async function mapInBatches<T, R>(items: readonly T[], limit: number, map: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await map(items[index]!, index);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The listener accounts, and their follows of the artists (`artistIds` in ARTISTS' order). */
async function seedListeners(artistIds: Types.ObjectId[], passwordHash: string): Promise<void> {
  const listeners = Array.from({ length: LISTENERS }, (_, n) => {
    const number = String(n + 1).padStart(3, '0');
    const username = `listener_${number}`;
    const fullName = `Listener ${number}`;
    return { username, firstName: 'Listener', lastName: number, fullName, email: `${username}@demo.knack.example`, searchWords: wordsOf(username, fullName) };
  });
  await UserModel.bulkWrite(
    listeners.map((listener) => ({
      updateOne: { filter: { username: listener.username }, update: { $setOnInsert: { ...listener, passwordHash, isActive: true } }, upsert: true },
    })),
    { ordered: false },
  );
  const saved = await UserModel.find(ours({ username: anyOf(listeners.map((listener) => listener.username)) }), { username: 1 }).lean();
  const idOf = new Map(saved.map((listener) => [listener.username, listener._id]));
  await recordFollows(
    listeners.flatMap((listener, n) =>
      ARTISTS.flatMap((artist, index) => (n < artist.followers ? [{ followerId: idOf.get(listener.username)!, followedId: artistIds[index]! }] : [])),
    ),
  );
}

export interface DemoDeps {
  /** The process's services (server/services.ts): pieces are stored and published through them. */
  services: Pick<Services, 'media' | 'contents' | 'payments' | 'knacks' | 'wallet'>;
  logger: Logger;
}

/** Seeds the demo catalogue when there is none; answers how many pieces it published. */
export async function seedDemoContent({ services, logger }: DemoDeps): Promise<number> {
  if (await ContentModel.exists({})) return 0;
  const { media: mediaService, contents } = services;
  const passwordHash = await bcrypt.hash(DEMO_PASSWORD, 10);
  const upsertArtist = ({ followers: _followers, ...a }: (typeof ARTISTS)[number]) => {
    const fullName = `${a.firstName} ${a.lastName}`;
    return UserModel.findOneAndUpdate(
      { username: a.username },
      { $setOnInsert: { ...a, email: `${a.username}@demo.knack.example`, fullName, passwordHash, isActive: true, searchWords: wordsOf(a.username, fullName) } },
      { upsert: true, new: true },
    ).lean();
  };
  const artists: NonNullable<Awaited<ReturnType<typeof upsertArtist>>>[] = [];
  for (const a of ARTISTS) artists.push(await upsertArtist(a));
  const ownerOf = (index: number) => artists[PIECES[index]![0]]!;
  await seedListeners(
    artists.map((artist) => artist._id),
    passwordHash,
  );
  // The accounts above are written in bulk, past the name index's hooks: it is recounted once for them.
  await nameIndexState.rebuild();

  const work = await mkdtemp(path.join(os.tmpdir(), 'knack-demo-'));
  try {
    // The media of the pieces (a picture each, a song for Music) are drawn and stored a few at a time, which
    // keeps both cores busy (sharp's encoder, ffmpeg for waveforms); the pieces are then saved one by one in
    // list order, which is the order the New and Featured tabs show.
    const media = await mapInBatches(PIECES, MEDIA_AT_ONCE, async ([, title, tag], index) => {
      const ownerId = String(ownerOf(index)._id);
      const photoFile = path.join(work, `${randomBytes(6).toString('hex')}.jpg`);
      const photoBytes = await picture(index, title);
      await writeFile(photoFile, photoBytes);
      const photo = await mediaService.storeImage({ path: photoFile, originalname: `${title}.jpg`, size: photoBytes.length }, ownerId, 'content');
      if (tag !== 'Music') return { photoPath: photo.key };
      const audioFile = path.join(work, `${randomBytes(6).toString('hex')}.wav`);
      const audioBytes = song(index);
      await writeFile(audioFile, audioBytes);
      const audio = await mediaService.storeAudio({ path: audioFile, originalname: `${title}.wav`, size: audioBytes.length }, ownerId);
      return { photoPath: photo.key, audioPath: audio.key };
    });
    for (const [index, [, title, tag, subTag, reactions]] of PIECES.entries()) {
      const artist = ownerOf(index);
      const caller = { userId: String(artist._id), email: artist.email, role: 'user' as const };
      const saved = await contents.save(
        caller,
        { title, description: `${title}, by ${artist.fullName}. A Knack demo piece.`, tags: [{ name: tag }], subTag, ...media[index]! },
        'classic',
      );
      const doc = await ContentModel.findById(saved._id).lean();
      if (reactions) await addOutsideReactions(doc!, reactions);
      if (FEATURED.includes(title)) await contents.setFeatured({ ...caller, role: 'admin' }, String(saved._id), true);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const saved = await ContentModel.find(ours({ title: anyOf(PIECES.map(([, title]) => title)) }), { title: 1, ownerId: 1 }).lean();
  const pieces = new Map(saved.map((piece) => [piece.title, { id: String(piece._id), ownerId: String(piece.ownerId) }]));
  const economy = await seedDemoEconomy(services, { artists, pieces });
  logger.info({ pieces: PIECES.length, artists: ARTISTS.length, ...economy }, `demo content seeded (artists sign in with ${DEMO_PASSWORD})`);
  return PIECES.length;
}
