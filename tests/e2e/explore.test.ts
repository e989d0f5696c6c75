/**
 * End to end, Explore and search: the production build of the SPA served by the real app on the real
 * database, driven in Chromium. Three members publish pieces through the real calls (upload, then save); some
 * get reactions, an admin re-posts one to the top of Featured. A visitor browses each tab, the tag chips and
 * an artist; a member searches with suggestions and reads every result. Screenshots at 1280 and 390 px land
 * in tests/e2e/screenshots/explore-*.png.
 */
import type { Locator, Page } from 'playwright-core';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, watchErrors } from '../helpers/e2e';
import { signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';
import { untilEqual } from '../helpers/wait';

jest.setTimeout(180_000);
useTestDatabase();

const world = usePiecesWorld('explore');
const { pieces } = world;

beforeAll(async () => {
  const { ana, bea } = world;
  await world.publish(ana, { title: 'Lisbon Tram at Dawn', tag: 'Photos', subTag: 'Travel', hue: 200 });
  await world.publish(ana, { title: 'Red Beetle', tag: 'Photos', subTag: 'Cars', hue: 5 });
  await world.publish(ana, { title: 'Neon Fox', tag: 'Art', subTag: 'Digital Art', hue: 290 });
  await world.publish(ana, { title: 'Pixel Harbor', tag: 'Art', subTag: 'Pixel Art', hue: 170 });
  await world.publish(bea, { title: 'Blue Jazz Night', tag: 'Music', subTag: 'Jazz', hue: 225 });
  await world.publish(bea, { title: 'Blue Moon Sessions', tag: 'Music', subTag: 'Jazz', hue: 250 });
  await world.publish(bea, { title: 'Garage Thunder', tag: 'Music', subTag: 'Rock', hue: 15 });
  await world.publish(bea, { title: 'Porto Bridge', tag: 'Photos', subTag: 'Travel', hue: 35 });
  await world.react('Garage Thunder', 5);
  await world.react('Blue Jazz Night', 3);
  await world.react('Red Beetle', 1);
  await world.repost('Neon Fox');
}, 150_000);

const shot = (page: Page, name: string, fullPage = false) => screenshot(page, `explore-${name}`, fullPage);

/** The titles of the feed's cards, in order. */
async function cardTitles(grid: Locator): Promise<string[]> {
  // A card shows its frame before its title, and a list refreshed from the server draws its cards again: the titles are
  // read in one step in the page, once every card there has its title.
  const element = await grid.elementHandle();
  const titles = await grid.page().waitForFunction((root) => {
    const texts = [...(root as Element).querySelectorAll<HTMLElement>('.kn-card__title')].map((title) => title.innerText.trim());
    return texts.length > 0 && texts.every(Boolean) ? texts : null;
  }, element);
  return (await titles.jsonValue()) as string[];
}

/** The feed (a list named "{Tab} pieces") once the titles of `tab` show. */
function feed(page: Page, tab: string): Locator {
  return page.getByRole('list', { name: `${tab} pieces` });
}

describe('Explore in Chromium', () => {
  it('when a visitor browses the tabs, a tag and an artist at 1280 px, then each feed shows its pieces in its order', async () => {
    const page = await world.browser.newPage({ viewport: DESKTOP });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/explore`, { waitUntil: 'networkidle' });

    // Featured (default): the re-posted piece first, then newest first.
    const featured = feed(page, 'Featured');
    expect((await cardTitles(featured))[0]).toBe('Neon Fox');
    expect(await page.getByRole('tab', { name: 'Featured' }).getAttribute('aria-selected')).toBe('true');
    const fox = featured.getByRole('article').filter({ hasText: 'Neon Fox' });
    expect(await fox.getByText('$0.99 / view').count()).toBe(1); // Digital Art pays 0.99
    expect(await fox.locator('.kn-card__owner').getAttribute('href')).toBe(`/${world.ana.form.username}`);
    // The first row is the page's first sight: its images load at once, first, at the size shown.
    expect(await fox.locator('img').getAttribute('loading')).toBe('eager');
    expect(await fox.locator('img').getAttribute('fetchpriority')).toBe('high');
    expect(await fox.locator('img').evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(/-thumb\.webp$/); // 240 px is enough at 1280
    await page.getByRole('list', { name: 'Filter by artist' }).waitFor();
    await shot(page, 'featured-desktop');

    // Popular: most reactions first; the tab is in the URL.
    await page.getByRole('tab', { name: 'Popular' }).click();
    await page.waitForURL(`${world.baseUrl}/explore?tab=popular`);
    const popular = feed(page, 'Popular');
    await untilEqual(async () => (await cardTitles(popular)).slice(0, 3), ['Garage Thunder', 'Blue Jazz Night', 'Red Beetle']);

    // Trending (this week's reactions) and On the Radar (new artists' recent pieces).
    await page.getByRole('tab', { name: 'Trending' }).click();
    await untilEqual(async () => (await cardTitles(feed(page, 'Trending'))).slice(0, 2), ['Garage Thunder', 'Blue Jazz Night']);
    await page.getByRole('tab', { name: 'On the Radar' }).click();
    await page.waitForURL(`${world.baseUrl}/explore?tab=radar`);
    expect(await cardTitles(feed(page, 'On the Radar'))).toHaveLength(8);

    // Back returns to Trending; a reload keeps the tab.
    await page.goBack();
    await page.waitForURL(`${world.baseUrl}/explore?tab=trending`);
    await page.reload({ waitUntil: 'networkidle' });
    expect(await page.getByRole('tab', { name: 'Trending' }).getAttribute('aria-selected')).toBe('true');

    // Music, then its sub-tag Jazz; choosing Jazz again goes back to Music.
    await page.getByRole('group', { name: 'Categories' }).getByRole('button', { name: 'Music' }).click();
    await page.waitForURL(`${world.baseUrl}/explore/music?tab=trending`);
    await page.getByRole('heading', { level: 1, name: 'Explore Music' }).waitFor();
    await untilEqual(() => cardTitles(feed(page, 'Trending')), ['Garage Thunder', 'Blue Jazz Night', 'Blue Moon Sessions']);
    const jazz = page.getByRole('group', { name: 'Music sub-tags' }).getByRole('button', { name: 'Jazz' });
    await jazz.click();
    await page.waitForURL(`${world.baseUrl}/explore/jazz?tab=trending`);
    await untilEqual(() => cardTitles(feed(page, 'Trending')), ['Blue Jazz Night', 'Blue Moon Sessions']);
    await shot(page, 'tag-desktop');
    await jazz.click();
    await page.waitForURL(`${world.baseUrl}/explore/music?tab=trending`);

    // An artist: only their pieces; choosing them again shows everyone's.
    await page.getByRole('group', { name: 'Categories' }).getByRole('button', { name: 'Music' }).click();
    await page.waitForURL(`${world.baseUrl}/explore?tab=trending`);
    const strip = page.getByRole('list', { name: 'Filter by artist' });
    const anaButton = strip.getByRole('button', { name: /ana.lima/i });
    await anaButton.click();
    await untilEqual(async () => (await cardTitles(feed(page, 'Trending'))).sort(), ['Lisbon Tram at Dawn', 'Neon Fox', 'Pixel Harbor', 'Red Beetle']);
    expect(await anaButton.getAttribute('aria-pressed')).toBe('true');
    await shot(page, 'artist-desktop');
    await anaButton.click();
    await untilEqual(async () => (await cardTitles(feed(page, 'Trending'))).length, 8);

    // View all of one kind under one tag.
    await page.goto(`${world.baseUrl}/viewall/popular/travel`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1, name: 'Popular in Travel' }).waitFor();
    expect((await cardTitles(page.getByRole('list', { name: 'Popular in Travel' }))).sort()).toEqual(['Lisbon Tram at Dawn', 'Porto Bridge']);

    expect(errors).toEqual([]);
    await page.close();
  });

  it('when a visitor opens Explore at 390 px, then two cards a row fit the phone and the tabs and chips fit too', async () => {
    const page = await world.browser.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/explore/art`, { waitUntil: 'networkidle' });
    const grid = feed(page, 'Featured');
    await cardTitles(grid);
    const boxes = await grid.getByRole('article').evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().toJSON() as DOMRect));
    expect(boxes).toHaveLength(2);
    expect(boxes[0]!.top).toBe(boxes[1]!.top); // side by side
    expect(boxes[1]!.right).toBeLessThanOrEqual(PHONE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // The four tabs fit the bar: none cut off, and the tab list does not scroll sideways.
    const radarTab = await page.getByRole('tab', { name: 'On the Radar' }).boundingBox();
    expect(radarTab!.x + radarTab!.width).toBeLessThanOrEqual(PHONE.width);
    const tabList = page.getByRole('tablist', { name: 'Feeds' });
    expect(await tabList.evaluate((list) => list.scrollWidth <= list.clientWidth)).toBe(true);
    expect(await tabList.getByRole('tab').count()).toBe(4);
    await shot(page, 'tag-phone', true);
    await page.goto(`${world.baseUrl}/explore?tab=popular`, { waitUntil: 'networkidle' });
    await cardTitles(feed(page, 'Popular'));
    await shot(page, 'popular-phone');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('search in Chromium', () => {
  it('when a member types in the top search at 1280 px, then priced suggestions show, the keys choose one, and Enter lists every result', async () => {
    const page = await signedInPage(world, world.bea, { viewport: DESKTOP });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/explore`, { waitUntil: 'networkidle' });
    const box = page.getByRole('combobox', { name: 'Search titles, artists and tags' });
    await box.fill('blue');
    const listbox = page.getByRole('listbox', { name: 'Suggestions' });
    await listbox.getByRole('option').first().waitFor();
    const options = await listbox.getByRole('option').allInnerTexts();
    expect(options).toHaveLength(2);
    for (const option of options) expect(option).toContain('$0.05');
    expect(options.join(' ')).toContain('Blue Jazz Night');
    await shot(page, 'suggestions-desktop');

    // Down, Enter: the piece opens and the box empties.
    await box.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await listbox.getByRole('option').first().getAttribute('id'));
    const chosen = (await listbox.getByRole('option').first().innerText()).split('\n')[0]!;
    await box.press('Enter');
    await page.waitForURL(`${world.baseUrl}${pieces[chosen]!.link}`);
    expect(await box.inputValue()).toBe('');

    // Enter alone: every result, in three sections.
    await box.fill('blue');
    await box.press('Enter');
    await page.waitForURL(`${world.baseUrl}/search/blue`);
    await page.getByRole('heading', { level: 1, name: 'Results for “blue”' }).waitFor();
    const titles = page.getByRole('region', { name: 'Titles' });
    expect((await cardTitles(titles)).sort()).toEqual(['Blue Jazz Night', 'Blue Moon Sessions']);

    await box.fill('moon');
    await box.press('Enter');
    await page.waitForURL(`${world.baseUrl}/search/moon`);
    await page
      .getByRole('region', { name: 'Artists' })
      .getByRole('link', { name: /bea.moon/i })
      .waitFor();
    expect(await cardTitles(page.getByRole('region', { name: 'Titles' }))).toEqual(['Blue Moon Sessions']);

    await box.fill('art');
    await box.press('Enter');
    await page.waitForURL(`${world.baseUrl}/search/art`);
    const tags = page.getByRole('region', { name: 'Tags' });
    await tags.getByRole('link', { name: /Digital Art/ }).waitFor();
    expect(await tags.getByRole('link', { name: /Digital Art/ }).getAttribute('href')).toBe('/explore/digital-art');
    await shot(page, 'results-desktop', true);

    // Focus leaves the box: the suggestions close 400 ms later, on the page's clock, which the test moves.
    await box.fill('garage');
    await listbox.getByRole('option').first().waitFor();
    // The page's timers from here on are fakes that fire only as the test moves its clock (paused at once).
    await page.clock.install();
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 100));
    await box.press('Tab');
    await page.clock.runFor(399);
    expect(await listbox.isVisible()).toBe(true);
    await page.clock.runFor(1);
    await listbox.waitFor({ state: 'hidden' });

    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('when a member searches on a 390 px phone, then the search button opens the box over the bar with its suggestions', async () => {
    const page = await signedInPage(world, world.bea, { viewport: PHONE });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/explore`, { waitUntil: 'networkidle' });
    await page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).click();
    const box = page.getByRole('combobox', { name: 'Search titles, artists and tags' });
    await box.fill('blue');
    await page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').first().waitFor();
    await shot(page, 'suggestions-phone');
    await box.press('Enter');
    await page.waitForURL(`${world.baseUrl}/search/blue`);
    await cardTitles(page.getByRole('region', { name: 'Titles' }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'results-phone', true);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
