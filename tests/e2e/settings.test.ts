/**
 * End to end, the settings page: the production build of the SPA served by the real app on the real database,
 * driven in Chromium. A new member follows the side menu's 'Where are you from?' to `/user-setting`, chooses a
 * country, a region of it, a city and a time zone, saves, and sees "city, region" in the side menu, also after a
 * reload. She changes her password on her laptop: the laptop goes on, her phone is signed out. She makes an API key,
 * a program uses it, the list says when, and she revokes it. Screenshots at 1280 and 390 px land in
 * tests/e2e/screenshots/settings-*.png.
 */
import type { Page } from 'playwright-core';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, screenshotBothWidths, watchErrors } from '../helpers/e2e';
import { GOOD_PASSWORD } from '../helpers/auth';
import { signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';

jest.setTimeout(120_000);
useTestDatabase();

const world = usePiecesWorld('settings');

/** Chooses `option` in the antd select labelled `label`, typing to filter first. */
async function choose(page: Page, label: string, typed: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByLabel(label, { exact: true }).fill(typed);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${option}$`) })
    .click();
}

describe('regional settings in Chromium', () => {
  it('when a member sets where she is from at 1280 px, then the side menu shows the city and region, also after a reload', async () => {
    const page = await signedInPage(world, world.ana, { viewport: DESKTOP });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/explore`, { waitUntil: 'networkidle' });
    const side = page.getByRole('navigation', { name: 'Side menu' });
    await side.getByRole('link', { name: 'Where are you from?' }).click();
    await page.waitForURL(`${world.baseUrl}/user-setting`);
    await page.getByRole('heading', { name: 'Where you are from' }).waitFor();

    await choose(page, 'Country', 'Portu', 'Portugal');
    await choose(page, 'State or region', 'Lisb', 'Lisboa');
    await page.getByLabel('City', { exact: true }).fill('Lisbon');
    await choose(page, 'Time zone', 'Lisbon', 'Europe/Lisbon');
    await screenshot(page, 'settings-regional-desktop');
    await page.locator('form[aria-labelledby="kn-settings-regional"]').getByRole('button', { name: 'Save' }).click();
    await page.getByText('Success').waitFor();
    await side.getByText('Lisbon, Lisboa').waitFor();

    await page.reload({ waitUntil: 'networkidle' });
    await side.getByText('Lisbon, Lisboa').waitFor();
    expect(await page.getByLabel('City', { exact: true }).inputValue()).toBe('Lisbon');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('when a member saves her social profiles, then her public profile links to them', async () => {
    const page = await signedInPage(world, world.ana, { viewport: DESKTOP });
    await page.goto(`${world.baseUrl}/user-setting`, { waitUntil: 'networkidle' });
    const social = page.locator('form[aria-labelledby="kn-settings-social"]');
    await social.getByRole('textbox', { name: 'X (Twitter)' }).fill('@ana_lima');
    await social.getByRole('textbox', { name: 'Instagram' }).fill('instagram.com/ana.lima');
    await social.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Success').waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[aria-label="X (Twitter)"]')?.value === 'https://x.com/ana_lima');

    await page.goto(`${world.baseUrl}/${world.ana.form.username}`, { waitUntil: 'networkidle' });
    const links = page.getByRole('list', { name: 'Social profiles' });
    expect(await links.getByRole('link', { name: 'X profile' }).getAttribute('href')).toBe('https://x.com/ana_lima');
    expect(await links.getByRole('link', { name: 'Instagram profile' }).getAttribute('href')).toBe('https://www.instagram.com/ana.lima');
    await screenshot(page, 'settings-social-profile-desktop');
    await page.context().close();
  });

  it('when a member saves her details and turns news mails off, then they are kept after a reload', async () => {
    const page = await signedInPage(world, world.ana, { viewport: DESKTOP });
    await page.goto(`${world.baseUrl}/user-setting`, { waitUntil: 'networkidle' });
    const personal = page.locator('form[aria-labelledby="kn-settings-personal"]');
    await personal.getByRole('radio', { name: 'Woman' }).check();
    await personal.getByLabel('Birthday', { exact: true }).fill('1994-03-08');
    await personal.getByRole('textbox', { name: 'Bio' }).fill('Songs and photos from Lisbon.');
    await personal.getByRole('checkbox', { name: 'Email me news from Knack and about my messages' }).uncheck();
    await personal.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Success').waitFor();

    await page.reload({ waitUntil: 'networkidle' });
    await personal.getByRole('textbox', { name: 'Bio' }).waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Bio"]')?.value === 'Songs and photos from Lisbon.');
    expect(await personal.getByLabel('Birthday', { exact: true }).inputValue()).toBe('1994-03-08');
    expect(await personal.getByRole('radio', { name: 'Woman' }).isChecked()).toBe(true);
    expect(await personal.getByRole('checkbox', { name: 'Email me news from Knack and about my messages' }).isChecked()).toBe(false);
    await screenshot(page, 'settings-personal-desktop');
    await page.context().close();
  });

  it('when a member changes her password on one device, then she stays signed in there and the other device is signed out', async () => {
    const laptop = await signedInPage(world, world.bea, { viewport: DESKTOP });
    const phone = await signedInPage(world, world.bea, { viewport: PHONE });
    await phone.goto(`${world.baseUrl}/wallet`, { waitUntil: 'networkidle' });
    await phone.getByRole('heading', { name: 'Wallet' }).waitFor();

    await laptop.goto(`${world.baseUrl}/user-setting`, { waitUntil: 'networkidle' });
    const password = laptop.locator('form[aria-labelledby="kn-settings-password"]');
    await password.getByLabel('Current password', { exact: true }).fill(GOOD_PASSWORD);
    await password.getByLabel('New password', { exact: true }).fill('N3w!secret');
    await password.getByLabel('Confirm the new password', { exact: true }).fill('N3w!secret');
    await password.getByRole('button', { name: 'Change password' }).click();
    await laptop.getByText('Your password is changed. Your other devices are signed out.').waitFor();
    await screenshot(laptop, 'settings-password-desktop');
    // The laptop goes on: a reload restores its new session.
    await laptop.reload({ waitUntil: 'networkidle' });
    await laptop.getByRole('heading', { name: 'Password' }).waitFor();
    await laptop.getByRole('button', { name: 'Logout' }).waitFor();

    // The phone's session ended: a reload finds no session, and the member-only page sends it home.
    await phone.reload({ waitUntil: 'networkidle' });
    await phone.waitForURL(`${world.baseUrl}/`);
    await phone.waitForFunction(() => window.localStorage.getItem('knack:account') === null);
    expect(await laptop.getByRole('button', { name: 'Logout' }).count()).toBe(1);
    expect(await phone.evaluate(() => window.localStorage.getItem('knack:account'))).toBeNull();
    await laptop.context().close();
    await phone.context().close();
  });

  it('when a member makes an API key, then it is shown once, a program can use it, the list says when, and Revoke asks before it ends the key', async () => {
    const page = await signedInPage(world, world.ana, { viewport: DESKTOP });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/user-setting`, { waitUntil: 'networkidle' });
    const group = page.getByRole('region', { name: 'API keys' });
    await group.getByText('You have no keys yet.').waitFor();
    await group.getByPlaceholder('What the key is for').fill('Sales dashboard');
    await group.getByRole('checkbox', { name: /Read my earnings/ }).check();
    await group.getByRole('button', { name: 'Make a key' }).click();
    const secret = (await group.getByLabel('Your new API key').textContent()) ?? '';
    expect(secret).toMatch(/^knk_[A-Za-z0-9_-]{43}$/);
    await group.getByText(/never used/).waitFor();
    await screenshotBothWidths(page, 'settings-api-key-made', { focus: group, fullPage: false });

    const used = await fetch(`${world.baseUrl}/api/v2/content/get-by-kind/new`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(used.status).toBe(200);
    expect(used.headers.get('ratelimit-policy')).toBe('"api-key";q=600;w=60');
    await page.reload({ waitUntil: 'networkidle' });
    await group.getByText(/last used just now/).waitFor();
    expect(await group.getByLabel('Your new API key').count()).toBe(0);

    await group.getByRole('button', { name: 'Revoke Sales dashboard' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/stops working at once/).waitFor();
    await screenshotBothWidths(page, 'settings-api-key-revoke', { fullPage: false });
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await group.getByText('You have no keys yet.').waitFor();
    expect((await fetch(`${world.baseUrl}/api/v2/content/get-by-kind/new`, { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(401);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('when a member opens the settings at 390 px, then the form fits the screen', async () => {
    const page = await signedInPage(world, world.ana, { viewport: PHONE });
    await page.goto(`${world.baseUrl}/user-setting`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Where you are from' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await screenshot(page, 'settings-regional-phone');
    await page.context().close();
  });
});
