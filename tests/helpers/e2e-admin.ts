/**
 * The admin area in Chromium, as an admin uses it: the audit log opened from its section, filtered with its own form.
 */
import type { Locator, Page } from 'playwright-core';

/**
 * Opens the audit log, filters it by call (an operationId, as typed in its Call field) and/or target id, and returns
 * the newest entry whose call in words is `action` (`create member account`), once it shows.
 */
export async function auditEntry(
  page: Page,
  baseUrl: string,
  { call, targetId, action }: { call?: string; targetId?: string; action: string },
): Promise<Locator> {
  await page.goto(`${baseUrl}/admin/audit`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
  const form = page.getByRole('form', { name: 'Filter the log' });
  if (call) await form.getByLabel('Call').fill(call);
  if (targetId) await form.getByLabel('Target id').fill(targetId);
  await form.getByRole('button', { name: 'Filter' }).click();
  await form.getByRole('button', { name: 'Clear' }).waitFor();
  const entry = page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem', { name: action }).first();
  await entry.waitFor();
  return entry;
}
