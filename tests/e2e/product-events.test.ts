/**
 * Product events end to end, in Chromium against the production build and the real database: a member's sign-in
 * reaches the server at once (the first event after a sign-in leaves without waiting), under their id; on a page
 * loaded afresh their first follow does too, and its answer gives the page their events token; then they follow again
 * and close the tab at once, and that follow still arrives, by the browser's real `navigator.sendBeacon` (a JSON body,
 * no Authorization header), under their id through that token.
 */
import { Types } from 'mongoose';
import request from 'supertest';
import { countProductEvents } from '../../server/modules/events';
import { ProductEventModel } from '../../server/modules/events/testing';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, screenshot, screenshotBothWidths, watchErrors } from '../helpers/e2e';
import { signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';
import { waitUntil } from '../helpers/wait';

jest.setTimeout(120_000);
useTestDatabase();

const world = usePiecesWorld('product-events');

const eventsOf = async (memberId: string) =>
  (await ProductEventModel.find({ memberId: new Types.ObjectId(memberId) }, { name: 1 }).lean()).map((event) => event.name).sort();
const has = (memberId: string, names: string[]) => async () => JSON.stringify(await eventsOf(memberId)) === JSON.stringify(names);

describe('product events in Chromium', () => {
  it('when Bea signs in, follows Ana, follows her again and closes the tab at once, then every event is stored under her id, the last by beacon', async () => {
    const { ana, bea, browser, baseUrl } = world;
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = watchErrors(page);
    // The batches the page's HTTP client sends (Chromium does not report a beacon sent as a page closes).
    const viaClient: { names: string[]; bearer: boolean }[] = [];
    context.on('request', (sent) => {
      if (!sent.url().endsWith('/api/v2/events')) return;
      const { events } = sent.postDataJSON() as { events: { name: string }[] };
      viaClient.push({ names: events.map((event) => event.name), bearer: Boolean(sent.headers().authorization) });
    });

    await page.goto(baseUrl, { waitUntil: 'networkidle' });
    await page.getByRole('banner').getByRole('button', { name: 'Login', exact: true }).click();
    const login = page.getByRole('dialog');
    await login.getByLabel('Email').fill(bea.form.email);
    await login.getByLabel('Password').fill(bea.form.password);
    await login.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Logout', exact: true }).waitFor({ timeout: 10_000 });
    await waitUntil(has(bea.user.id, ['login']), { what: "Bea's login event" });

    // A page loaded afresh: its first event leaves at once, with the session's bearer token.
    await page.goto(`${baseUrl}/${ana.form.username}`, { waitUntil: 'networkidle' });
    const header = page.locator('.kn-profile-head');
    await header.getByRole('button', { name: 'Follow Ana Lima' }).click();
    await page.getByText('You are following Ana Lima now').waitFor();
    await waitUntil(has(bea.user.id, ['follow', 'login']), { what: "Bea's first follow event" });

    // The next one waits for its batch; the tab is closed first, so only the beacon sent as it is hidden carries it.
    // Each click once the button is no longer busy: a click while a change is on its way is ignored by design.
    const idle = (label: string) => header.locator(`button[aria-label="${label}"]:not([aria-busy="true"])`);
    await idle('Unfollow Ana Lima').click();
    await idle('Follow Ana Lima').click();
    await idle('Unfollow Ana Lima').waitFor();
    await page.close({ runBeforeUnload: true });
    await waitUntil(has(bea.user.id, ['follow', 'follow', 'login']), { what: "Bea's second follow event, by beacon" });

    // The last follow did not go through the page's HTTP client: the beacon carried it, under Bea's id.
    expect(viaClient).toEqual([
      { names: ['login'], bearer: true },
      { names: ['follow'], bearer: true },
    ]);
    expect(await ProductEventModel.countDocuments({ memberId: null })).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('when the job has counted, then the admin dashboard shows the week of events per day in a table, at 1280, 768 and 390 px', async () => {
    const played = Array.from({ length: 3 }, () => ({ name: 'play', at: new Date().toISOString() }));
    await request(world.baseUrl)
      .post('/api/v2/events')
      .send({ events: [...played, { name: 'signup', at: new Date().toISOString() }] })
      .expect(202);
    await countProductEvents();
    const page = await signedInPage(world, await world.admin(), { viewport: DESKTOP });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/admin`, { waitUntil: 'networkidle' });
    const table = page.getByRole('table', { name: 'Product events, last 7 days (UTC)' });
    await table.waitFor();
    const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
    expect(await table.getByRole('columnheader').allTextContents()).toHaveLength(8);
    expect(await table.getByRole('columnheader').last().textContent()).toBe(today);
    // Today's column, the last.
    expect(
      await table
        .getByRole('row', { name: /^Plays/ })
        .getByRole('cell')
        .last()
        .textContent(),
    ).toBe('3');
    await table.scrollIntoViewIfNeeded();
    await screenshotBothWidths(page, 'admin-dashboard-events', { area: 'admin', focus: table, fullPage: false });
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.waitForFunction(() => window.innerWidth === 768);
    await table.scrollIntoViewIfNeeded();
    await screenshot(page, 'admin-dashboard-events-tablet', false);
    expect(errors).toEqual([]);
  });
});
