/**
 * Plans in Chromium, as a new member buys one: from the top navigation's Pricing to the plans, Subscribe to
 * Premium, on through the sandbox checkout (approved there, decided by its signed webhook), and back to
 * 'Subscription approved!' with the plan, its credits and the Analytics menu item shown; then she makes one of
 * her pieces followers-only in the Privacy modal, which a visitor can then no longer open. A visitor's Pricing is
 * looked at on a laptop, a tablet and a phone. Screenshots land in tests/e2e/screenshots/pricing-*.png.
 */
import type { Page } from 'playwright-core';
import request from 'supertest';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, watchErrors } from '../helpers/e2e';
import { signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';
import { dialog, toast } from '../helpers/e2e-upload';

useTestDatabase();
jest.setTimeout(120_000);

const world = usePiecesWorld('pricing');
const TABLET = { width: 768, height: 1024 };

/** Whether the page is wider than the screen (something does not fit). */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('pricing and subscribing in Chromium', () => {
  it('when a new member buys Plan 2 through the sandbox checkout, then "Subscription approved!", the plan and its credits show, and Analytics joins the side menu', async () => {
    const cleo = await world.member('Cleo', 'Ray');
    const page = await signedInPage(world, cleo, { viewport: DESKTOP });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/explore`, { waitUntil: 'networkidle' });
    const side = page.getByRole('navigation', { name: 'Side menu' });
    expect(await side.getByRole('link', { name: 'Analytics' }).count()).toBe(0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL(`${world.baseUrl}/pricing`);
    const premium = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Plan 2: Premium' }) });
    await premium.getByText('$13.05').waitFor();
    await page.getByText('You have no plan.', { exact: false }).waitFor();
    await screenshot(page, 'pricing-member-desktop', true);

    await premium.getByRole('button', { name: 'Subscribe to Premium' }).click();
    const modal = dialog(page, 'Subscribe to Premium');
    await modal.getByText('a month').waitFor();
    await screenshot(page, 'pricing-subscription-modal-desktop');
    await modal.getByRole('button', { name: 'Continue to payment' }).click();

    await page.waitForURL(/\/checkout\/sandbox\//);
    await page.getByText('$13.05').waitFor();
    await screenshot(page, 'pricing-sandbox-checkout');
    await page.getByRole('button', { name: 'Approve payment' }).click();

    await toast(page, 'Subscription approved!');
    await page.waitForURL(`${world.baseUrl}/pricing`);
    const yours = page.getByRole('region', { name: 'Your plan' });
    await yours.getByText('Plan 2: Premium').waitFor();
    await yours.getByText(/Renews on/).waitFor();
    await yours.getByText('Credits left: 1 standard, 1 premium').waitFor();
    await premium.getByRole('button', { name: 'Your plan' }).waitFor();
    await side.getByRole('link', { name: 'Analytics' }).waitFor();
    await screenshot(page, 'pricing-approved-desktop', true);

    // With the plan, one of her pieces becomes followers-only through the detail's owner menu.
    const piece = await world.publish(cleo, { title: 'Quiet Harbour', tag: 'Photos', subTag: 'Travel', hue: 190 });
    await page.goto(`${world.baseUrl}/profile/default`, { waitUntil: 'networkidle' });
    await page.getByRole('link', { name: 'Quiet Harbour', exact: true }).first().click();
    const detail = page.locator('.kn-detail-modal [role="dialog"]');
    await detail.locator('.kn-detail__title').filter({ hasText: 'Quiet Harbour' }).waitFor();
    await detail.getByRole('button', { name: 'Options for Quiet Harbour' }).click();
    await page.getByRole('menuitem', { name: /Privacy/ }).click();
    const privacy = dialog(page, 'Privacy');
    await privacy.getByRole('radio', { name: /Followers/ }).check();
    await screenshot(page, 'pricing-privacy-followers-desktop');
    await privacy.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Privacy settings saved');
    await request(world.baseUrl).get(`/api/v2/content/get-by-id/${piece.id}`).expect(404);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('when a visitor opens Pricing on a tablet and a phone, then the plans, the fees and the comparison fit the screen', async () => {
    for (const [name, viewport] of [
      ['tablet', TABLET],
      ['phone', PHONE],
    ] as const) {
      const context = await world.browser.newContext({ viewport, reducedMotion: 'reduce' });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${world.baseUrl}/pricing`, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: 'Plan 1: Standard' }).waitFor();
      await page.getByRole('table', { name: 'What one play pays the artist' }).waitFor();
      expect(await overflows(page)).toBe(false);
      await screenshot(page, `pricing-visitor-${name}`, true);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
