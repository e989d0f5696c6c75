/**
 * End to end, as people would: the production build of the SPA served by the real app on the real database, mail
 * in the outbox, driven in Chromium.
 * - A visitor with no account opens an artist's Top 50 page, enters a song in it through the Top 50 modal (the form,
 *   then the email confirmed on step 2), gets the registration mail, opens its link (the `{name} register` modal),
 *   registers, sees the song on the chart, and later signs in with the new password.
 * - The artist, signed in, uploads a song to their own page with 'Upload to my page' (the artist modal); the page
 *   reloads and the song is on the chart.
 * Music 2 shows as $0.96 a play in both modals. Screenshots at 1280, 768 and 390 px land in
 * tests/e2e/screenshots/artist-*.png.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { outboxMailer } from '../../server/integrations/mail/outbox.driver';
import { localStorage } from '../../server/integrations/storage';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, startE2eApp, watchErrors, type E2eApp } from '../helpers/e2e';
import { createActiveMember, GOOD_PASSWORD, outboxMailbox } from '../helpers/auth';
import { chooseSubTag, dialog, toast, untilComplete } from '../helpers/e2e-upload';
import { wav } from '../helpers/media';

jest.setTimeout(180_000);
useTestDatabase();

const TABLET = { width: 768, height: 1024 };
let e2e: E2eApp;
let baseUrl: string;
let browser: Browser;
let work: string;
let outboxDir: string;
let artist: Awaited<ReturnType<typeof createActiveMember>>;
const files = { cover: '', song: '', artistCover: '' };

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'knack-e2e-artist-'));
  outboxDir = path.join(work, 'mail');
  mkdirSync(path.join(work, 'fixtures'));
  files.cover = path.join(work, 'fixtures', 'night-drive.png');
  files.artistCover = path.join(work, 'fixtures', 'kind-of-blue.png');
  for (const [file, hue] of [
    [files.cover, 280],
    [files.artistCover, 210],
  ] as const) {
    writeFileSync(
      file,
      await sharp({ create: { width: 800, height: 800, channels: 3, background: `hsl(${hue}, 60%, 45%)` } })
        .png()
        .toBuffer(),
    );
  }
  files.song = path.join(work, 'fixtures', 'night-drive.wav');
  writeFileSync(files.song, wav(4, 22_050));
  e2e = await startE2eApp({ mailer: outboxMailer(outboxDir, 'Knack <no-reply@knack.test>'), storage: localStorage(path.join(work, 'files')) });
  ({ baseUrl, browser } = e2e);
  artist = await createActiveMember(baseUrl, outboxMailbox(outboxDir), { username: 'miles_davis', firstName: 'Miles', lastName: 'Davis' });
}, 90_000);

afterAll(async () => {
  await e2e?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const chartPath = () => `/${artist.form.username}-music-top-50`;

/**
 * Sets the window's size and waits for the app to lay itself out for it: the top bar's menu button shows on a phone
 * only, and an open modal takes the whole screen on a phone only.
 */
async function resize(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  const phone = size.width < 600;
  await page.locator('.kn-topnav__burger').waitFor({ state: phone ? 'visible' : 'hidden' });
  if (await page.locator('.ant-modal-wrap:visible').count())
    await page
      .locator('.kn-phone-modal')
      .first()
      .waitFor({ state: phone ? 'attached' : 'detached' });
}

/** The page at 1280, 768 and 390 px (`artist-{name}-desktop`, `-tablet`, `-phone`), then back at 1280. */
async function shotAllWidths(page: Page, name: string) {
  for (const [size, suffix] of [
    [DESKTOP, 'desktop'],
    [TABLET, 'tablet'],
    [PHONE, 'phone'],
  ] as const) {
    await resize(page, size);
    await screenshot(page, `artist-${name}-${suffix}`);
  }
  await resize(page, DESKTOP);
}

/** The chart's song titles. */
async function chartTitles(page: Page): Promise<string[]> {
  const list = page.getByRole('list', { name: 'Top 50 songs' });
  await list.waitFor();
  return list.locator('.kn-top50__title').allTextContents();
}

/** Opens the Genre list and checks what Music 2 earns a play here, then picks `genre`. */
async function pickGenreSeeingMusic2(page: Page, modal: Locator, genre: string) {
  await modal.getByRole('combobox', { name: 'Genre' }).click();
  const music2 = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="Music 2"]');
  await music2.waitFor();
  expect(await music2.textContent()).toContain('$0.96 / play');
  await page.keyboard.press('Escape');
  await chooseSubTag(page, modal, 'Genre', genre);
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByRole('banner').getByRole('button', { name: 'Login', exact: true }).click();
  const modal = dialog(page, 'Log in');
  await modal.getByLabel('Email').fill(email);
  await modal.getByLabel('Password').fill(password);
  await modal.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForFunction(() => Boolean(window.localStorage.getItem('knack:account')), undefined, { timeout: 15_000 });
}

