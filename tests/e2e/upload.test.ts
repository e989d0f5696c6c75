/**
 * End to end, as a new user would: the production build of the SPA served by the real app on the real
 * database, files on a local storage folder, driven in Chromium. A member (created through the API and the
 * outbox mail) logs in, uploads a photo under Photos/Travel and a song under Music/Jazz with a cover,
 * watching both progress bars; the pieces are stored with thumbnails and a waveform. A 101 MB song and an
 * HTML page named .png get clear errors. The header image is cropped at 1119:305 and the profile photo
 * square. Screenshots at 1280 and 390 px land in tests/e2e/screenshots/upload-*.png.
 *
 * The fixture files are made at test time: pictures with sharp, a short WAV with a RIFF header, the 101 MB
 * file sparse (fs.truncate), the fake PNG as plain HTML.
 */
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { outboxMailer } from '../../server/integrations/mail/outbox.driver';
import { localStorage } from '../../server/integrations/storage';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, startE2eApp, type E2eApp } from '../helpers/e2e';
import { createActiveMember, newSignup, outboxMailbox } from '../helpers/auth';
import { chooseMainTag, chooseSubTag, declineMonetizing, dialog, openUpload, progressOf, toast, untilComplete } from '../helpers/e2e-upload';

const HEADER_RATIO = 1119 / 305;

jest.setTimeout(180_000);
useTestDatabase();

let e2e: E2eApp;
let baseUrl: string;
let browser: Browser;
let work: string;
let outboxDir: string;
const files = {} as Record<'photo' | 'cover' | 'song' | 'header' | 'portrait' | 'huge' | 'fakePng', string>;

// Fixtures

