/**
 * The content pages and the blog in Chromium, as a visitor reads them: How It Works with every part, then one part
 * chosen from its tabs; a link in the text moves within the app (no page load); Earn's questions and answers; the
 * User Guide; the blog's list and a post, whose title and description become the page's; the server's first paint of
 * a page, without scripts and as the app takes it over. Screenshots at 1280, 768 and 390 px.
 */
import type { Page } from 'playwright-core';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, watchErrors } from '../helpers/e2e';
import { usePiecesWorld } from '../helpers/e2e-pieces';

jest.setTimeout(150_000);
useTestDatabase();

const world = usePiecesWorld('content-pages');
const TABLET = { width: 768, height: 1024 };
/** A phone's user agent: the server draws the phone's frame for it, as the app lays it out. */
const PHONE_USER_AGENT = 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Mobile Safari/537.36';

/** The page at 1280, 768 and 390 px (`{name}-desktop`, `-tablet`, `-phone`), then back to 1280. */
async function screenshotThreeWidths(page: Page, name: string) {
  await screenshot(page, `${name}-desktop`, true);
  for (const [size, suffix] of [
    [TABLET, 'tablet'],
    [PHONE, 'phone'],
  ] as const) {
    await page.setViewportSize(size);
    // Laid out again for the width: a phone shows the menu button, and nothing is wider than the window.
    if (suffix === 'phone') await page.getByRole('banner').getByRole('button', { name: 'Open menu' }).waitFor();
    await page.waitForFunction((width) => window.innerWidth === width && document.documentElement.scrollWidth <= width, size.width);
    await screenshot(page, `${name}-${suffix}`, true);
  }
  await page.setViewportSize(DESKTOP);
  await page.waitForFunction((width) => window.innerWidth === width, DESKTOP.width);
}

it('when a visitor reads How It Works, Earn and the User Guide, then each part has its own address and links move within the app', async () => {
  const context = await world.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${world.baseUrl}/become`, { waitUntil: 'networkidle' });
  // The server's first paint shows the same headings and links before the app runs: the app must have taken over
  // before a click, or a slow machine's click lands on the copy the app is replacing.
  await page.waitForFunction(() => !document.getElementById('kn-first-paint'));
  await page.getByRole('heading', { level: 1, name: 'How Knack works' }).waitFor();
  for (const part of ['For listeners and viewers', 'For creators', 'For supporters']) await page.getByRole('heading', { level: 2, name: part }).waitFor();
  await page.waitForFunction(() => document.title === 'How Knack works');
  await screenshotThreeWidths(page, 'content-become-all');

  const tabs = page.getByRole('navigation', { name: 'How Knack works: sections' });
  await tabs.getByRole('link', { name: 'For creators' }).click();
  await page.waitForURL(`${world.baseUrl}/become/creators`);
  await page.getByRole('heading', { level: 2, name: 'List a piece to earn' }).waitFor();
  expect(await page.getByRole('heading', { level: 2, name: 'For supporters' }).count()).toBe(0);
  expect(await tabs.getByRole('link', { name: 'For creators' }).getAttribute('aria-current')).toBe('page');

  // A link in the text: the app moves to it without loading the page again (the marker survives).
  await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
  await page.getByRole('main').getByRole('link', { name: 'how earnings work' }).click();
  await page.waitForURL(`${world.baseUrl}/earning/normal`);
  await page.getByRole('heading', { level: 2, name: 'A worked example' }).waitFor();
  expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
  // The page's title is set just after the page draws, so a busy machine can read the heading a moment before it.
  await page.waitForFunction(() => document.title === 'Earn with Knack');
  await screenshotThreeWidths(page, 'content-earning');

  await page.goto(`${world.baseUrl}/earning/faq`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 3, name: 'When am I paid?' }).waitFor();
  await page.goto(`${world.baseUrl}/user-guide/rules`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 2, name: 'The rules' }).waitFor();
  await screenshotThreeWidths(page, 'content-user-guide');

  // An address of a part that does not exist is replaced by the page's first.
  await page.goto(`${world.baseUrl}/earning/nothing-here`, { waitUntil: 'networkidle' });
  await page.waitForURL(`${world.baseUrl}/earning/normal`);
  expect(errors).toEqual([]);
  await context.close();
});

it('when a visitor opens the blog and a post, then the post reads whole and its title and excerpt are the page’s', async () => {
  const context = await world.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${world.baseUrl}/blog`, { waitUntil: 'networkidle' });
  await page.waitForFunction(() => !document.getElementById('kn-first-paint'));
  const posts = page.getByRole('list', { name: 'Posts' });
  await posts.getByRole('link', { name: 'What is a knack?' }).waitFor();
  await screenshotThreeWidths(page, 'content-blog');

  await posts.getByRole('link', { name: 'How Knack works' }).click();
  await page.waitForURL(`${world.baseUrl}/blog/how-knack-works`);
  await page.getByRole('heading', { level: 1, name: 'How Knack works' }).waitFor();
  await page.getByRole('heading', { level: 2, name: 'Get paid' }).waitFor();
  await page.waitForFunction(() => document.title === 'How Knack works | Knack');
  expect(await page.locator('meta[property="og:description"]').getAttribute('content')).toBe(
    'Every play and view of a listed piece earns knack for its creator and its supporter.',
  );
  await screenshotThreeWidths(page, 'content-blog-post');

  await page.goto(`${world.baseUrl}/blog/no-such-post`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1, name: 'This post does not exist.' }).waitFor();
  expect(errors.filter((error) => !error.includes('404'))).toEqual([]);
  await context.close();
});

it('when a visitor opens a page, then the server’s first paint shows it before the app runs, reads as the app’s page, and gives way to it', async () => {
  const phone = { viewport: PHONE, isMobile: true, userAgent: PHONE_USER_AGENT };
  const heroText = (page: Page) =>
    page.evaluate(() => [...document.querySelectorAll('.kn-hero__title, .kn-hero__lead')].map((node) => node.textContent!.replace(/\s+/g, ' ').trim()));

  // Without scripts, the HTML alone: the landing page's hero, a blog post whole.
  const bareContext = await world.browser.newContext({ ...phone, javaScriptEnabled: false });
  const bare = await bareContext.newPage();
  await bare.goto(`${world.baseUrl}/`);
  await bare.getByRole('heading', { level: 1, name: 'Get paid for every play and view.' }).waitFor();
  const drawnByServer = await heroText(bare);
  await screenshot(bare, 'first-paint-home-phone', true);
  await bare.goto(`${world.baseUrl}/blog/how-knack-works`);
  await bare.getByRole('heading', { level: 1, name: 'How Knack works' }).waitFor();
  await bare.getByRole('heading', { level: 2, name: 'Get paid' }).waitFor();
  await screenshot(bare, 'first-paint-blog-post-phone', true);
  await bareContext.close();

  // With scripts: the app takes over, and the page reads the same, once.
  const context = await world.browser.newContext(phone);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${world.baseUrl}/`, { waitUntil: 'networkidle' });
  await page.waitForFunction(() => !document.getElementById('kn-first-paint'));
  await page.getByRole('banner').getByRole('button', { name: 'Open menu' }).waitFor();
  expect(await heroText(page)).toEqual(drawnByServer);
  expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
  expect(errors).toEqual([]);
  await context.close();
});