describe('artist pages in Chromium', () => {
  it('when a visitor enters a song in an artist’s Top 50, then the mailed link registers them, the song joins the chart, and they can sign in', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${baseUrl}${chartPath()}`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1, name: 'Miles Davis' }).waitFor();
    expect(await page.getByRole('button', { name: 'Upload to my page' }).count()).toBe(0);
    await shotAllWidths(page, 'chart-empty');

    await page.getByRole('button', { name: 'Upload to Top 50' }).click();
    const modal = dialog(page, 'Upload music (Top 50)');
    await modal.getByRole('heading', { name: "Upload music to Miles Davis's Top 50" }).waitFor();
    await modal.getByText('Step 1 of 2 · Details').waitFor();
    const email = `night.driver.${Date.now()}@example.com`;
    await modal.getByLabel('Title').fill('Night Drive');
    await modal.getByLabel('Email').fill('night.driver@');
    await modal.getByLabel('Description').click();
    await modal.getByText('Email must be valid').waitFor();
    await modal.getByLabel('Email').fill(email);
    await modal.getByLabel('Description').fill('Synths and a long road, recorded in one night.');
    await pickGenreSeeingMusic2(page, modal, 'Music 2');
    await modal.getByLabel('Cover photo', { exact: true }).setInputFiles(files.cover);
    await untilComplete(modal, 'Cover photo upload');
    await modal.getByLabel('Audio', { exact: true }).setInputFiles(files.song);
    await untilComplete(modal, 'Audio upload');
    expect(Number(await modal.getByRole('progressbar', { name: 'Form completion' }).getAttribute('aria-valuenow'))).toBe(100);
    await shotAllWidths(page, 'top50-step1');

    await modal.getByRole('button', { name: 'Next' }).click();
    await modal.getByRole('heading', { name: 'Is this your email?' }).waitFor();
    await modal.getByText(email).waitFor();
    await shotAllWidths(page, 'top50-step2');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/v2/content/save-top50'));
    await modal.getByRole('button', { name: 'Confirm and save' }).click();
    expect((await saved).status()).toBe(201);
    await toast(page, 'Check your email: your song joins the chart once you register from the link we sent.');
    await modal.waitFor({ state: 'hidden' });
    // Not on the chart until the address is confirmed.
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByText('No songs in this chart yet. Upload one to be the first.').waitFor();

    // The mail, and its link.
    const mail = await outboxMailbox(outboxDir).nextMailTo(email);
    const link = /https?:\/\/\S+-music-top-50\/[0-9a-f]{24}\?token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    expect(link!.startsWith(`${baseUrl}${chartPath()}/`)).toBe(true);

    await page.goto(link!, { waitUntil: 'networkidle' });
    const register = dialog(page, 'miles_davis register');
    await register.getByRole('heading', { name: 'Finish your registration' }).waitFor();
    await shotAllWidths(page, 'register');
    await register.getByLabel('Username').fill('night_driver');
    await register.getByLabel('Password', { exact: true }).fill(GOOD_PASSWORD);
    await register.getByLabel('Confirm password').fill(`${GOOD_PASSWORD}x`);
    await register.getByRole('button', { name: 'Register and publish my song' }).click();
    await register.getByText("Those passwords didn't match. Try again.").first().waitFor();
    await register.getByLabel('Confirm password').fill(GOOD_PASSWORD);
    await register.getByRole('button', { name: 'Register and publish my song' }).click();
    await toast(page, 'Successfully created an account.');
    await register.waitFor({ state: 'hidden' });
    await page.waitForURL(`${baseUrl}${chartPath()}`);
    await page.waitForFunction(() => Boolean(window.localStorage.getItem('knack:account')));
    await page.getByRole('list', { name: 'Top 50 songs' }).getByText('Night Drive').waitFor();
    expect(await chartTitles(page)).toEqual(['Night Drive']);
    await shotAllWidths(page, 'chart-registered');

    // Later, in a fresh browser: the new member signs in with the password chosen.
    const later = await browser.newContext({ viewport: DESKTOP });
    const again = await later.newPage();
    await again.goto(baseUrl, { waitUntil: 'networkidle' });
    await logIn(again, email, GOOD_PASSWORD);
    const account = await again.evaluate(() => JSON.parse(window.localStorage.getItem('knack:account') ?? '{}') as { user?: { username: string } });
    expect(account.user?.username).toBe('night_driver');
    await later.close();

    expect(errors).toEqual([]);
    await context.close();
  });

  it('when the artist uploads from their own page, then the artist modal saves the song and the page reloads with it on the chart', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${baseUrl}${chartPath()}`, { waitUntil: 'networkidle' });
    await logIn(page, artist.form.email, artist.form.password);
    await page.goto(`${baseUrl}${chartPath()}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Upload to my page' }).click();
    const modal = dialog(page, 'Upload to the artist page');
    await modal.getByRole('heading', { name: "Upload to Miles Davis's artist page" }).waitFor();
    await modal.getByLabel('Title').fill('So What (live)');
    await pickGenreSeeingMusic2(page, modal, 'Jazz');
    await modal.getByLabel('Description').fill('Recorded at the club, second set.');
    await modal.getByLabel('Audio', { exact: true }).setInputFiles(files.song);
    await untilComplete(modal, 'Audio upload');
    await modal.getByLabel('Cover photo', { exact: true }).setInputFiles(files.artistCover);
    await untilComplete(modal, 'Cover photo upload');
    await shotAllWidths(page, 'artist-modal');

    const saved = page.waitForResponse((r) => r.url().endsWith('/api/v2/content/save-artist'));
    const reloaded = page.waitForEvent('load');
    await modal.getByRole('button', { name: 'Upload', exact: true }).click();
    expect((await saved).status()).toBe(201);
    await reloaded;
    await page.getByRole('list', { name: 'Top 50 songs' }).getByText('So What (live)').waitFor();
    expect((await chartTitles(page)).sort()).toEqual(['Night Drive', 'So What (live)']);
    await shotAllWidths(page, 'chart-artist');

    expect(errors).toEqual([]);
    await context.close();
  });
});
