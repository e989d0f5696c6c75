/**
 * A cash-out in Chromium, end to end: Bea has earned $20.00 and asks to cash out; the admin finds her request on the
 * admins' cash-outs page with her balance and PayPal email, approves it after the question, and sees the server's
 * message, then finds the approval in the audit log; Bea's wallet shows the cash-out approved and her balance paid out.
 * Screenshots at 1280 and 390 px.
 */
import request from 'supertest';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, screenshot, watchErrors, screenshotBothWidths } from '../helpers/e2e';
import { auditEntry } from '../helpers/e2e-admin';
import { signedInPage, usePiecesWorld, type Member } from '../helpers/e2e-pieces';
import { credit, type TestMember } from '../helpers/ledger-factory';

jest.setTimeout(150_000);
useTestDatabase();

const world = usePiecesWorld('cash-outs');

const asTestMember = (member: Member): TestMember => ({ id: member.user.id, username: member.form.username, email: member.form.email, token: member.token });

it('when an admin approves Bea’s cash-out on the cash-outs page, then Bea’s wallet shows it approved and her balance paid out', async () => {
  const bea = world.bea;
  const auth = { Authorization: `Bearer ${bea.token}` };
  await credit(asTestMember(bea), 20_000_000);
  await request(world.baseUrl)
    .post(`/api/v2/user-setting/update-payment-info/${bea.user.id}`)
    .set(auth)
    .send({ paypal: 'bea.moon@paypal.example', password: bea.form.password })
    .expect(200);
  const asked = await request(world.baseUrl).post('/api/v2/user-history/earn').set(auth).send({ userId: bea.user.id }).expect(201);
  const historyId = asked.body.item.historyId as string;

  const admin = await world.admin();
  const page = await signedInPage(world, admin, { viewport: DESKTOP });
  const errors = watchErrors(page);
  await page.goto(`${world.baseUrl}/admin/cash-outs`, { waitUntil: 'networkidle' });
  const row = page.getByRole('row').filter({ hasText: bea.form.username });
  await row.waitFor();
  await page.getByText('bea.moon@paypal.example').waitFor();
  await screenshotBothWidths(page, 'cash-outs-waiting', { area: 'admin' });

  await row.getByRole('button', { name: 'Approve' }).click();
  const question = page.getByRole('dialog', { name: 'Approve this cash-out?' });
  await question.getByText('bea.moon@paypal.example').waitFor();
  await screenshot(page, 'cash-outs-approve-question-desktop');
  await question.getByRole('button', { name: 'Approve and send' }).click();
  await page.getByText('The cash-out was approved and sent.').waitFor();
  await row.getByText('Paid').waitFor();
  expect(await row.getByRole('button', { name: 'Approve' }).count()).toBe(0);
  await screenshotBothWidths(page, 'cash-outs-approved', { area: 'admin' });

  // The audit log, filtered by the request's id: the approval, with who made it and the state it changed.
  const entry = await auditEntry(page, world.baseUrl, { targetId: historyId, action: 'approve cash out' });
  await entry.getByText(`cash out request ${historyId}`).waitFor();
  await entry.getByText('pending → approved').waitFor();
  await entry.getByText(admin.form.email).waitFor();
  await screenshotBothWidths(page, 'cash-outs-approved-audit', { area: 'admin', focus: entry, fullPage: false });
  expect(errors).toEqual([]);

  const member = await signedInPage(world, bea, { viewport: DESKTOP });
  const memberErrors = watchErrors(member);
  await member.goto(`${world.baseUrl}/wallet`, { waitUntil: 'networkidle' });
  const item = member.getByRole('list', { name: 'History' }).getByRole('listitem').filter({ hasText: 'Your cash-out of $20.00 was approved' });
  await item.waitFor();
  expect(await item.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
  expect(await member.getByTestId('wallet-balance').textContent()).toBe('$0.00');
  expect(await member.getByText('Paid out').locator('xpath=following-sibling::dd').textContent()).toBe('$20.00');
  await screenshotBothWidths(member, 'cash-outs-member-paid');
  expect(memberErrors).toEqual([]);
});