/** A picture drawn as SVG and rendered by sharp: a sky, a sun, hills and a label. */
async function picture(width: number, height: number, hue: number, label: string, format: 'png' | 'jpeg'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,45%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},85%,75%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#sky)"/>
    <circle cx="${width * 0.7}" cy="${height * 0.38}" r="${Math.min(width, height) * 0.16}" fill="hsl(${(hue + 180) % 360},90%,70%)"/>
    <path d="M0 ${height * 0.75} Q ${width * 0.25} ${height * 0.55} ${width * 0.5} ${height * 0.72} T ${width} ${height * 0.66} V ${height} H 0 Z" fill="hsl(${(hue + 200) % 360},40%,25%)"/>
    <text x="${width * 0.06}" y="${height * 0.16}" font-family="sans-serif" font-size="${Math.round(height * 0.08)}" font-weight="700" fill="#fff">${label}</text>
  </svg>`;
  const image = sharp(Buffer.from(svg));
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 88 }).toBuffer();
}

/** A mono 16-bit PCM WAV: a few notes with a fade, so the waveform has a shape. */
function wav(seconds: number, rate = 22_050): Buffer {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  const notes = [262, 330, 392, 523];
  for (let i = 0; i < samples; i += 1) {
    const t = i / rate;
    const note = notes[Math.floor(t * 2) % notes.length]!;
    const envelope = Math.min(1, ((t * 2) % 1) * 8) * (1 - ((t * 2) % 1) * 0.8);
    data.writeInt16LE(Math.round(Math.sin(2 * Math.PI * note * t) * 14_000 * envelope), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

async function makeFixtures(dir: string) {
  files.photo = path.join(dir, 'lisbon-tram.png');
  writeFileSync(files.photo, await picture(1600, 1000, 200, 'Lisbon, tram 28', 'png'));
  files.cover = path.join(dir, 'blue-cover.jpg');
  writeFileSync(files.cover, await picture(1000, 1000, 230, 'Blue in Green', 'jpeg'));
  files.header = path.join(dir, 'header-wide.jpg');
  writeFileSync(files.header, await picture(2400, 900, 20, 'My header', 'jpeg'));
  files.portrait = path.join(dir, 'portrait.png');
  writeFileSync(files.portrait, await picture(900, 1200, 300, 'Me', 'png'));
  files.song = path.join(dir, 'blue-in-green.wav');
  writeFileSync(files.song, wav(12));
  // 101 MB, sparse: nothing is written, the size is set.
  files.huge = path.join(dir, 'live-set.wav');
  writeFileSync(files.huge, wav(0.1));
  truncateSync(files.huge, 101 * 1024 * 1024);
  // An HTML page in disguise.
  files.fakePng = path.join(dir, 'holiday.png');
  writeFileSync(files.fakePng, '<!doctype html><html><body><script>alert(1)</script></body></html>');
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'knack-e2e-upload-'));
  outboxDir = path.join(work, 'mail');
  mkdirSync(path.join(work, 'fixtures'));
  await makeFixtures(path.join(work, 'fixtures'));
  e2e = await startE2eApp({
    mailer: outboxMailer(outboxDir, 'Knack <no-reply@knack.test>'),
    storage: localStorage(path.join(work, 'files')),
  });
  ({ baseUrl, browser } = e2e);
}, 90_000);

afterAll(async () => {
  await e2e?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

// Page helpers

/** Page errors and console errors, except the 4xx answers the test provokes on purpose. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/status of 4\d\d/.test(msg.text())) errors.push(msg.text());
  });
  return errors;
}

const shot = (page: Page, name: string) => screenshot(page, `upload-${name}`);

async function logIn(page: Page, email: string, password: string) {
  await page.goto(baseUrl, { waitUntil: 'networkidle' });
  await page.getByRole('banner').getByRole('button', { name: 'Login', exact: true }).click();
  await dialog(page).getByLabel('Email').waitFor();
  await dialog(page).getByLabel('Email').fill(email);
  await dialog(page).getByLabel('Password').fill(password);
  await dialog(page).getByRole('button', { name: 'Log in', exact: true }).click();
  await page
    .waitForFunction(() => Boolean(window.localStorage.getItem('knack:account')), undefined, { timeout: 15_000 })
    .catch(async (error: unknown) => {
      await screenshot(page, 'upload-login-failed');
      throw error;
    });
  await page.waitForURL(`${baseUrl}/explore`); // a login from the top navigation goes to /explore
}

interface SavedContent {
  id: string;
  title: string;
  subTag: string;
  tags: { name: string }[];
  filePath: string;
  thumbPath: string;
  mthumbPath: string;
  hthumbPath: string;
  wthumbPath: string;
  isAudio: boolean;
  isImage: boolean;
  duration?: number;
  waveformPath?: string;
  processing: string;
}

/** Fetches a stored file as the browser would; answers status, type and bytes. */
async function fetchFile(url: string) {
  const response = await fetch(new URL(url, baseUrl));
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: Buffer.from(await response.arrayBuffer()) };
}

describe('uploads and the media pipeline in Chromium', () => {
  let member: ReturnType<typeof newSignup>;

  beforeAll(async () => {
    ({ form: member } = await createActiveMember(baseUrl, outboxMailbox(outboxDir)));
  });

  it('when a member uploads a photo under Photos/Travel and a song with a cover under Music/Jazz, then both are stored with thumbnails and a waveform', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await logIn(page, member.email, member.password);

    // The photo.
    let modal = await openUpload(page);
    await shot(page, 'empty-desktop');
    await modal.getByRole('button', { name: 'Upload' }).click();
    await modal.getByText('Should input photo').waitFor();
    await shot(page, 'messages-desktop');
    await modal.getByLabel('Title').fill('Tram 28 at dawn');
    await modal.getByLabel('Description').fill('Lisbon before the crowds: the yellow tram climbing to Graça.');
    await chooseMainTag(modal, 'Photos');
    await chooseSubTag(page, modal, 'Category', 'Travel');
    await modal.getByLabel('Photo', { exact: true }).setInputFiles(files.photo);
    await untilComplete(modal, 'Photo upload');
    await modal.getByRole('img', { name: 'Photo: lisbon-tram.png' }).waitFor();
    expect(await progressOf(modal.getByRole('progressbar', { name: 'Form completion' }))).toBe(100);
    await shot(page, 'photo-ready-desktop');
    const photoSaved = page.waitForResponse((r) => r.url().endsWith('/api/v2/content/save'));
    await modal.getByRole('button', { name: 'Upload' }).click();
    const photoAnswer = await photoSaved;
    expect(photoAnswer.status()).toBe(201);
    const photo = ((await photoAnswer.json()) as { content: SavedContent }).content;
    await toast(page, 'Success');
    await modal.waitFor({ state: 'hidden' });
    await shot(page, 'monetize-offer-desktop');
    await declineMonetizing(page);
    expect(photo).toMatchObject({ title: 'Tram 28 at dawn', subTag: 'Travel', tags: [{ name: 'Photos' }], isImage: true });
    for (const thumb of [photo.thumbPath, photo.mthumbPath, photo.hthumbPath, photo.wthumbPath]) {
      const stored = await fetchFile(thumb);
      expect(stored.status).toBe(200);
      expect(stored.type).toMatch(/image\/webp/);
      expect((await sharp(stored.body).metadata()).format).toBe('webp');
    }

    // The song with its cover: the uploads are slowed down so both bars can be seen moving.
    modal = await openUpload(page);
    expect(await modal.getByLabel('Title').inputValue()).toBe(''); // the form starts empty
    await modal.getByLabel('Title').fill('Blue in Green');
    await modal.getByLabel('Description').fill('A kitchen take, one microphone, no edits.');
    await chooseMainTag(modal, 'Music');
    await chooseSubTag(page, modal, 'Genre', 'Jazz');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: -1, uploadThroughput: 96 * 1024 });
    await modal.getByLabel('Cover photo', { exact: true }).setInputFiles(files.cover);
    await modal.getByRole('progressbar', { name: 'Cover photo upload' }).waitFor();
    expect(await modal.getByLabel('Title').isDisabled()).toBe(true); // inputs are disabled while sending
    await untilComplete(modal, 'Cover photo upload');
    await modal.getByLabel('Audio', { exact: true }).setInputFiles(files.song);
    const audioBar = modal.getByRole('progressbar', { name: 'Audio upload' });
    await audioBar.waitFor();
    // The network is throttled above: the bar is caught part way for the screenshot.
    await page.waitForFunction(
      (bar) => {
        const value = Number(bar?.getAttribute('aria-valuenow'));
        return value > 0 && value < 100;
      },
      await audioBar.elementHandle(),
    );
    await shot(page, 'song-sending-desktop');
    await untilComplete(modal, 'Audio upload');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await modal.getByText('blue-in-green.wav').waitFor();
    await modal.getByText(/0:12/).waitFor({ timeout: 15_000 });
    expect(await modal.getByRole('progressbar', { name: 'Cover photo upload' }).isVisible()).toBe(true);
    expect(await modal.getByLabel('Title').isDisabled()).toBe(false);
    await shot(page, 'song-ready-desktop');
    const songSaved = page.waitForResponse((r) => r.url().endsWith('/api/v2/content/save'));
    await modal.getByRole('button', { name: 'Upload' }).click();
    const songAnswer = await songSaved;
    expect(songAnswer.status()).toBe(201);
    const song = ((await songAnswer.json()) as { content: SavedContent }).content;
    await toast(page, 'Success');
    await modal.waitFor({ state: 'hidden' });
    await declineMonetizing(page);
    expect(song).toMatchObject({ title: 'Blue in Green', subTag: 'Jazz', tags: [{ name: 'Music' }], isAudio: true });
    expect(song.duration).toBeCloseTo(12, 0);
    expect((await fetchFile(song.thumbPath)).status).toBe(200);
    expect(song.waveformPath).toBeTruthy();
    const waveform = await fetchFile(song.waveformPath!);
    expect(waveform.status).toBe(200);
    expect(waveform.body.length).toBeLessThanOrEqual(16 * 1024);
    expect(() => JSON.parse(waveform.body.toString('utf8'))).not.toThrow();
    const audio = await fetchFile(song.filePath);
    expect(audio.status).toBe(200);
    expect(audio.type).toMatch(/audio/);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('when a 101 MB song or an HTML page named .png is chosen, then clear errors show and nothing is stored', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await logIn(page, member.email, member.password);
    const modal = await openUpload(page);
    await chooseMainTag(modal, 'Music');

    // Too big: the client refuses before sending a byte (the server would answer 413 with the same words).
    let sent = false;
    page.on('request', (request) => {
      if (request.url().endsWith('/content/upload-audio')) sent = true;
    });
    await modal.getByLabel('Audio', { exact: true }).setInputFiles(files.huge);
    await modal.getByText('File size should be less than 100 MB.').waitFor();
    await toast(page, 'File size should be less than 100 MB.');
    expect(sent).toBe(false);

    // A page in disguise: the browser calls it image/png, the server reads the bytes and answers 415.
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/v2/content/upload-photo'));
    await modal.getByLabel('Cover photo', { exact: true }).setInputFiles(files.fakePng);
    const answer = await refused;
    expect(answer.status()).toBe(415);
    await modal.getByText('Only PNG and JPEG images are accepted.').waitFor();
    await toast(page, 'Only PNG and JPEG images are accepted.');
    expect(await modal.getByRole('img', { name: /Cover photo:/ }).count()).toBe(0);
    expect(await modal.getByLabel('Title').isDisabled()).toBe(false);
    await modal.getByText('File size should be less than 100 MB.').scrollIntoViewIfNeeded();
    await shot(page, 'errors-desktop');

    // The same rules as the API gives them, for the record: 413 for the 101 MB file.
    const token = await page.evaluate(() => (JSON.parse(window.localStorage.getItem('knack:account') ?? '{}') as { token?: string }).token);
    const big = await page.evaluate(async (bearer) => {
      const body = new FormData();
      body.append('file', new Blob([new Uint8Array(101 * 1024 * 1024)], { type: 'audio/wav' }), 'live-set.wav');
      const response = await fetch('/api/v2/content/upload-audio', { method: 'POST', headers: { Authorization: `Bearer ${bearer}` }, body });
      return { status: response.status, body: (await response.json()) as { message: string } };
    }, token);
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('File size should be less than 100 MB.');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('when the member crops a header image and a profile photo, then the header is 1119:305 and the avatar changes', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await logIn(page, member.email, member.password);
    const side = page.getByRole('navigation', { name: 'Side menu' });

    // Header image: nothing chosen yet.
    await side.getByRole('button', { name: 'Header image' }).click();
    const header = dialog(page, 'Header image');
    await header.getByRole('button', { name: 'Save and apply' }).click();
    await header.getByText('Please upload image first.').waitFor();
    await shot(page, 'header-empty-desktop');
    const original = page.waitForResponse((r) => r.url().endsWith('/api/v2/user/upload-header-image'));
    await header.getByLabel('Upload a header image').setInputFiles(files.header);
    expect((await original).status()).toBe(201);
    const frame = header.getByRole('group', { name: 'Header crop area' });
    await frame.waitFor();
    // Drag the bottom-right corner in, then the frame to the right: the ratio holds.
    const handle = frame.locator('.kn-cropper__handle--se');
    const hb = (await handle.boundingBox())!;
    await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
    await page.mouse.down();
    await page.mouse.move(hb.x - 160, hb.y - 20, { steps: 8 });
    await page.mouse.up();
    const fb = (await frame.boundingBox())!;
    await page.mouse.move(fb.x + fb.width / 2, fb.y + fb.height / 2);
    await page.mouse.down();
    await page.mouse.move(fb.x + fb.width / 2 + 120, fb.y + fb.height / 2 + 30, { steps: 8 });
    await page.mouse.up();
    const [, , cropW, cropH] = ((await frame.getAttribute('data-crop')) ?? '').split(',').map(Number);
    expect(cropW! / cropH!).toBeCloseTo(HEADER_RATIO, 1);
    expect(cropW).toBeLessThan(2400);
    await shot(page, 'header-editor-desktop');
    const applied = page.waitForResponse((r) => r.url().endsWith('/api/v2/user/update-header-image'));
    await header.getByRole('button', { name: 'Save and apply' }).click();
    const appliedAnswer = await applied;
    expect(appliedAnswer.status()).toBe(200);
    const { user } = (await appliedAnswer.json()) as { user: { headerImage: string; image: string | null } };
    const stored = await fetchFile(user.headerImage);
    expect(stored.status).toBe(200);
    const size = await sharp(stored.body).metadata();
    expect(size.width! / size.height!).toBeCloseTo(HEADER_RATIO, 2);
    await toast(page, 'Success');
    await header.waitFor({ state: 'hidden' });

    // Profile photo: the avatar opens the dialog; nothing chosen says so; a square crop replaces the initials.
    await side.getByRole('button', { name: 'Change profile photo' }).click();
    const photo = dialog(page, 'Profile photo');
    await photo.getByRole('button', { name: 'Save' }).click();
    await photo.getByText('Please select photo').waitFor();
    await photo.getByLabel('Choose a photo').setInputFiles(files.portrait);
    await photo.getByRole('group', { name: 'Photo crop area' }).waitFor();
    await shot(page, 'photo-crop-desktop');
    const photoApplied = page.waitForResponse((r) => r.url().endsWith('/api/v2/user/update-photo'));
    await photo.getByRole('button', { name: 'Save' }).click();
    expect((await photoApplied).status()).toBe(200);
    await photo.waitFor({ state: 'hidden' });
    const avatar = side.getByRole('button', { name: 'Change profile photo' }).locator('img');
    await avatar.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.kn-account__avatar img');
      return Boolean(img?.complete && img.naturalWidth > 0);
    });
    const avatarSize = await avatar.evaluate((img: HTMLImageElement) => ({ w: img.naturalWidth, h: img.naturalHeight }));
    expect(avatarSize.w).toBe(avatarSize.h);
    await screenshot(page, 'upload-avatar-desktop');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('when the modals open on a phone (390 px), then they take the whole screen and work', async () => {
    const context: BrowserContext = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await logIn(page, member.email, member.password);
    const fullScreen = async () => {
      const box = await page.locator('.ant-modal').last().boundingBox();
      expect(box?.width).toBe(PHONE.width);
      expect(box?.x).toBe(0);
    };

    const modal = await openUpload(page);
    await shot(page, 'empty-phone');
    await fullScreen();
    await modal.getByLabel('Title').fill('Pastel de nata');
    await modal.getByLabel('Description').fill('Still warm, from the shop by the river.');
    await chooseMainTag(modal, 'Photos');
    await chooseSubTag(page, modal, 'Category', 'Travel');
    await modal.getByLabel('Photo', { exact: true }).setInputFiles(files.photo);
    await untilComplete(modal, 'Photo upload');
    await shot(page, 'photo-ready-phone');
    await chooseMainTag(modal, 'Music');
    await modal.getByRole('button', { name: 'Upload' }).click();
    await modal.getByText('Should input audio').waitFor();
    await modal.getByText('Should input audio').scrollIntoViewIfNeeded();
    await shot(page, 'messages-phone');
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('navigation', { name: 'Side menu' });
    await drawer.getByRole('button', { name: 'Header image' }).click();
    const header = dialog(page, 'Header image');
    // Save only once the original is uploaded (before that the modal asks to wait, and sends nothing).
    const original = page.waitForResponse((r) => r.url().endsWith('/api/v2/user/upload-header-image'));
    await header.getByLabel('Upload a header image').setInputFiles(files.header);
    expect((await original).status()).toBe(201);
    await header.getByRole('group', { name: 'Header crop area' }).waitFor();
    await shot(page, 'header-editor-phone');
    await fullScreen();
    const applied = page.waitForResponse((r) => r.url().endsWith('/api/v2/user/update-header-image'));
    await header.getByRole('button', { name: 'Save and apply' }).click();
    expect((await applied).status()).toBe(200);
    await header.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await drawer.locator('.kn-account__header').waitFor();
    await screenshot(page, 'upload-drawer-header-phone');

    expect(errors).toEqual([]);
    await context.close();
  });
});
