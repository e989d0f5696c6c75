/**
 * End to end, the community: the production build of the SPA served by the real app on the real database, driven
 * in Chromium as two new members would. Bea follows Ana from Ana's profile (both counts move, the follow modal
 * lists her), opens Ana's song, comments at 0:03 and sees the marker on the waveform; a comment written as markup
 * shows as text; Bea flags a piece. Ana sees the comment in her piece's detail, then takes Bea off her followers.
 * Screenshots at 1280 and 390 px land in tests/e2e/screenshots/community-*.png.
 */
import { Types } from 'mongoose';
import type { Locator, Page } from 'playwright-core';
import { FlagModel } from '../../server/modules/flags';
import { FollowModel } from '../../server/modules/follows';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, watchErrors } from '../helpers/e2e';
import { signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';

jest.setTimeout(180_000);
useTestDatabase();

const world = usePiecesWorld('community');
const SONG = 'Harbour Song';
const PHOTO = 'Quiet Pier';
const MARKUP = '<img src=x onerror=alert(1)>';

beforeAll(async () => {
  await world.publish(world.ana, { title: SONG, tag: 'Music', subTag: 'Jazz', hue: 205, seconds: 8, description: 'Eight seconds by the water.' });
  await world.publish(world.ana, { title: PHOTO, tag: 'Photos', subTag: 'Travel', hue: 30 });
}, 150_000);

const shot = (page: Page, name: string) => screenshot(page, `community-${name}`);
const detail = (page: Page): Locator => page.locator('.kn-detail-modal [role="dialog"]');

/** Opens one of Ana's pieces from her profile's uploads. */
async function openFromProfile(page: Page, title: string): Promise<Locator> {
  await page.getByRole('link', { name: title, exact: true }).first().click();
  await page.locator('.kn-detail__title').filter({ hasText: title }).waitFor();
  const modal = detail(page);
  await modal.getByRole('heading', { name: /^Comments/ }).waitFor();
  return modal;
}

describe('following, comments and flags in Chromium', () => {
  it('when Bea follows Ana, comments on her song at 0:03 and flags a piece at 1280 px, then the counts, the comment, its marker and the flag are there', async () => {
    const { ana, bea } = world;
    const page = await signedInPage(world, bea, { viewport: DESKTOP });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/${ana.form.username}`, { waitUntil: 'networkidle' });

    // Follow from the profile: the button, the toast, Ana's followers and Bea's following in the side menu.
    const header = page.locator('.kn-profile-head');
    await header.getByRole('button', { name: 'Follow Ana Lima' }).click();
    await page.getByText('You are following Ana Lima now').waitFor();
    await header.getByRole('button', { name: 'Unfollow Ana Lima' }).waitFor();
    await header.getByRole('button', { name: '1 follower' }).waitFor();
    await page.locator('.kn-account').getByRole('button', { name: '1 following' }).waitFor();
    await shot(page, 'follow-desktop');

    // The follow modal lists Bea (her own row: no button), and her row goes to her own profile.
    await header.getByRole('button', { name: '1 follower' }).click();
    const followModal = page.getByRole('dialog', { name: 'Follow' });
    const row = followModal.locator('.kn-follow-row').filter({ hasText: 'bea moon' });
    await row.waitFor();
    expect(await row.getByRole('button', { name: /Follow/ }).count()).toBe(0);
    await shot(page, 'follow-modal-desktop');
    await row.getByRole('button', { name: 'bea moon' }).click();
    await followModal.waitFor({ state: 'hidden' });
    await page.waitForURL(`${world.baseUrl}/profile/default`);
    await page.goto(`${world.baseUrl}/${ana.form.username}`, { waitUntil: 'networkidle' });

    // The song: play, pause, seek to 3.2 s on the waveform, then a comment there.
    const modal = await openFromProfile(page, SONG);
    await modal.locator('.kn-wave canvas').waitFor();
    await modal.getByRole('button', { name: 'Play' }).click();
    await page.waitForFunction(() => Number(document.querySelector('.kn-wave [role="slider"]')?.getAttribute('aria-valuenow')) > 0);
    await modal.getByRole('button', { name: 'Pause' }).click();
    const wave = (await modal.locator('.kn-wave__frame').boundingBox())!;
    await page.mouse.click(wave.x + (wave.width * 3.2) / 8, wave.y + wave.height / 2);
    await modal
      .locator('.kn-wave__time')
      .filter({ hasText: /^0:03 \// })
      .waitFor();
    const box = modal.getByLabel('Your comment');
    await box.click();
    await box.fill('That chord, right there.');
    const timed = modal.getByRole('checkbox', { name: 'at 0:03' });
    expect(await timed.isChecked()).toBe(true);
    await modal.getByRole('button', { name: 'Comment', exact: true }).click();
    const comment = modal.locator('.kn-comment').filter({ hasText: 'That chord, right there.' });
    await comment.getByRole('button', { name: 'Play from 0:03' }).waitFor();
    await modal.getByRole('button', { name: 'Comment by Bea Moon at 0:03: play from there' }).waitFor();
    await modal.getByText('1 comment', { exact: true }).waitFor();
    await shot(page, 'comment-desktop');

    // The photo: a comment written as markup shows as that text, and runs nothing; then the flag.
    await page.keyboard.press('Escape');
    const photo = await openFromProfile(page, PHOTO);
    await photo.getByLabel('Your comment').fill(MARKUP);
    await photo.getByRole('button', { name: 'Comment', exact: true }).click();
    const shown = photo.locator('.kn-comment__text').filter({ hasText: MARKUP });
    await shown.waitFor();
    expect(await shown.innerText()).toBe(MARKUP);
    expect(await photo.locator('.kn-comment img').count()).toBe(0);

    await photo.getByRole('button', { name: 'Flag' }).click();
    const flagModal = page.getByRole('dialog', { name: 'Flag this piece' });
    await flagModal.getByRole('button', { name: 'Wrong market for content genre' }).waitFor();
    await shot(page, 'flag-desktop');
    await flagModal.getByRole('button', { name: 'Wrong market for content genre' }).click();
    await page.getByText('Thank you. Our team will look into it.').waitFor();
    expect(await FlagModel.find({}, { reason: 1, _id: 0 }).lean()).toEqual([{ reason: 'Wrong market for content genre' }]);

    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('when Ana opens her song at 390 px, then she sees Bea’s comment and its time, and no comment box on her own piece', async () => {
    const page = await signedInPage(world, world.ana, { viewport: PHONE });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/${world.ana.form.username}`, { waitUntil: 'networkidle' });
    await page.locator('.kn-profile-head').getByRole('button', { name: '1 follower' }).waitFor();
    const modal = await openFromProfile(page, SONG);
    const comment = modal.locator('.kn-comment').filter({ hasText: 'That chord, right there.' });
    await comment.waitFor();
    expect(await comment.locator('.kn-comment__name').innerText()).toBe('Bea Moon');
    await comment.getByRole('button', { name: 'Play from 0:03' }).waitFor();
    expect(await modal.getByLabel('Your comment').count()).toBe(0);
    await comment.scrollIntoViewIfNeeded();
    await shot(page, 'comment-phone');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('when Ana takes Bea off her followers at 1280 px, then she is asked first, Bea’s row goes and the count reads 0 followers', async () => {
    const { ana } = world;
    const page = await signedInPage(world, ana, { viewport: DESKTOP });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/${ana.form.username}`, { waitUntil: 'networkidle' });
    const header = page.locator('.kn-profile-head');
    await header.getByRole('button', { name: '1 follower' }).click();
    const followModal = page.getByRole('dialog', { name: 'Follow' });
    const row = followModal.locator('.kn-follow-row').filter({ hasText: 'bea moon' });
    const remove = row.getByRole('button', { name: /^Remove bea moon .* from your followers$/ });
    await remove.waitFor();
    await shot(page, 'own-followers-desktop');
    await remove.click();
    const question = page.getByRole('dialog', { name: 'Remove this follower?' });
    await question.getByText(/^bea moon .* will no longer follow you, and will not see your pieces shown to followers\./).waitFor();
    await shot(page, 'remove-follower-desktop');
    await question.getByRole('button', { name: 'Remove' }).click();
    await page.getByText(/^bea moon .* no longer follows you$/).waitFor();
    await row.waitFor({ state: 'detached' });
    await followModal.getByRole('tab', { name: 'Followers (0)' }).waitFor();
    await page.keyboard.press('Escape');
    await header.getByRole('button', { name: '0 followers' }).waitFor();
    expect(await FollowModel.countDocuments({ followedId: new Types.ObjectId(ana.user.id) })).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
