/**
 * End to end, on a phone: the landing page and Explore do not jump while they load. Everything that arrives late
 * (the route's code, the feed, the footer's columns, the card images) has its space kept, so the cumulative layout
 * shift that Chromium reports (`layout-shift` entries of the PerformanceObserver, as Lighthouse counts them) stays
 * at or under 0.05 from the first paint until the page has settled.
 */
import type { Page } from 'playwright-core';
import { useTestDatabase } from '../helpers/db';
import { PHONE, watchErrors } from '../helpers/e2e';
import { usePiecesWorld } from '../helpers/e2e-pieces';

jest.setTimeout(120_000);
useTestDatabase();

const world = usePiecesWorld('layout-shift');

beforeAll(async () => {
  const { ana, bea } = world;
  await world.publish(ana, { title: 'Harbour Lights', tag: 'Photos', subTag: 'Travel', hue: 200 });
  await world.publish(ana, { title: 'Violet Circuit', tag: 'Art', subTag: 'Digital Art', hue: 290 });
  await world.publish(bea, { title: 'Night Tram Blues', tag: 'Music', subTag: 'Jazz', hue: 225 });
  await world.publish(bea, { title: 'Amber Dunes', tag: 'Photos', subTag: 'Travel', hue: 35 });
}, 90_000);

/** Sums the layout shifts not caused by input, from before the page's first byte. */
async function recordShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record = window as unknown as { knackShifts: number };
    record.knackShifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) record.knackShifts += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The shifts so far, once every image has loaded and two more frames have been laid out. */
async function settledShift(page: Page): Promise<number> {
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  return page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve((window as unknown as { knackShifts: number }).knackShifts))),
      ),
  );
}

describe('layout shift on a phone (390 px)', () => {
  it('when a visitor opens the landing page, then nothing moves while it loads (CLS <= 0.05)', async () => {
    const page = await world.browser.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    const errors = watchErrors(page);
    await recordShifts(page);
    await page.goto(world.baseUrl);
    await page.getByText('Digital Art', { exact: true }).first().waitFor();
    await page.getByText('MOST VIEWED', { exact: true }).waitFor();
    expect(await settledShift(page)).toBeLessThanOrEqual(0.05);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('when a visitor opens Explore, then the feed fills its reserved space without moving the page (CLS <= 0.05)', async () => {
    const page = await world.browser.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    const errors = watchErrors(page);
    await recordShifts(page);
    await page.goto(`${world.baseUrl}/explore`);
    await page.locator('.kn-card__title').filter({ hasText: 'Amber Dunes' }).waitFor();
    await page.getByText('MOST VIEWED', { exact: true }).waitFor();
    expect(await settledShift(page)).toBeLessThanOrEqual(0.05);
    expect(errors).toEqual([]);
    await page.close();
  });
});
