/** Page helpers for the upload modal in Chromium: open it, choose tags, wait for files, read toasts. */
import type { Locator, Page } from 'playwright-core';

export const dialog = (page: Page, name?: string): Locator => (name ? page.getByRole('dialog', { name }) : page.getByRole('dialog'));

export async function openUpload(page: Page): Promise<Locator> {
  await page.getByRole('banner').getByRole('button', { name: 'Upload' }).click();
  const modal = dialog(page, 'Upload content');
  await modal.getByRole('heading', { name: 'Upload your work' }).waitFor();
  return modal;
}

/** The main tag's button (the radio input itself is visually hidden by antd). */
export async function chooseMainTag(modal: Locator, name: 'Music' | 'Art' | 'Photos') {
  await modal.locator('label.kn-tagpick__option', { hasText: name }).click();
  expect(await modal.getByRole('radio', { name: new RegExp(name) }).isChecked()).toBe(true);
}

export async function chooseSubTag(page: Page, modal: Locator, label: 'Genre' | 'Category', option: string) {
  const field = modal.getByRole('combobox', { name: label });
  const openList = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  await field.click();
  await openList.locator(`.ant-select-item-option[title="${option}"]`).click();
  // Motion is off in the e2e pages, so the list closes as the choice is made and the field shows it.
  await openList.waitFor({ state: 'hidden' });
  // (`has` is matched inside each `.ant-select`, so it names the field without the dialog around it.)
  await modal.locator('.ant-select', { has: page.getByRole('combobox', { name: label }), hasText: option }).waitFor();
}

/** After a classic upload the payment modal of type dollar offers to monetize; the member says not now. */
export async function declineMonetizing(page: Page) {
  const offer = dialog(page, 'Monetize this piece');
  await offer.getByText(/Listing fee/).waitFor();
  await offer.getByRole('button', { name: 'Not now' }).click();
  await offer.waitFor({ state: 'hidden' });
}

/** The value of a progress bar. */
export async function progressOf(locator: Locator): Promise<number> {
  return Number(await locator.getAttribute('aria-valuenow'));
}

/** Waits until the file of the progress bar `name` in `scope` is sent (100) and stored (the bar turns to success). */
export async function untilComplete(scope: Locator, name: string) {
  const bar = scope.getByRole('progressbar', { name });
  await bar.waitFor();
  await scope.locator(`[role="progressbar"][aria-label="${name}"].ant-progress-status-success`).waitFor({ timeout: 30_000 });
  expect(await progressOf(bar)).toBe(100);
}

export async function toast(page: Page, text: string) {
  await page.locator('.ant-message-notice', { hasText: text }).first().waitFor({ timeout: 15_000 });
}
