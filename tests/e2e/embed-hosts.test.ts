/**
 * End to end, earnings by embed host and the embed's Slideshow and Quintos: the production build served by the real
 * app on the real database (at 127.0.0.1), and Chromium mapping `*.fans.test` to loopback, so that a fan's blog at
 * `http://blog.fans.test:{port}` (a tiny node:http server) is another site. A visitor plays Ana's song in the blog's
 * player; Bea signs in from the player through the Knack window it opens (the frame cannot use her Knack session) and
 * her play past half the song knacks it; once the rollups job has run, Ana's wallet shows both plays and the knack's
 * earnings under fans.test. An embed with Slideshow and Quintos changes its picture while the song plays (by itself,
 * or by its button where less motion is asked for) and plays the artist's next song when one ends. The share modal
 * says what each option does and previews the player. Screenshots at 1280 and 390 px in tests/e2e/screenshots.
 */
import { Types } from 'mongoose';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import request from 'supertest';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/chromium';
import { runEarningsRollups } from '../../server/modules/analytics';
import { ContentModel } from '../../server/modules/contents';
import { LedgerEntryModel, type LedgerEntryDoc } from '../../server/modules/ledger';
import { EmbedPlayModel } from '../../server/modules/share';
import { refreshCookieOf } from '../helpers/auth';
import { seriousViolations } from '../helpers/axe';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, screenshotBothWidths, watchErrors } from '../helpers/e2e';
import { blogPost, playerFrame, startHostSite, type HostSite } from '../helpers/e2e-host-site';
import { signedInPage, usePiecesWorld, type Member } from '../helpers/e2e-pieces';

jest.setTimeout(240_000);
useTestDatabase();

const world = usePiecesWorld('embed-hosts');
/** Chromium that takes `*.fans.test` to this machine: the fan's blog is a site of its own. */
let browser: Browser;
let blog: HostSite;
let blogUrl = '';

