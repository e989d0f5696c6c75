/**
 * End-to-end helpers for pieces and members: a world of two members on the real app (the app, an SMTP
 * stand-in, files in a temporary folder), pieces published through the real calls (upload the cover, the song
 * for Music, then save), reactions and an admin's re-post, and a Chromium page signed in as a member the way
 * a login leaves it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import request from 'supertest';
import { smtpMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { ContentModel } from '../../server/modules/contents';
import { addOutsideReactions } from '../../server/modules/knacks';
import { createActiveMember, refreshCookieOf } from './auth';
import type { TestAppOptions } from './app';
import { startE2eApp, type E2eApp } from './e2e';
import { wav } from './media';
import { startSmtpServer } from './smtp';

export type Member = Awaited<ReturnType<typeof createActiveMember>>;

export interface PublishedPiece {
  id: string;
  title: string;
  link: string;
}

/** What `publishPiece` publishes: the cover's hue; `seconds` of song for Music. */
export interface PieceSpec {
  title: string;
  tag: 'Music' | 'Art' | 'Photos';
  subTag: string;
  hue: number;
  /**
   * The cover's side in pixels (default 800, a picture worth looking at in the e2e screenshots). A test that never
   * looks at the picture sends a small one: the server makes four WebP sizes of every cover, about 0.2 s of CPU at
   * 800 px and a third of that at 64.
   */
  coverSide?: number;
  description?: string;
  seconds?: number;
  /** The song's file for Music, as a member's device would send it (default: a `seconds` long WAV). */
  song?: { file: Buffer; name: string };
}

/** Where a signed-in page opens: the app's address and Chromium (an `E2eApp` or a `PiecesWorld`). */
export type E2eTarget = Pick<E2eApp, 'baseUrl' | 'browser'>;

const covers = new Map<string, Promise<Buffer>>();

/**
 * A square cover: a diagonal gradient in one hue with a circle, so thumbnails tell apart. Each hue and size is drawn
 * once per test file: the same picture is the same bytes.
 */
export function coverPng(hue: number, size = 800): Promise<Buffer> {
  const key = `${hue}:${size}`;
  let cover = covers.get(key);
  if (!cover) {
    cover = drawCover(hue, size);
    covers.set(key, cover);
  }
  return cover;
}

function drawCover(hue: number, size: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},75%,55%)"/><stop offset="1" stop-color="hsl(${(hue + 50) % 360},80%,30%)"/>
    </linearGradient></defs>
    <rect width="${size}" height="${size}" fill="url(#g)"/>
    <circle cx="${size * 0.65}" cy="${size * 0.375}" r="${size * 0.19}" fill="hsl(${(hue + 180) % 360},85%,75%)" opacity="0.85"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Publishes through the real calls: the cover (and a `seconds` long song for Music), then save. */
export async function publishPiece(app: Parameters<typeof request>[0], member: Member, piece: PieceSpec): Promise<PublishedPiece> {
  const auth = { Authorization: `Bearer ${member.token}` };
  const photo = await request(app)
    .post('/api/v2/content/upload-photo')
    .set(auth)
    .attach('file', await coverPng(piece.hue, piece.coverSide), 'cover.png')
    .expect(201);
  const audio =
    piece.tag === 'Music'
      ? await request(app)
          .post('/api/v2/content/upload-audio')
          .set(auth)
          .attach('file', piece.song?.file ?? wav(piece.seconds ?? 1), piece.song?.name ?? 'song.wav')
          .expect(201)
      : null;
  const saved = await request(app)
    .post('/api/v2/content/save')
    .set(auth)
    .send({
      title: piece.title,
      description: piece.description ?? `About ${piece.title}`,
      tags: [{ name: piece.tag }],
      subTag: piece.subTag,
      photoPath: photo.body.path,
      ...(audio ? { audioPath: audio.body.path } : {}),
    })
    .expect(201);
  return saved.body.content as PublishedPiece;
}

/**
 * A page signed in as `member`, as a login through the form leaves it: a fresh session from the sign-in call,
 * its refresh cookie in the browser and the account in localStorage.
 */
