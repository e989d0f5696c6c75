/**
 * Messages in Chromium, as two new members use them: Ana writes to Bea from Bea's profile (Bea chosen at first);
 * Bea, already on another page, sees the unread badge without reloading (the poll's 30 s passed with Playwright's
 * clock, not waited), opens the thread in /inbox and replies, the recipient locked. Then Ana writes to 'Admin' and an
 * admin answers from the support inbox. Ana finds recipients by typing the start of their username, with the
 * keyboard; a member who blocked her answers the server's refusal. Screenshots at 1280 and 390 px land in
 * tests/e2e/screenshots/messages-*.png.
 */
import type { Page } from 'playwright-core';
import request from 'supertest';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, watchErrors } from '../helpers/e2e';
import { signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';
import { dialog, toast } from '../helpers/e2e-upload';

useTestDatabase();
jest.setTimeout(120_000);

const world = usePiecesWorld('messages');

describe('messages in Chromium', () => {
  it('when Ana writes to Bea from her profile, then Bea sees the badge without reloading and replies', async () => {
    const ana = await world.member('Ana', 'Reed');
    const bea = await world.member('Bea', 'Stone');
    const beaPage = await signedInPage(world, bea, { viewport: DESKTOP });
    await beaPage.clock.install();
    const beaErrors = watchErrors(beaPage);
    await beaPage.goto(`${world.baseUrl}/explore`, { waitUntil: 'networkidle' });
    const topInbox = beaPage.getByRole('banner').getByRole('link', { name: /Inbox/ });
    await topInbox.waitFor();
    expect(await beaPage.getByTestId('unread-badge').count()).toBe(0);

    const anaPage = await signedInPage(world, ana, { viewport: DESKTOP });
    const anaErrors = watchErrors(anaPage);
    await anaPage.goto(`${world.baseUrl}/${bea.form.username}`, { waitUntil: 'networkidle' });
    await anaPage.getByRole('button', { name: 'Message' }).click();
    const compose = dialog(anaPage, 'New message');
    // The profile's member is the recipient at first, with their username and name.
    await compose.getByTestId('message-recipient').getByText(`@${bea.form.username}`).waitFor();
    await compose.getByTestId('message-recipient').getByText('Bea Stone').waitFor();
    await compose.getByLabel('Subject').fill('Your photos');
    await compose.getByLabel('Message').fill('The harbour series is lovely.');
    await screenshot(anaPage, 'messages-compose-desktop');
    await compose.getByRole('button', { name: 'Send' }).click();
    await toast(anaPage, 'A message was sent to Bea Stone');

    // Bea's tab asks again within 30 s by itself.
    await beaPage.clock.runFor(30_000);
    await topInbox.getByTestId('unread-badge').filter({ hasText: '1' }).waitFor();
    await beaPage.getByRole('navigation', { name: 'Side menu' }).getByTestId('unread-badge').filter({ hasText: '1' }).waitFor();
    await screenshot(beaPage, 'messages-badge-desktop');

    await topInbox.click();
    await beaPage.waitForURL(`${world.baseUrl}/inbox`);
    await beaPage.getByRole('region', { name: 'Conversations' }).getByText('Your photos').click();
    const view = beaPage.getByRole('region', { name: 'Conversation', exact: true });
    await view.getByText('The harbour series is lovely.').waitFor();
    // Opening it reads it: the badge goes at once.
    await beaPage.getByTestId('unread-badge').first().waitFor({ state: 'detached' });
    await view.getByRole('button', { name: 'Reply' }).click();
    const replyBox = dialog(beaPage, 'Reply');
    await replyBox.getByText('Ana Reed').waitFor();
    expect(await replyBox.locator('.ant-select-disabled').count()).toBe(1);
    await replyBox.getByLabel('Message').fill('Thank you, Ana!');
    await screenshot(beaPage, 'messages-reply-desktop');
    await replyBox.getByRole('button', { name: 'Send' }).click();
    await toast(beaPage, 'A reply message was sent to Ana Reed');
    await view.getByText('Thank you, Ana!').waitFor();
    await screenshot(beaPage, 'messages-thread-desktop', true);

    await beaPage.setViewportSize(PHONE);
    await screenshot(beaPage, 'messages-thread-phone', true);
    await view.getByRole('button', { name: 'Back' }).click();
    await beaPage.getByRole('region', { name: 'Conversations' }).getByText('Your photos').waitFor();
    await screenshot(beaPage, 'messages-inbox-phone', true);
    expect(beaErrors).toEqual([]);
    expect(anaErrors).toEqual([]);
    await beaPage.context().close();
    await anaPage.context().close();
  });

  it("when Ana writes to 'Admin', then an admin answers from the support inbox", async () => {
    const ana = await world.member('Ana', 'Moss');
    const anaPage = await signedInPage(world, ana, { viewport: PHONE });
    const anaErrors = watchErrors(anaPage);
    await anaPage.goto(`${world.baseUrl}/inbox`, { waitUntil: 'networkidle' });
    await anaPage.getByRole('button', { name: 'Write to Admin' }).click();
    const compose = dialog(anaPage, 'New message');
    await compose.getByLabel('Message').fill('When are payouts made?');
    await compose.getByRole('button', { name: 'Send' }).click();
    await toast(anaPage, 'Enter all required input fields');
    await compose.getByLabel('Subject').fill('Payouts');
    await screenshot(anaPage, 'messages-admin-compose-phone');
    await compose.getByRole('button', { name: 'Send' }).click();
    await toast(anaPage, 'A message was sent to Admin');

    const admin = await world.admin();
    const adminPage = await signedInPage(world, admin, { viewport: DESKTOP });
    const adminErrors = watchErrors(adminPage);
    await adminPage.goto(`${world.baseUrl}/inbox`, { waitUntil: 'networkidle' });
    await adminPage.getByRole('button', { name: 'Support inbox' }).click();
    await adminPage.getByRole('heading', { name: 'Support inbox' }).waitFor();
    await adminPage.getByRole('region', { name: 'Conversations' }).getByText('Payouts', { exact: true }).click();
    const view = adminPage.getByRole('region', { name: 'Conversation', exact: true });
    await view.getByText('When are payouts made?').waitFor();
    await view.getByRole('button', { name: 'Reply' }).click();
    const replyBox = dialog(adminPage, 'Reply');
    await replyBox.getByLabel('Message').fill('On the 5th of each month.');
    await replyBox.getByRole('button', { name: 'Send' }).click();
    await toast(adminPage, 'A reply message was sent to Ana Moss');
    await view.getByText('On the 5th of each month.').waitFor();
    await screenshot(adminPage, 'messages-support-inbox-desktop', true);

    await anaPage.reload({ waitUntil: 'networkidle' });
    await anaPage.getByRole('region', { name: 'Conversations' }).getByText('Payouts', { exact: true }).click();
    await anaPage.getByRole('region', { name: 'Conversation', exact: true }).getByText('On the 5th of each month.').waitFor();
    await screenshot(anaPage, 'messages-admin-answer-phone', true);
    expect(anaErrors).toEqual([]);
    expect(adminErrors).toEqual([]);
    await anaPage.context().close();
    await adminPage.context().close();
  });

  it('when Ana types the start of usernames, then she picks members with the keyboard; one who blocked her answers the refusal', async () => {
    const ana = await world.member('Ana', 'Finch');
    const kai = await world.member('Kai.morenorodriguez', 'Lu');
    const kaia = await world.member('Kaia', 'Stone');
    const blocker = await world.member('Kaiblock', 'Noor');
    await request(world.baseUrl)
      .post('/api/v2/message/block')
      .set({ Authorization: `Bearer ${blocker.token}` })
      .send({ userId: blocker.user.id, blockedId: ana.user.id, block: true })
      .expect(200);

    const page = await signedInPage(world, ana, { viewport: DESKTOP });
    // The refusal the test provokes on purpose.
    const errors = watchErrors(page, /status of 403/);
    await page.goto(`${world.baseUrl}/inbox`, { waitUntil: 'networkidle' });
    const compose = await searchRecipients(page, 'kai');
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await options.filter({ hasText: `@${kaia.form.username}` }).waitFor();
    expect(await options.allTextContents()).toEqual([
      `@${kai.form.username}Kai.morenorodriguez Lu`,
      `@${kaia.form.username}Kaia Stone`,
      `@${blocker.form.username}Kaiblock Noor`,
    ]);
    await screenshot(page, 'messages-recipient-search-desktop');
    // The first match is active; the arrow key moves to the second and Enter chooses it.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await compose.getByTestId('message-recipient').getByText(`@${kaia.form.username}`).waitFor();
    await compose.getByLabel('Subject').fill('Your stones');
    await compose.getByLabel('Message').fill('Lovely series.');
    await compose.getByRole('button', { name: 'Send' }).click();
    await toast(page, 'A message was sent to Kaia Stone');
    await compose.waitFor({ state: 'hidden' });

    const again = await searchRecipients(page, 'kaib');
    await options.filter({ hasText: `@${blocker.form.username}` }).waitFor();
    // What 'kaib' rules out leaves the list at once, before the new answer.
    expect(await options.allTextContents()).toEqual([`@${blocker.form.username}Kaiblock Noor`]);
    await page.keyboard.press('Enter');
    await again.getByTestId('message-recipient').getByText(`@${blocker.form.username}`).waitFor();
    await again.getByLabel('Subject').fill('Hello');
    await again.getByLabel('Message').fill('Hi there.');
    await again.getByRole('button', { name: 'Send' }).click();
    await toast(page, 'This member does not accept your messages.');
    await again.getByRole('button', { name: 'Send' }).waitFor();

    expect(errors).toEqual([]);
    await page.context().close();

    const phone = await signedInPage(world, ana, { viewport: PHONE });
    const phoneErrors = watchErrors(phone);
    await phone.goto(`${world.baseUrl}/inbox`, { waitUntil: 'networkidle' });
    const small = await searchRecipients(phone, 'kai');
    await phone
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: `@${kaia.form.username}` })
      .waitFor();
    await screenshot(phone, 'messages-recipient-search-phone');
    await phone.keyboard.press('Enter');
    const field = small.getByTestId('message-recipient');
    await field.getByText(`@${kai.form.username}`).waitFor();
    // The long recipient fits the modal's width (cut with an ellipsis), not wider.
    const [fieldBox, modalBox] = await Promise.all([field.boundingBox(), small.boundingBox()]);
    expect(fieldBox!.x + fieldBox!.width).toBeLessThanOrEqual(modalBox!.x + modalBox!.width);
    await screenshot(phone, 'messages-recipient-chosen-phone');
    expect(phoneErrors).toEqual([]);
    await phone.context().close();
  });
});

/** Opens the new message modal from the inbox and types `typed` into its recipient field; answers the modal. */
async function searchRecipients(page: Page, typed: string) {
  await page.getByRole('button', { name: 'Write to Admin' }).click();
  const compose = dialog(page, 'New message');
  await compose.getByRole('combobox', { name: 'Recipient' }).click();
  await page.keyboard.type(typed);
  return compose;
}
