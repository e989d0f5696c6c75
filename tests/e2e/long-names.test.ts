/**
 * Long usernames in narrow boxes, in Chromium: a member whose username starts with one long word
 * (`kai.morenorodriguez_lu_…`, shown as "kai.morenorodriguez lu …") sees it broken only between words, never inside
 * one, and a word wider than its box ends in an ellipsis with the whole name in the element's title: the side menu's
 * head (the slim rail at 1280 px, the drawer at 390 px), the profile header, the profile summary, the cards and the
 * content detail. Screenshots at 1280 and 390 px land in tests/e2e/screenshots/long-names-*.png.
 */
import type { Locator, Page } from 'playwright-core';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, watchErrors } from '../helpers/e2e';
import { signedInPage, usePiecesWorld, type Member } from '../helpers/e2e-pieces';

jest.setTimeout(180_000);
useTestDatabase();

const world = usePiecesWorld('long-names');
let kai: Member;

beforeAll(async () => {
  kai = await world.member('Kai.morenorodriguez', 'Lu');
  await world.publish(kai, { title: 'Harbour Lights', tag: 'Photos', subTag: 'Travel', hue: 20 });
}, 120_000);

const shownName = () => kai.form.username.replace(/_/g, ' ');

/**
 * The words of the element's text that the browser laid out over more than one line (a word broken in its middle).
 * Each word's boxes are measured with a Range: a word on one line has all its boxes at one height.
 */
function wordsBrokenAcrossLines(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of (node.textContent ?? '').matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

/** The name shows whole or cut with an ellipsis, never broken inside a word, and its title holds all of it. */
async function expectFitted(element: Locator, full: string) {
  await element.waitFor();
  expect(await wordsBrokenAcrossLines(element)).toEqual([]);
  expect(await element.getAttribute('title')).toBe(full);
  expect((await element.textContent())?.trim()).toBe(full);
}

const shot = (page: Page, name: string) => screenshot(page, `long-names-${name}`);

describe('long usernames in narrow boxes', () => {
  it('when Kai, whose username starts with a long word, uses the app at 1280 px, then no box breaks his name inside a word', async () => {
    const page = await signedInPage(world, kai, { viewport: DESKTOP });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/${kai.form.username}`, { waitUntil: 'networkidle' });

    const rail = page.getByRole('navigation', { name: 'Side menu' });
    await expectFitted(rail.locator('.kn-account__name'), shownName());
    await shot(page, 'side-menu-desktop');

    await expectFitted(page.getByRole('heading', { level: 1 }), 'Kai.morenorodriguez Lu');
    await expectFitted(page.locator('.kn-profile-head__username'), `@${kai.form.username}`);
    const card = page.getByRole('article').filter({ hasText: 'Harbour Lights' });
    await expectFitted(card.locator('.kn-card__owner'), 'Kai.morenorodriguez Lu');

    await page.getByRole('banner').getByRole('button', { name: 'Profile summary' }).click();
    await expectFitted(page.getByRole('dialog', { name: 'Profile summary' }).locator('.kn-summary__name'), 'Kai.morenorodriguez Lu');
    await page.keyboard.press('Escape');

    await card.getByRole('link', { name: 'Harbour Lights' }).click();
    await expectFitted(page.locator('.kn-detail__owner-name'), shownName());
    await shot(page, 'detail-desktop');

    await page.goto(`${world.baseUrl}/search/kai.morenorodriguez`, { waitUntil: 'networkidle' });
    await expectFitted(page.getByRole('list', { name: 'Artists found' }).locator('.kn-artist__name'), 'Kai.morenorodriguez Lu');
    await shot(page, 'search-desktop');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('when Kai opens the side menu and his profile at 390 px, then the drawer and the header keep his name’s words whole', async () => {
    const page = await signedInPage(world, kai, { viewport: PHONE });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/${kai.form.username}`, { waitUntil: 'networkidle' });
    await expectFitted(page.getByRole('heading', { level: 1 }), 'Kai.morenorodriguez Lu');
    await expectFitted(page.locator('.kn-profile-head__username'), `@${kai.form.username}`);
    await shot(page, 'profile-phone');

    await page.getByRole('banner').getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('navigation', { name: 'Side menu' });
    await expectFitted(drawer.locator('.kn-account__name'), shownName());
    await shot(page, 'side-menu-phone');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
