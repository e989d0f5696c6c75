/**
 * Posting to Instagram in Chromium, against the Instagram stand-in (tests/helpers/instagram-standin.ts): Bea opens
 * Ana's photo from its share link, presses Instagram in Share, connects her account (the browser really goes to the
 * stand-in's consent page and comes back through /instagram/callback to the same piece), then posts it. The stand-in
 * fetched the picture from the app and holds the post with the piece's link. Screenshots at 1280 and 390 px.
 */
import type { Page } from 'playwright-core';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, screenshotBothWidths, watchErrors } from '../helpers/e2e';
import { signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';
import { startInstagramStandIn, type InstagramStandIn } from '../helpers/instagram-standin';

jest.setTimeout(150_000);
useTestDatabase();

let standIn: InstagramStandIn;
beforeAll(async () => {
  standIn = await startInstagramStandIn({ userId: '17841400000000002', username: 'bea.moon.photo' });
});
afterAll(async () => standIn.stop());

const world = usePiecesWorld('instagram', () => ({ config: { instagram: standIn.appConfig() } }));

/** The piece's detail from its share link, then Share, then Instagram: the share modal. */
async function pressInstagram(page: Page, link: string, title: string) {
  await page.goto(`${world.baseUrl}${link}`);
  const detail = page.getByRole('dialog').filter({ has: page.locator('.kn-detail__title', { hasText: title }) });
  await detail.getByRole('button', { name: 'Share', exact: true }).click();
  const share = page.locator('.kn-share .ant-modal');
  await share.getByRole('button', { name: 'Share on Instagram' }).click();
  return share;
}

it('when Bea connects her Instagram from a piece’s Share and posts it, then she comes back to the piece and Instagram holds the post', async () => {
  const piece = await world.publish(world.ana, { title: 'Old Harbor', tag: 'Photos', subTag: 'Travel', hue: 200, coverSide: 400 });
  const page = await signedInPage(world, world.bea, { viewport: DESKTOP });
  const errors = watchErrors(page);

  let share = await pressInstagram(page, piece.link, 'Old Harbor');
  await share.getByRole('button', { name: 'Connect Instagram' }).waitFor();
  await screenshotBothWidths(page, 'instagram-connect', { fullPage: false });
  await share.getByRole('button', { name: 'Connect Instagram' }).click();

  // To the stand-in's consent page and back through the callback, to the piece, told once.
  await page.getByText('Instagram is connected: press Instagram in a piece’s Share to post it.').waitFor();
  expect(new URL(page.url()).pathname).toBe(piece.link);
  expect(new URL(page.url()).search).toBe('');

  await page.keyboard.press('Escape');
  share = await pressInstagram(page, piece.link, 'Old Harbor');
  await share.getByText('@bea.moon.photo', { exact: true }).waitFor();
  await share.getByText(`Old Harbor by Ana Lima on Knack`).waitFor();
  await screenshotBothWidths(page, 'instagram-post', { fullPage: false });
  await share.getByRole('button', { name: 'Post to Instagram' }).click();
  await page.getByText('The content was shared to Instragram Successfully.').waitFor();
  await share.getByRole('link', { name: 'See the post on Instagram' }).waitFor();

  expect(standIn.posts).toHaveLength(1);
  expect(standIn.posts[0]!.caption).toBe(`Old Harbor by Ana Lima on Knack\n${world.baseUrl}${piece.link}`);
  expect(standIn.posts[0]!.image.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  expect(errors).toEqual([]);
  await page.context().close();
});