beforeAll(async () => {
  // Oldest first: the artist's songs newest first are Night Ferry, Tide Song, Harbor Lights.
  await world.publish(world.ana, { title: 'Harbor Lights', tag: 'Music', subTag: 'Jazz', hue: 205, seconds: 6 });
  await world.publish(world.ana, { title: 'Lighthouse', tag: 'Art', subTag: 'Pixel Art', hue: 40 });
  await world.publish(world.ana, { title: 'Tide Song', tag: 'Music', subTag: 'Jazz', hue: 320, seconds: 3 });
  await world.publish(world.ana, { title: 'Night Ferry', tag: 'Music', subTag: 'Jazz', hue: 120, seconds: 3 });
  // Listed by Ana herself (as the listing-fee payment leaves it): each knack credits her its whole value.
  await ContentModel.updateOne({ _id: world.pieces['Harbor Lights']!.id }, { $set: { isPaidOut: true, payerId: new Types.ObjectId(world.ana.user.id) } });
  blog = await startHostSite();
  blogUrl = `http://blog.fans.test:${blog.port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS, '--host-resolver-rules=MAP *.fans.test 127.0.0.1'] });
}, 150_000);

/** The contexts a test opened, closed after it whatever happened (an open page would keep the app from stopping). */
const opened: BrowserContext[] = [];
const track = <T extends BrowserContext>(context: T) => (opened.push(context), context);
afterEach(async () => {
  await Promise.all(opened.splice(0).map((context) => context.close().catch(() => undefined)));
});

afterAll(async () => {
  await browser?.close();
  await blog?.close();
});

/** The embed snippet for Ana's song with the option mask and size, as the share modal writes it. */
function snippet(title: string, mask: number, width = 640, height = 480): string {
  const piece = world.pieces[title]!;
  const src = `${world.baseUrl}/music-player.html?userName=${world.ana.form.username}&contentId=${piece.id}&options=${mask}`;
  return `<iframe src="${src}" width="${width}" height="${height}" title="${title} on Knack" frameborder="0" allow="autoplay; encrypted-media" loading="lazy"></iframe>`;
}

/** A post of the fan's blog at `path` with the player in it: its address. */
function post(path: string, player: string): string {
  blog.serve(path, blogPost(player));
  return `${blogUrl}${path}`;
}

/**
 * A browser where `member` is signed in on Knack as a login leaves it (the refresh cookie, the account in Knack's own
 * storage), written only into Knack's own top-level pages: a Knack frame on another site starts without it, as it
 * does for a real member.
 */
async function memberContext(member: Member): Promise<BrowserContext> {
  const signin = await request(world.baseUrl).post('/api/v2/auth/signin').send({ email: member.form.email, password: member.form.password }).expect(200);
  const context = track(await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' }));
  await context.addCookies([
    { name: 'knack_refresh', value: refreshCookieOf(signin)!, domain: '127.0.0.1', path: '/api/v2/auth', httpOnly: true, sameSite: 'Strict' },
  ]);
  const account = JSON.stringify({ user: signin.body.user, token: signin.body.token });
  await context.addInitScript(
    ({ origin, value }) => {
      if (window.location.origin === origin && window.top === window) window.localStorage.setItem('knack:account', value);
    },
    { origin: world.baseUrl, value: account },
  );
  return context;
}

describe('plays and earnings by the site that embedded the player', () => {
  it('when a visitor plays Ana’s song on a fan’s blog and Bea signs in from the player and knacks it, then Ana’s wallet shows them under fans.test', async () => {
    const song = world.pieces['Harbor Lights']!;
    const address = post('/2030/sea-songs', snippet('Harbor Lights', 7));

    // A visitor: their play is counted under the blog's site.
    const visitor = track(await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' }));
    const visitorPage = await visitor.newPage();
    const visitorErrors = watchErrors(visitorPage);
    await visitorPage.goto(address);
    const visitorFrame = await playerFrame(visitorPage);
    expect(await visitorFrame.evaluate(() => document.referrer)).toBe(`${blogUrl}/`);
    await visitorFrame.getByRole('button', { name: 'Play', exact: true }).click();
    await visitorFrame.locator('.kp-count', { hasText: '1 play' }).waitFor();
    await visitor.close();
    expect(visitorErrors).toEqual([]);

    // Bea: the frame on the blog does not have her Knack session; the Knack window it opens hands it over.
    const context = await memberContext(world.bea);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(address);
    const frame = await playerFrame(page);
    const signIn = frame.getByRole('button', { name: 'Sign in to knack' });
    await screenshot(page, 'embed-hosts-blog-1280');
    const [knackWindow] = await Promise.all([context.waitForEvent('page'), signIn.click()]);
    expect(new URL(knackWindow.url()).pathname).toBe('/music-player.html');
    await knackWindow.waitForEvent('close', { timeout: 15_000 });
    await frame.locator('.kp-member', { hasText: 'Knacking as Bea' }).waitFor();
    await frame.getByRole('button', { name: 'Play', exact: true }).click();
    // Past half of the 6-second song the knack is made, as on Knack.
    await frame.locator('.kp-member', { hasText: 'Thank you for being apart of our Community.' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'embed-hosts-blog-knacked-1280');
    expect(errors).toEqual([]);
    await context.close();

    const entry = (await LedgerEntryModel.findById(`knack:${song.id}:${world.bea.user.id}`).lean<LedgerEntryDoc>())!;
    expect(entry.embedHost).toBe('fans.test');
    const credited = entry.legs.find((leg) => leg.account === `user:${world.ana.user.id}`)!.amountMicros;
    expect(credited).toBeGreaterThan(0);
    expect((await EmbedPlayModel.find({ contentId: song.id }).lean()).map((play) => play.host)).toEqual(['fans.test', 'fans.test']);

    // Counted by the rollups job; then Ana's wallet shows where her embeds earn.
    await runEarningsRollups();
    const wallet = await signedInPage(world, world.ana, { viewport: DESKTOP });
    track(wallet.context());
    const walletErrors = watchErrors(wallet);
    await wallet.goto(`${world.baseUrl}/wallet`);
    const table = wallet.getByRole('table', { name: 'Where your embeds earn' });
    const rows = table.locator('tbody tr');
    await rows.first().waitFor();
    const cells = async (row: number) => (await rows.nth(row).locator('th, td').allInnerTexts()).map((text) => text.trim());
    const usd = `$${(Math.floor(credited / 10_000) / 100).toFixed(2)}`;
    expect(await cells(0)).toEqual(['fans.test', '2', '1', usd]);
    expect((await table.locator('tfoot tr').locator('th, td').allInnerTexts()).map((text) => text.trim())).toEqual(['Total', '2', '1', usd]);
    expect(await seriousViolations(wallet, 'the wallet with where its embeds earn', ['.kn-hosts'])).toEqual([]);
    await screenshotBothWidths(wallet, 'embed-hosts-wallet', { focus: table, fullPage: false });
    expect(walletErrors).toEqual([]);
    await wallet.context().close();
  });
});

describe('the embed’s Slideshow and Quintos', () => {
  it('when the song plays in an embed with Slideshow and Quintos at 1280 px, then its picture changes by itself and the next song plays when it ends', async () => {
    const address = post('/2030/all-of-ana', snippet('Harbor Lights', 15));
    const context = track(await browser.newContext({ viewport: DESKTOP, reducedMotion: 'no-preference' }));
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(address);
    const frame = await playerFrame(page);
    const queue = frame.getByRole('region', { name: 'Up next' });
    await queue.getByRole('button').first().waitFor();
    // The songs after Harbor Lights in Ana's newest-first list, wrapping round: Night Ferry, then Tide Song.
    expect(await queue.getByRole('button').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')))).toEqual([
      'Play Night Ferry (0:03)',
      'Play Tide Song (0:03)',
    ]);
    await screenshot(page, 'embed-hosts-quintos-1280');

    const shownPicture = () => frame.locator('.kp-cover--shown').getAttribute('src');
    const first = await shownPicture();
    await frame.getByRole('button', { name: 'Play', exact: true }).click();
    await frame.waitForFunction((before) => document.querySelector('.kp-cover--shown')?.getAttribute('src') !== before, first, { timeout: 15_000 });
    await screenshot(page, 'embed-hosts-slideshow-1280');
    // Harbor Lights ends: Night Ferry plays, and the queue goes on with Tide Song.
    await frame.locator('.kp-title', { hasText: 'Night Ferry' }).waitFor({ timeout: 20_000 });
    await frame.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.3, undefined, { timeout: 10_000 });
    expect(await queue.getByRole('button').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')))).toEqual([
      'Play Tide Song (0:03)',
    ]);
    await screenshot(page, 'embed-hosts-quintos-next-1280');
    expect(errors).toEqual([]);

    // The player with both, opened on its own: nothing serious for assistive technology.
    const player = await context.newPage();
    await player.goto(new URL((await page.locator('iframe').getAttribute('src'))!).toString());
    await player.getByRole('region', { name: 'Up next' }).getByRole('button').first().waitFor();
    await player.getByRole('button', { name: 'Play', exact: true }).click();
    await player.getByRole('button', { name: 'Pause', exact: true }).click();
    expect(await seriousViolations(player, 'the player with Slideshow and Quintos')).toEqual([]);
    await context.close();
  });

  it('when less motion is asked for, at 390 px, then nothing moves by itself: the Next picture button steps through the pictures', async () => {
    const address = post('/2030/phone', snippet('Harbor Lights', 15, 400, 300));
    const context = track(await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, reducedMotion: 'reduce' }));
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(address);
    const frame = await playerFrame(page);
    await frame.getByRole('region', { name: 'Up next' }).getByRole('button').first().waitFor();
    await frame.getByRole('button', { name: 'Play', exact: true }).click();
    const next = frame.getByRole('button', { name: /^Next picture/ });
    await next.waitFor();
    const before = await frame.locator('.kp-cover--shown').getAttribute('src');
    await frame.getByRole('button', { name: 'Pause', exact: true }).click();
    await next.click();
    await frame.waitForFunction((was) => document.querySelector('.kp-cover--shown')?.getAttribute('src') !== was, before);
    // The frame's parts stay inside it.
    const queue = (await frame.locator('.kp-queue').boundingBox())!;
    const iframe = (await page.locator('iframe').boundingBox())!;
    expect(queue.y + queue.height).toBeLessThanOrEqual(iframe.y + iframe.height + 1);
    await screenshot(page, 'embed-hosts-slideshow-390');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('when Ana chooses the embed options in the share modal, then each says what it does and the preview shows the player with them', async () => {
    const page = await signedInPage(world, world.ana, { viewport: DESKTOP });
    track(page.context());
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}${world.pieces['Harbor Lights']!.link}`);
    const detail = page.getByRole('dialog').filter({ has: page.locator('.kn-detail__title', { hasText: 'Harbor Lights' }) });
    await detail.getByRole('button', { name: 'Share', exact: true }).click();
    const share = page.locator('.kn-share .ant-modal');
    await share.getByRole('tab', { name: 'Embed' }).click();
    await share.getByText('Up next: the artist’s next five songs, which the player plays one after another.').waitFor();
    await share.getByRole('checkbox', { name: 'Quintos' }).check();
    const preview = page.frameLocator('iframe[title="Preview of the player: Harbor Lights"]');
    await preview.getByRole('region', { name: 'Up next' }).getByRole('button').first().waitFor();
    expect(await page.locator('iframe[title="Preview of the player: Harbor Lights"]').getAttribute('src')).toContain('&options=15');
    expect(await seriousViolations(page, 'the Embed tab with its preview', ['.kn-share .ant-modal'])).toEqual([]);
    await screenshot(page, 'embed-hosts-share-modal-1280');
    await page.setViewportSize(PHONE);
    await share.getByRole('checkbox', { name: 'Quintos' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'embed-hosts-share-modal-390');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
