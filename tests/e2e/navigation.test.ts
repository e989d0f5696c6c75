/**
 * No link of the layout leads home by mistake: in Chromium, every link of the top navigation, the side menu
 * (its groups opened), the account header and the footer is clicked, for a visitor and for an admin on a plan
 * (who sees every item), and where it lands is checked against where it points: every one, the content pages (FAQ,
 * How It Works, User Guide, the blog, the NFT comparison) included. A link that lands elsewhere fails the test.
 */
import type { Page } from 'playwright-core';
import request from 'supertest';
import { SubscriptionModel } from '../../server/modules/subscriptions';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP } from '../helpers/e2e';
import { signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';

useTestDatabase();
jest.setTimeout(180_000);

const world = usePiecesWorld('navigation');

/** The layout's regions whose links are checked. */
const REGIONS = ['nav[aria-label="Main"]', 'header.kn-topnav', 'nav[aria-label="Side menu"]', '.kn-account', 'footer.kn-footer'];

interface FoundLink {
  text: string;
  href: string;
}

/** Every same-origin link in the layout's regions (side-menu groups opened first), once per target. */
async function layoutLinks(page: Page): Promise<FoundLink[]> {
  await openGroups(page);
  return page.evaluate((selectors) => {
    const seen = new Map<string, string>();
    for (const anchor of document.querySelectorAll<HTMLAnchorElement>(selectors.join(','))) {
      const links = anchor.tagName === 'A' ? [anchor] : [...anchor.querySelectorAll<HTMLAnchorElement>('a[href]')];
      for (const link of links) {
        const url = new URL(link.href, window.location.href);
        if (url.origin !== window.location.origin || link.getAttribute('href')?.startsWith('#')) continue;
        if (!seen.has(url.pathname + url.search)) seen.set(url.pathname + url.search, link.textContent?.trim() || link.getAttribute('aria-label') || '');
      }
    }
    return [...seen].map(([href, text]) => ({ href, text }));
  }, REGIONS);
}

/** Where each check starts: a page no layout link points to, so that any click leaves it. */
const START = '/viewall/new';

/** Opens the side menu's groups, so that their links can be clicked. */
async function openGroups(page: Page) {
  for (const group of await page.locator('nav[aria-label="Side menu"] [aria-expanded="false"]').all()) await group.click();
}

/**
 * Clicks the first visible link to `href` in the layout and answers where the page ends up: once the address has
 * left the start page, and the page there (or the home page a wrong route redirects to) shows its heading. Then
 * back to the start page, in the app (no reload) where the link was the app's own.
 */
async function landingOf(page: Page, href: string): Promise<string> {
  const link = page
    .locator(REGIONS.map((region) => `${region} a[href="${href}"]`).join(','))
    .filter({ visible: true })
    .first();
  if (href.endsWith('.html')) {
    // A static page: served as a document of its own.
    const [response] = await Promise.all([page.waitForNavigation(), link.click()]);
    expect(response?.status()).toBe(200);
  } else {
    await link.click();
    await page.waitForURL((url) => url.pathname !== START);
    await page.locator('h1').first().waitFor();
  }
  const landed = new URL(page.url()).pathname;
  await page.goBack();
  await page.waitForURL((url) => url.pathname === START);
  await page.locator('footer.kn-footer nav').first().waitFor();
  await openGroups(page);
  return landed;
}

async function expectEveryLinkLands(page: Page, expectAtLeast: string[]) {
  await page.goto(`${world.baseUrl}${START}`, { waitUntil: 'networkidle' });
  await page.locator('footer.kn-footer nav').first().waitFor();
  const links = await layoutLinks(page);
  expect(links.map((link) => link.href)).toEqual(expect.arrayContaining(expectAtLeast));
  const wrong: string[] = [];
  for (const { href, text } of links) {
    const target = new URL(href, world.baseUrl).pathname;
    const landed = await landingOf(page, href);
    if (landed !== target) wrong.push(`${text} (${href}) landed on ${landed}`);
  }
  expect(wrong).toEqual([]);
}

describe('every layout link lands where it points', () => {
  it('when a visitor clicks each link of the top navigation, side menu and footer, then each lands on its own page', async () => {
    const context = await world.browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await expectEveryLinkLands(page, [
      '/pricing',
      '/explore',
      '/become/all',
      '/earning/faq',
      '/user-guide/introduction',
      '/blog',
      '/privacy-policy.html',
      '/terms-of-use.html',
    ]);
    await context.close();
  });

  it('when an admin on a plan clicks each link, also Admin, Analytics, Settings, Wallet, Collection and the account header, then each lands on its own page', async () => {
    const admin = await world.admin();
    await SubscriptionModel.create({ userId: admin.user.id, planId: 2, subscriptionId: `sub_nav_${Date.now()}` });
    await request(world.baseUrl).get('/api/v2/subscription/all-plans').expect(200);
    const page = await signedInPage(world, admin, { viewport: DESKTOP });
    await page.goto(`${world.baseUrl}/explore`, { waitUntil: 'networkidle' });
    await page.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: 'Analytics' }).waitFor();
    await expectEveryLinkLands(page, [
      '/admin',
      '/analytics',
      '/wallet',
      '/user-setting',
      '/profile/supported',
      '/profile/default',
      '/pricing',
      '/earning/faq',
      '/user-guide',
    ]);
    await page.context().close();
  });
});
