/**
 * The admin area's support inbox, `/admin/support`: the support account's threads (members' messages to 'Admin'), a
 * thread opened with the view of the inbox, a reply sent as support, and a new message written to a member as support
 * with the create-message modal. The generated operations are mocked; the store, router, modals and toasts are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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
import { modalTitled } from './dialogs';
import { messageCounts, messageThread, THREAD_ID, threadMessage } from './message-fixtures';
import { path, toastTexts } from './profile-fixtures';
import { renderAsMember } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const SUPPORT = { id: '64b0000000000000000000f1', name: 'Knack Support' };
const BEA = { id: '64b0000000000000000000b2', name: 'Bea Moon', username: 'bea_moon' };
const admin = makeAdmin;
const counts = (unread: number) => messageCounts(unread);
const QUIET = expect.objectContaining({ quiet: expect.any(String) });
const thread = (overrides: Parameters<typeof messageThread>[1] = {}) =>
  messageThread(BEA, { subject: 'My payout', lastMessage: 'Where is my payout?', ...overrides });
const fromBea = (n: number, text: string) => threadMessage(n, BEA, SUPPORT, text);
const fromSupport = (n: number, text: string) => threadMessage(n, SUPPORT, BEA, text);

beforeEach(() => {
  jest.mocked(getSupportAccount).mockResolvedValue({ id: SUPPORT.id, recipientId: 'admin', name: 'Admin' });
  jest.mocked(getMessageCounts).mockResolvedValue(counts(0));
  jest.mocked(getMessagesByReceiver).mockResolvedValue({ threads: [thread()], nextCursor: null });
  jest.mocked(getMessageThread).mockResolvedValue({ thread: thread(), messages: [fromBea(1, 'Where is my payout?')], earlierCursor: null, blockedByMe: false });
  jest.mocked(updateMessageRead).mockResolvedValue({ message: 'Success', counts: counts(0) });
});

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
  jest.mocked(replyMessage).mockResolvedValue({ message: 'A reply message was sent to Bea Moon', thread: thread(), item: fromSupport(2, 'It is on its way.') });
  const list = await openSupport();
  expect(getMessagesByReceiver).toHaveBeenCalledWith({ path: { id: SUPPORT.id } }, expect.anything());
  fireEvent.click(list.getByText('My payout'));
  const view = within(screen.getByRole('region', { name: 'Conversation' }));
  expect(await view.findByText('Where is my payout?')).toBeTruthy();
  await waitFor(() => expect(updateMessageRead).toHaveBeenCalledWith({ body: { userId: SUPPORT.id, messageId: THREAD_ID } }, expect.anything()));
  fireEvent.click(view.getByRole('button', { name: 'Reply' }));
  const modal = await modalTitled('Reply');
  fireEvent.change(modal.getByLabelText('Message'), { target: { value: 'It is on its way.' } });
  fireEvent.click(modal.getByRole('button', { name: 'Send' }));
  await waitFor(() => expect(toastTexts()).toContain('A reply message was sent to Bea Moon'));
  expect(replyMessage).toHaveBeenCalledWith({ body: { senderId: SUPPORT.id, messageId: THREAD_ID, receiverId: BEA.id, message: 'It is on its way.' } }, QUIET);
});

it('when an admin writes a new message to a member, then it is sent as support', async () => {
  jest.mocked(searchMembers).mockResolvedValue({ members: [{ id: BEA.id, username: 'bea_moon', fullName: 'Bea Moon', image: null }] });
  jest.mocked(createMessage).mockResolvedValue({ message: 'A message was sent to Bea Moon', thread: thread(), item: fromSupport(1, 'Hello') });
  await openSupport();
  fireEvent.click(screen.getByRole('button', { name: 'New message' }));
  const modal = await modalTitled('New message');
  const recipient = modal.getByRole('combobox', { name: 'Recipient' });
  fireEvent.change(recipient, { target: { value: 'bea' } });
  fireEvent.click(await screen.findByText('@bea_moon', { selector: '.ant-select-item-option-content *' }));
  fireEvent.change(modal.getByLabelText('Subject'), { target: { value: 'Your payout' } });
  fireEvent.change(modal.getByLabelText('Message'), { target: { value: 'Hello' } });
  fireEvent.click(modal.getByRole('button', { name: 'Send' }));
  await waitFor(() => expect(toastTexts()).toContain('A message was sent to Bea Moon'));
  expect(createMessage).toHaveBeenCalledWith({ body: { senderId: SUPPORT.id, receiverId: BEA.id, subject: 'Your payout', message: 'Hello' } }, QUIET);
});