export async function signedInPage(
  { browser, baseUrl }: E2eTarget,
  member: Member,
  options: { viewport: { width: number; height: number }; hasTouch?: boolean },
): Promise<Page> {
  const signin = await request(baseUrl).post('/api/v2/auth/signin').send({ email: member.form.email, password: member.form.password }).expect(200);
  const context = await browser.newContext(options);
  const { hostname } = new URL(baseUrl);
  await context.addCookies([
    { name: 'knack_refresh', value: refreshCookieOf(signin)!, domain: hostname, path: '/api/v2/auth', httpOnly: true, sameSite: 'Strict' },
  ]);
  const account = JSON.stringify({ user: signin.body.user, token: signin.body.token });
  await context.addInitScript((value) => window.localStorage.setItem('knack:account', value), account);
  return context.newPage();
}

/** The app on the real database with Ana and Bea as active members, and what a test file publishes there. */
export interface PiecesWorld extends E2eTarget {
  ana: Member;
  bea: Member;
  /** The pieces published through `publish`, by title. */
  pieces: Record<string, PublishedPiece>;
  /** Another active member, for a test that needs data of its own (names made unique). */
  member(firstName: string, lastName: string): Promise<Member>;
  /** Publishes a piece through the real calls (`publishPiece`) and remembers it by title. */
  publish(member: Member, piece: PieceSpec): Promise<PublishedPiece>;
  /** Records `times` plays or views of the piece, as the reaction calls do. */
  react(title: string, times: number): Promise<void>;
  /** An admin (created on first use) re-posts the piece to the top of Featured. */
  repost(title: string): Promise<void>;
  /** The world's admin (admin@knack.example), created on first use. */
  admin(): Promise<Member>;
}

/**
 * For the calling test file (after `useTestDatabase()`): before all its tests, starts the app (`startE2eApp`,
 * mail through an SMTP stand-in, files under a temporary folder named after `name`) and creates Ana and Bea;
 * after them, stops it all. The world's fields are set before the file's own `beforeAll` runs. `appOptions` is read
 * when the app starts, so it may name a stand-in that an earlier `beforeAll` of the file started (Horizon's).
 */
export function usePiecesWorld(name: string, appOptions: () => Pick<TestAppOptions, 'config'> = () => ({})): PiecesWorld {
  let e2e: E2eApp | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
  let work: string | undefined;
  let admin: Member | undefined;
  let stamp = '';
  const world = {
    pieces: {},
    async member(firstName, lastName) {
      const username = `${firstName}_${lastName}_${stamp}`.toLowerCase();
      return createActiveMember(world.baseUrl, smtp!, { firstName, lastName, username, email: `${username}@example.com` });
    },
    async publish(member, piece) {
      const published = await publishPiece(world.baseUrl, member, piece);
      world.pieces[piece.title] = published;
      return published;
    },
    async react(title, times) {
      await addOutsideReactions((await ContentModel.findById(world.pieces[title]!.id).lean())!, times);
    },
    async admin() {
      admin ??= await createActiveMember(world.baseUrl, smtp!, { email: 'admin@knack.example', username: `admin_${stamp}` });
      return admin;
    },
    async repost(title) {
      await request(world.baseUrl)
        .post('/api/v2/content/trend')
        .set({ Authorization: `Bearer ${(await world.admin()).token}` })
        .send({ contentId: world.pieces[title]!.id })
        .expect(200);
    },
  } as PiecesWorld;

  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), `knack-e2e-${name}-`));
    smtp = await startSmtpServer();
    e2e = await startE2eApp({ ...appOptions(), mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>'), storage: localStorage(path.join(work, 'files')) });
    world.baseUrl = e2e.baseUrl;
    world.browser = e2e.browser;
    stamp = Date.now().toString(36).slice(-5);
    world.ana = await createActiveMember(world.baseUrl, smtp, { firstName: 'Ana', lastName: 'Lima', username: `ana_lima_${stamp}` });
    world.bea = await createActiveMember(world.baseUrl, smtp, { firstName: 'Bea', lastName: 'Moon', username: `bea_moon_${stamp}` });
  }, 90_000);

  afterAll(async () => {
    await e2e?.stop();
    await smtp?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  return world;
}
