/**
 * End to end, share and embed: the production build served by the real app on the real database, in Chromium.
 * A visitor opens Ana's song from its share link, opens Share, takes the embed snippet from the Embed tab; a
 * plain HTML page on another origin (a tiny node:http server on another port) holds that iframe; the song
 * plays inside the frame (its audio time advances), and the play count goes up by one, on the page and in the
 * database. Screenshots at 1280 and 390 px land in tests/e2e/screenshots/embed-*.png.
 */
import type { Page } from 'playwright-core';
import { ContentModel } from '../../server/modules/contents';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, watchErrors } from '../helpers/e2e';
import { blogPost, playerFrame, startHostSite, type HostSite } from '../helpers/e2e-host-site';
import { usePiecesWorld } from '../helpers/e2e-pieces';
import { untilEqual } from '../helpers/wait';

jest.setTimeout(180_000);
useTestDatabase();

const world = usePiecesWorld('embed');
let host: HostSite;
let hostUrl = '';

beforeAll(async () => {
  await world.publish(world.ana, { title: 'Harbor Lights', tag: 'Music', subTag: 'Jazz', hue: 205, seconds: 6 });
  const secret = await world.publish(world.ana, { title: 'Private Demo', tag: 'Music', subTag: 'Jazz', hue: 20, seconds: 2 });
  await ContentModel.updateOne({ _id: secret.id }, { $set: { setting: { public: false, private: true, followers: false } } });
  host = await startHostSite();
  hostUrl = `http://127.0.0.1:${host.port}`;
}, 150_000);

afterAll(async () => {
  await host?.close();
});

/** The snippet the Embed tab gives for `size`, read from the share modal as a visitor sees it. */
async function snippetFromShareModal(page: Page, size: 'Large' | 'Medium' | 'Small', shot: string): Promise<string> {
  await page.goto(`${world.baseUrl}${world.pieces['Harbor Lights']!.link}`);
  const detail = page.getByRole('dialog').filter({ has: page.locator('.kn-detail__title', { hasText: 'Harbor Lights' }) });
  await detail.getByRole('button', { name: 'Share', exact: true }).click();
  const share = page.locator('.kn-share .ant-modal');
  await share.getByRole('link', { name: 'Share on Twitter' }).waitFor();
  await screenshot(page, shot.replace('share-modal', 'share-tab'));
  await share.getByRole('tab', { name: 'Embed' }).click();
  await share.getByRole('radio', { name: new RegExp(`^${size}`) }).check();
  await screenshot(page, shot);
  return share.getByLabel('Embed code').inputValue();
}

describe('the embed snippet in a plain HTML page', () => {
  it('when a visitor embeds the song at 1280 px, then it plays inside the frame and the play count goes up by one', async () => {
    const context = await world.browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const snippet = await snippetFromShareModal(page, 'Medium', 'embed-share-modal-1280');
    const piece = world.pieces['Harbor Lights']!;
    expect(snippet).toBe(
      `<iframe src="${world.baseUrl}/music-player.html?userName=${world.ana.form.username}&contentId=${piece.id}&options=7" width="640" height="480" ` +
        'title="Harbor Lights on Knack" frameborder="0" allow="autoplay; encrypted-media" loading="lazy"></iframe>',
    );

    host.serve('/post', blogPost(snippet));
    await page.goto(`${hostUrl}/post`);
    const frame = await playerFrame(page);
    // Header (1) and footer (2) of the default mask 7; the waveform drawn from the stored peaks.
    expect(await frame.locator('.kp-title').innerText()).toBe('Harbor Lights');
    expect(await frame.locator('.kp-owner').innerText()).toBe('by Ana Lima');
    expect(await frame.locator('.kp-footer .kp-brand').innerText()).toBe('Knack');
    expect(await frame.locator('.kp-count').innerText()).toBe('0 plays');
    const drawn = await frame.locator('.kp-wave canvas').evaluate((canvas: HTMLCanvasElement) => {
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let painted = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) painted += 1;
      return painted / (canvas.width * canvas.height);
    });
    expect(drawn).toBeGreaterThan(0.05);
    await screenshot(page, 'embed-host-1280-ready');

    await frame.getByRole('button', { name: 'Play' }).click();
    await frame.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 1, undefined, { timeout: 15_000 });
    await frame.getByRole('button', { name: 'Pause' }).waitFor();
    await frame.locator('.kp-count', { hasText: '1 play' }).waitFor();
    await screenshot(page, 'embed-host-1280-playing');
    await frame.getByRole('button', { name: 'Pause' }).click();
    expect(await frame.evaluate(() => document.querySelector('audio')!.paused)).toBe(true);
    // Seeking: a click three quarters along the waveform.
    const wave = frame.locator('.kp-wave');
    const box = (await wave.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
    const position = await frame.evaluate(() => document.querySelector('audio')!.currentTime / document.querySelector('audio')!.duration);
    expect(position).toBeGreaterThan(0.65);
    expect(position).toBeLessThan(0.85);

    await untilEqual(async () => (await ContentModel.findById(piece.id).lean())!.playCount, 1);
    // Played again (the same visitor, the same day): still one.
    await frame.getByRole('button', { name: 'Play' }).click();
    await frame.getByRole('button', { name: 'Pause' }).click();
    expect((await ContentModel.findById(piece.id).lean())!.playCount).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('when the small snippet sits in a page at 390 px, then the player fits the frame', async () => {
    const context = await world.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const snippet = await snippetFromShareModal(page, 'Small', 'embed-share-modal-390');
    expect(snippet).toContain('width="400" height="300"');
    host.serve('/phone', blogPost(snippet));
    await page.goto(`${hostUrl}/phone`);
    const frame = await playerFrame(page);
    await frame.getByRole('button', { name: 'Play' }).waitFor();
    // The controls stay inside the frame (300 px high).
    const controls = (await frame.locator('.kp-controls').boundingBox())!;
    const iframe = (await page.locator('iframe').boundingBox())!;
    expect(controls.y + controls.height).toBeLessThanOrEqual(iframe.y + iframe.height + 1);
    await screenshot(page, 'embed-host-390');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('when the piece is private or the user name does not match, then the frame says it is not available', async () => {
    const page = await world.browser.newPage({ viewport: DESKTOP });
    const secret = world.pieces['Private Demo']!;
    const song = world.pieces['Harbor Lights']!;
    for (const query of [
      `userName=${world.ana.form.username}&contentId=${secret.id}`,
      `userName=${world.bea.form.username}&contentId=${song.id}`,
      'userName=x',
    ]) {
      await page.goto(`${world.baseUrl}/music-player.html?${query}`);
      await page.locator('.kp-note', { hasText: 'This piece is not available.' }).waitFor();
      expect(await page.getByRole('button', { name: 'Play' }).count()).toBe(0); // no player for it
    }
    await screenshot(page, 'embed-not-available');
    await page.close();
  });
});
