/**
 * Replacing a piece's file in Chromium, on the production build and the real database: Ana opens her song from
 * Explore, chooses Replace file in its owner's menu and sends a new cover; the detail, the Explore card, her profile
 * and the embeddable player show the new cover at once (its new keys), and the cover it replaced is listed under
 * Versions, from where she restores it. The modal is looked at at 1280 and 390 px (screenshots in
 * tests/e2e/screenshots/replace-file-*.png) and axe finds nothing serious in it.
 */
import type { Locator, Page } from 'playwright-core';
import request from 'supertest';
import { seriousViolations } from '../helpers/axe';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, watchErrors } from '../helpers/e2e';
import { coverPng, signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';
import { dialog, toast } from '../helpers/e2e-upload';

useTestDatabase();
jest.setTimeout(150_000);

const world = usePiecesWorld('replace');

beforeAll(async () => {
  await world.publish(world.ana, { title: 'Tide Song', tag: 'Music', subTag: 'Jazz', hue: 205, seconds: 3 });
  await world.publish(world.bea, { title: 'Dune Light', tag: 'Photos', subTag: 'Travel', hue: 40 });
}, 120_000);

/** The random part of a stored key (`images/2026/11/<this>.png`, `…/<this>-mthumb.webp`): one per upload. */
const uploadOf = (url: string) => /\/([0-9a-f]{24})(?:-[a-z]+)?\.[a-z0-9]+(?:\?|$)/.exec(url)?.[1] ?? '';

/** The piece as a visitor reads it now. */
async function piece(id: string) {
  return (await request(world.baseUrl).get(`/api/v2/content/get-by-id/${id}`).expect(200)).body.content as { coverPath: string; filePath: string };
}

/** The upload the images in `scope` show (waits until one is drawn from `upload` when given). */
async function shownUpload(scope: Locator, upload?: string): Promise<string> {
  const image = upload ? scope.locator(`img[src*="${upload}"]`).first() : scope.locator('img').first();
  await image.waitFor();
  return uploadOf((await image.getAttribute('src'))!);
}

async function ownerMenu(page: Page, title: string) {
  const detail = page.locator('.kn-detail-modal [role="dialog"]');
  await detail.locator('.kn-detail__title').filter({ hasText: title }).waitFor();
  await detail.getByRole('button', { name: `Options for ${title}` }).click();
  return detail;
}

describe('replacing a cover in Chromium', () => {
  it('when Ana sends a new cover for her song, then the detail, Explore, her profile and the embed show it at once, and she can restore the old one', async () => {
    const song = world.pieces['Tide Song']!;
    const before = uploadOf((await piece(song.id)).coverPath);
    const page = await signedInPage(world, world.ana, { viewport: DESKTOP });
    const errors = watchErrors(page);
    // The embed, open in another tab of a visitor, before the change.
    const embed = await world.browser.newPage({ viewport: { width: 640, height: 480 } });
    const embedUrl = `${world.baseUrl}/music-player.html?userName=${world.ana.form.username}&contentId=${song.id}&options=7`;
    await embed.goto(embedUrl);
    expect(await shownUpload(embed.locator('.kp-stage'))).toBe(before);

    await page.goto(`${world.baseUrl}/explore`, { waitUntil: 'networkidle' });
    const card = page.getByRole('article').filter({ hasText: 'Tide Song' });
    expect(await shownUpload(card)).toBe(before);
    await card.getByRole('link', { name: 'Tide Song', exact: true }).first().click();
    const detail = await ownerMenu(page, 'Tide Song');
    expect(await shownUpload(detail.locator('.kn-detail__stage'), before)).toBe(before);
    await page.getByRole('menuitem', { name: /Replace file/ }).click();

    const modal = dialog(page, 'Replace file');
    await modal.getByText('No earlier files. A file you replace is kept here for 30 days.').waitFor();
    await modal.getByText('song.wav').waitFor();
    expect(await seriousViolations(page, 'replace-file modal', ['.kn-replace-modal'])).toEqual([]);
    await screenshot(page, 'replace-file-modal-desktop');

    // A file that is not a picture is refused before it is sent, with the upload's message.
    await modal.locator('#kn-replace-image').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await modal.getByRole('alert').filter({ hasText: 'Only PNG and JPEG images are accepted.' }).waitFor();

    await modal.locator('#kn-replace-image').setInputFiles({ name: 'sunrise.png', mimeType: 'image/png', buffer: await coverPng(20, 640) });
    await toast(page, 'The new file is in place.');
    const after = uploadOf((await piece(song.id)).coverPath);
    expect(after).not.toBe(before);
    const versions = modal.getByRole('list').filter({ has: page.getByRole('button', { name: /^Restore cover/ }) });
    await versions.getByText('Cover', { exact: true }).waitFor();
    expect(await versions.getByRole('listitem').count()).toBe(1);
    expect(await shownUpload(modal.locator('.kn-replace__file--image'), after)).toBe(after);
    await screenshot(page, 'replace-file-replaced-desktop');
    await page.setViewportSize(PHONE);
    await page.locator('.kn-replace-modal.kn-phone-modal').waitFor({ state: 'attached' });
    expect(await seriousViolations(page, 'replace-file modal on a phone', ['.kn-replace-modal'])).toEqual([]);
    await screenshot(page, 'replace-file-replaced-phone');
    await page.setViewportSize(DESKTOP);
    await page.locator('.kn-replace-modal.kn-phone-modal').waitFor({ state: 'detached' });

    // Everywhere at once: the detail behind the modal, then Explore's card, the profile and the embed.
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'hidden' });
    expect(await shownUpload(detail.locator('.kn-detail__stage'), after)).toBe(after);
    await screenshot(page, 'replace-file-detail-desktop');
    await detail.getByRole('button', { name: 'Close', exact: true }).first().click();
    await detail.waitFor({ state: 'hidden' });
    expect(await shownUpload(card, after)).toBe(after);
    await page.goto(`${world.baseUrl}/${world.ana.form.username}`, { waitUntil: 'networkidle' });
    expect(await shownUpload(page.getByRole('article').filter({ hasText: 'Tide Song' }), after)).toBe(after);
    await embed.reload();
    expect(await shownUpload(embed.locator('.kp-stage'), after)).toBe(after);
    await screenshot(embed, 'replace-file-embed');

    // The old cover comes back from Versions; the one it replaced becomes a version in turn.
    await page.goto(`${world.baseUrl}${song.link}`, { waitUntil: 'networkidle' });
    await ownerMenu(page, 'Tide Song');
    await page.getByRole('menuitem', { name: /Replace file/ }).click();
    await modal.getByRole('button', { name: /^Restore cover/ }).click();
    await toast(page, 'The earlier file is back in place.');
    expect(uploadOf((await piece(song.id)).coverPath)).toBe(before);
    await modal.getByRole('button', { name: 'Restore cover sunrise.png' }).waitFor();
    await modal.getByRole('button', { name: 'Close' }).click();
    expect(await shownUpload(page.locator('.kn-detail__stage'), before)).toBe(before);
    expect(errors).toEqual([]);
    await embed.close();
    await page.context().close();
  });

  it('when a member opens another member’s piece, then its menu offers no Replace file (the server would answer 404)', async () => {
    const page = await signedInPage(world, world.ana, { viewport: PHONE });
    await page.goto(`${world.baseUrl}${world.pieces['Dune Light']!.link}`, { waitUntil: 'networkidle' });
    const detail = page.getByRole('dialog').filter({ has: page.locator('.kn-detail__title', { hasText: 'Dune Light' }) });
    await detail.locator('.kn-detail__title').waitFor();
    expect(await detail.getByRole('button', { name: 'Options for Dune Light' }).count()).toBe(0);
    await screenshot(page, 'replace-file-other-member-phone');
    await page.context().close();
  });
});
