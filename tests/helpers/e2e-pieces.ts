/**
 * End-to-end helpers for pieces and members: publish a piece through the real calls (upload the cover, the
 * song for Music, then save), and open a Chromium page signed in as a member the way a login leaves it.
 */
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import request from 'supertest';
import { refreshCookieOf, type createActiveMember } from './auth';
import { wav } from './media';

export type Member = Awaited<ReturnType<typeof createActiveMember>>;

export interface PublishedPiece {
  id: string;
  title: string;
  link: string;
}

/** A square cover: a diagonal gradient in one hue with a circle, so thumbnails tell apart. */
export function coverPng(hue: number, size = 800): Promise<Buffer> {
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
export async function publishPiece(
  baseUrl: string,
  member: Member,
  piece: { title: string; tag: 'Music' | 'Art' | 'Photos'; subTag: string; hue: number; description?: string; seconds?: number },
): Promise<PublishedPiece> {
  const auth = { Authorization: `Bearer ${member.token}` };
  const photo = await request(baseUrl).post('/api/v2/content/upload-photo').set(auth).attach('file', await coverPng(piece.hue), 'cover.png').expect(201);
  const audio =
    piece.tag === 'Music' ? await request(baseUrl).post('/api/v2/content/upload-audio').set(auth).attach('file', wav(piece.seconds ?? 1), 'song.wav').expect(201) : null;
  const saved = await request(baseUrl)
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
export async function signedInPage(browser: Browser, baseUrl: string, member: Member, options: { viewport: { width: number; height: number }; hasTouch?: boolean }): Promise<Page> {
  const signin = await request(baseUrl).post('/api/v2/auth/signin').send({ email: member.form.email, password: member.form.password }).expect(200);
  const context = await browser.newContext(options);
  const { hostname } = new URL(baseUrl);
  await context.addCookies([{ name: 'knack_refresh', value: refreshCookieOf(signin)!, domain: hostname, path: '/api/v2/auth', httpOnly: true, sameSite: 'Strict' }]);
  const account = JSON.stringify({ user: signin.body.user, token: signin.body.token });
  await context.addInitScript((value) => window.localStorage.setItem('knack:account', value), account);
  return context.newPage();
}
