/**
 * The admin area's support inbox, `/admin/support`: the support account's threads (members' messages to 'Admin'), a
 * thread opened with the view of the inbox, a reply sent as support, and a new message written to a member as support
 * with the create-message modal. The generated operations are mocked; the store, router, modals and toasts are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { components } from '../../generated/openapi';
import {
  createMessage,
  getMessageCounts,
  getMessagesByReceiver,
  getMessageThread,
  getSupportAccount,
  replyMessage,
  searchMembers,
  updateMessageRead,
} from '../../client/src/api/generated/operations';
import { makeAdmin, makeUser } from './auth-fixtures';
import { path, toastTexts } from './profile-fixtures';
import { renderAsMember } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

type Thread = components['schemas']['MessageThread'];
const SUPPORT_ID = '64b0000000000000000000f1';
const BEA_ID = '64b0000000000000000000b2';
const THREAD_ID = '65a000000000000000000001';
const admin = makeAdmin;
const counts = (unread: number) => ({ unread, important: 0, deleted: 0, total: 1 });
const QUIET = expect.objectContaining({ quiet: expect.any(String) });

const thread = (overrides: Partial<Thread> = {}): Thread => ({
  id: THREAD_ID,
  subject: 'My payout',
  otherId: BEA_ID,
  otherName: 'Bea Moon',
  otherUsername: 'bea_moon',
  otherPhoto: null,
  lastMessage: 'Where is my payout?',
  lastSenderId: BEA_ID,
  messagesCount: 1,
  isRead: false,
  isImportant: false,
  isDeleted: false,
  at: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const message = (n: number, senderId: string, text: string) => ({
  id: `${THREAD_ID}-${n}`,
  threadId: THREAD_ID,
  n,
  senderId,
  senderName: senderId === BEA_ID ? 'Bea Moon' : 'Knack Support',
  receiverId: senderId === BEA_ID ? SUPPORT_ID : BEA_ID,
  message: text,
  at: '2026-11-20T10:00:00.000Z',
});

beforeEach(() => {
  jest.mocked(getSupportAccount).mockResolvedValue({ id: SUPPORT_ID, recipientId: 'admin', name: 'Admin' });
  jest.mocked(getMessageCounts).mockResolvedValue(counts(0));
  jest.mocked(getMessagesByReceiver).mockResolvedValue({ threads: [thread()], nextCursor: null });
  jest
    .mocked(getMessageThread)
    .mockResolvedValue({ thread: thread(), messages: [message(1, BEA_ID, 'Where is my payout?')], earlierCursor: null, blockedByMe: false });
  jest.mocked(updateMessageRead).mockResolvedValue({ message: 'Success', counts: counts(0) });
});

const dialog = async (title: string) =>
  within(
    await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-modal')].find((node) => node.querySelector('.ant-modal-title')?.textContent === title);
      if (!found) throw new Error(`no ${title} dialog`);
      return found;
    }),
  );

async function openSupport() {
  await renderAsMember('/admin/support', admin());
  await screen.findByRole('heading', { level: 1, name: /Support inbox/ });
  const list = within(await screen.findByRole('region', { name: 'Conversations' }));
  await list.findByText('My payout');
  return list;
}

it('when a member opens /admin/support, then they are sent home and the support inbox is never asked for', async () => {
  await renderAsMember('/admin/support', makeUser());
  await waitFor(() => expect(path()).toBe('/'));
  expect(getMessagesByReceiver).not.toHaveBeenCalled();
});

it('when an admin opens a thread and replies, then the support account’s inbox is read, the thread marked read, and the reply sent as support', async () => {
  jest
    .mocked(replyMessage)
    .mockResolvedValue({ message: 'A reply message was sent to Bea Moon', thread: thread(), item: message(2, SUPPORT_ID, 'It is on its way.') });
  const list = await openSupport();
  expect(getMessagesByReceiver).toHaveBeenCalledWith({ path: { id: SUPPORT_ID } }, expect.anything());
  fireEvent.click(list.getByText('My payout'));
  const view = within(screen.getByRole('region', { name: 'Conversation' }));
  expect(await view.findByText('Where is my payout?')).toBeTruthy();
  await waitFor(() => expect(updateMessageRead).toHaveBeenCalledWith({ body: { userId: SUPPORT_ID, messageId: THREAD_ID } }, expect.anything()));
  fireEvent.click(view.getByRole('button', { name: 'Reply' }));
  const modal = await dialog('Reply');
  fireEvent.change(modal.getByLabelText('Message'), { target: { value: 'It is on its way.' } });
  fireEvent.click(modal.getByRole('button', { name: 'Send' }));
  await waitFor(() => expect(toastTexts()).toContain('A reply message was sent to Bea Moon'));
  expect(replyMessage).toHaveBeenCalledWith({ body: { senderId: SUPPORT_ID, messageId: THREAD_ID, receiverId: BEA_ID, message: 'It is on its way.' } }, QUIET);
});

it('when an admin writes a new message to a member, then it is sent as support', async () => {
  jest.mocked(searchMembers).mockResolvedValue({ members: [{ id: BEA_ID, username: 'bea_moon', fullName: 'Bea Moon', image: null }] });
  jest.mocked(createMessage).mockResolvedValue({ message: 'A message was sent to Bea Moon', thread: thread(), item: message(1, SUPPORT_ID, 'Hello') });
  await openSupport();
  fireEvent.click(screen.getByRole('button', { name: 'New message' }));
  const modal = await dialog('New message');
  const recipient = modal.getByRole('combobox', { name: 'Recipient' });
  fireEvent.change(recipient, { target: { value: 'bea' } });
  fireEvent.click(await screen.findByText('@bea_moon', { selector: '.ant-select-item-option-content *' }));
  fireEvent.change(modal.getByLabelText('Subject'), { target: { value: 'Your payout' } });
  fireEvent.change(modal.getByLabelText('Message'), { target: { value: 'Hello' } });
  fireEvent.click(modal.getByRole('button', { name: 'Send' }));
  await waitFor(() => expect(toastTexts()).toContain('A message was sent to Bea Moon'));
  expect(createMessage).toHaveBeenCalledWith({ body: { senderId: SUPPORT_ID, receiverId: BEA_ID, subject: 'Your payout', message: 'Hello' } }, QUIET);
});
