/**
 * The admin area's members in Chromium, with the embedded outbox as the mailer:
 * - an admin creates an account with a test email from the account-create modal, follows the link to its activation
 *   mail in the outbox, and the mail's link activates the account;
 * - an admin finds a member, changes their standard credits with a note, sees the new count, and the audit log keeps
 *   the change with its note;
 * - the audit log page, filtered by call or by member, shows the account's creation and the credits' change.
 * Screenshots at 1280 and 390 px.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { outboxMailer, TEST_MAILBOX_DOMAIN } from '../../server/integrations/mail';
import { UserModel } from '../../server/modules/users';
import { createActiveMember, outboxMailbox } from '../helpers/auth';
import { auditEntry } from '../helpers/e2e-admin';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, startE2eApp, watchErrors, type E2eApp, screenshotBothWidths } from '../helpers/e2e';
import { signedInPage, type Member } from '../helpers/e2e-pieces';
import { untilEqual } from '../helpers/wait';

jest.setTimeout(150_000);
useTestDatabase();

const outboxDir = mkdtempSync(path.join(os.tmpdir(), 'knack-e2e-admin-members-outbox-'));
let e2e: E2eApp;
let admin: Member;
let bea: Member;

beforeAll(async () => {
  e2e = await startE2eApp({ mailer: outboxMailer(outboxDir, 'Knack <no-reply@knack.test>') });
  const mailbox = outboxMailbox(outboxDir);
  const stamp = Date.now().toString(36).slice(-5);
  admin = await createActiveMember(e2e.baseUrl, mailbox, { email: 'admin@knack.example', username: `admin_${stamp}` });
  bea = await createActiveMember(e2e.baseUrl, mailbox, { firstName: 'Bea', lastName: 'Moon', username: `bea_moon_${stamp}` });
});
afterAll(async () => e2e?.stop());

it('when an admin creates an account with a test email, then its activation mail opens from the outbox and activates it', async () => {
  const page = await signedInPage(e2e, admin, { viewport: DESKTOP });
  const errors = watchErrors(page);
  await page.goto(`${e2e.baseUrl}/admin/members`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
  await page.getByRole('table').getByText(`@${bea.form.username}`).waitFor();
  await screenshotBothWidths(page, 'admin-members-list', { area: 'admin', fullPage: false });

  await page.getByRole('button', { name: 'Create an account' }).click();
  const modal = page.getByRole('dialog').filter({ has: page.getByText('Create an account', { exact: true }) });
  await modal.getByRole('button', { name: 'Create account' }).click();
  await modal.getByText('You should input your first name.').waitFor();
  await modal.getByLabel('First name').fill('Nora');
  await modal.getByLabel('Last name').fill('Quinn');
  await modal.getByLabel('Username').fill('Nora Quinn');
  await modal.getByLabel('Password', { exact: true }).fill('Str0ng!pass');
  await modal.getByRole('button', { name: 'Test email' }).click();
  await modal.getByText('A throwaway address: its mail lands in the outbox.').waitFor();
  const email = await modal.getByLabel('Email').inputValue();
  expect(email).toMatch(new RegExp(`^test-[0-9a-f]{10}@${TEST_MAILBOX_DOMAIN.replace(/\./g, '\\.')}$`));
  await screenshotBothWidths(page, 'admin-members-create-modal', { area: 'admin', focus: modal, fullPage: false });

  await modal.getByRole('button', { name: 'Create account' }).click();
  const link = modal.getByRole('link', { name: 'Open its mail in the outbox' });
  await link.waitFor();
  await screenshotBothWidths(page, 'admin-members-created', { area: 'admin', focus: modal, fullPage: false });
  const [outbox] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await outbox.waitForLoadState();
  await outbox.getByRole('cell', { name: email }).waitFor();
  await outbox.getByRole('link', { name: 'Activate your Knack account' }).click();
  await outbox.getByRole('heading', { name: 'Activate your Knack account' }).waitFor();
  await outbox.setViewportSize(DESKTOP);
  await screenshot(outbox, 'admin-members-outbox-mail-desktop');
  await outbox.setViewportSize(PHONE);
  await screenshot(outbox, 'admin-members-outbox-mail-phone');
  const activate = await outbox.locator('.mail a[href*="/confirm?token="]').first().getAttribute('href');
  await outbox.goto(activate!, { waitUntil: 'networkidle' });
  await untilEqual(async () => (await UserModel.findOne({ email }, { isActive: 1 }).lean())?.isActive, true);
  const created = (await UserModel.findOne({ email }, { username: 1 }).lean())!;
  expect(created.username).toBe('nora_quinn');

  // The audit log, filtered by the call: the account, with who created it. (A window of its own: activating the
  // account signed this browser in as its new member.)
  const admins = await signedInPage(e2e, admin, { viewport: DESKTOP });
  const entry = await auditEntry(admins, e2e.baseUrl, { call: 'createMemberAccount', action: 'create member account' });
  await entry.getByText(`member ${String(created._id)}`).waitFor();
  await entry.getByText(`— → ${email}`).waitFor();
  await entry.getByText(admin.form.email).waitFor();
  await screenshotBothWidths(admins, 'admin-members-created-audit', { area: 'admin', focus: entry, fullPage: false });
  expect(errors).toEqual([]);
});

it('when an admin changes a member’s credits with a note, then the panel shows the new count and the audit log keeps the note', async () => {
  const page = await signedInPage(e2e, admin, { viewport: DESKTOP });
  const errors = watchErrors(page);
  await page.goto(`${e2e.baseUrl}/admin/members`, { waitUntil: 'networkidle' });
  const search = page.getByLabel('Search members');
  await search.fill(bea.form.username);
  await search.press('Enter');
  await page.getByRole('table').getByText(`@${bea.form.username}`).click();
  const panel = page.locator('.kn-members__panel');
  await panel.getByTestId('member-scredits').waitFor();
  expect(await panel.getByTestId('member-scredits').textContent()).toBe('0');

  const form = panel.getByRole('form', { name: 'Change credits' });
  await form.getByLabel('Credits to add').fill('3');
  await form.getByLabel('Note').fill('Contest prize');
  await form.getByRole('button', { name: 'Change credits' }).click();
  await panel.getByTestId('member-scredits').filter({ hasText: /^3$/ }).waitFor();
  await panel.getByText('+3 standard · “Contest prize”').waitFor();
  await screenshotBothWidths(page, 'admin-members-credits', { area: 'admin', focus: form, fullPage: false });

  // The audit log, filtered by the member's id: the change, with the count before and after and the note.
  const entry = await auditEntry(page, e2e.baseUrl, { targetId: bea.user.id, action: 'update standard credits' });
  await entry.getByText(`member ${bea.user.id}`).waitFor();
  await entry.getByText('0 → 3').waitFor();
  await entry.getByText('— → Contest prize').waitFor();
  await entry.getByText(admin.form.email).waitFor();
  await screenshotBothWidths(page, 'admin-members-credits-audit', { area: 'admin', focus: entry, fullPage: false });
  expect(errors).toEqual([]);
});
