/**
 * The inbox and the message modal: the thread list and a thread (opening marks it read), reply with the recipient
 * locked, important, delete and restore; the modal's 'Enter all required input fields' and its success toast; and
 * the unread badge, which follows the counts by itself (the 30 s poll, driven by fake timers) and at once after a
 * change made in the tab; the inbox paged by `nextCursor` and a thread by `earlierCursor`; and the reads that load again
 * after a message is sent. The generated operations are mocked; the store, router, layout and toasts are real.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  blockMessageSender,
  createMessage,
  deleteMessage,
  getDeletedMessages,
  getFollowCount,
  getMessageCounts,
  getMessagesByReceiver,
  getMessageThread,
  replyMessage,
  restoreMessage,
  searchMembers,
  setMessageImportant,
  updateMessageRead,
} from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { modalTitled } from './dialogs';
import { messageCounts, messageThread, THREAD_ID, threadMessage } from './message-fixtures';
import { toastTexts } from './profile-fixtures';
import { jane, renderAsMember } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const BEA = { id: '64b000000000000000000002', name: 'Bea Stone', username: 'bea_stone' };
const counts = (unread: number) => messageCounts(unread, 2);
/** The options of a call whose failure the one error toast tells. */
const TOASTED = expect.objectContaining({ quiet: undefined });
/** The options of a quiet call: it says why, and no error toast shows. */
const QUIET = expect.objectContaining({ quiet: expect.any(String) });
const thread = (overrides: Parameters<typeof messageThread>[1] = {}) =>
  messageThread(BEA, { subject: 'Your last song', lastMessage: 'Loved it!', ...overrides });
const fromBea = (n: number, text: string) => threadMessage(n, BEA, { id: jane().id, name: 'Jane Doe' }, text);
const fromJane = (n: number, text: string) => threadMessage(n, { id: jane().id, name: 'Jane Doe' }, BEA, text);

beforeEach(() => {
  jest.mocked(getMessageCounts).mockResolvedValue(counts(1));
  jest
    .mocked(getMessagesByReceiver)
    .mockResolvedValue({ threads: [thread(), thread({ id: '65a000000000000000000002', subject: 'Older', isRead: true, otherName: 'Cid' })], nextCursor: null });
  jest.mocked(getDeletedMessages).mockResolvedValue({ threads: [], nextCursor: null });
  jest.mocked(getMessageThread).mockResolvedValue({ thread: thread(), messages: [fromBea(1, 'Loved it!')], earlierCursor: null, blockedByMe: false });
  jest.mocked(updateMessageRead).mockResolvedValue({ message: 'Success', counts: counts(0) });
});

async function openInbox() {
  const app = await renderAsMember('/inbox', jane());
  const list = within(await screen.findByRole('region', { name: 'Conversations' }));
  await list.findByText('Your last song');
  return { app, list };
}

describe('the inbox', () => {
  it('when Jane opens a thread, then its messages show, it is marked read and the badge goes down at once', async () => {
    const { list } = await openInbox();
    expect(list.getAllByTestId('inbox-thread').map((node) => node.textContent)).toEqual([expect.stringContaining('Bea Stone'), expect.stringContaining('Cid')]);
    await waitFor(() => expect(screen.getAllByTestId('unread-badge')[0]!.textContent).toBe('1'));
    // The server's counts once the thread is read (the change in this tab asks for them at once, no poll waited for).
    jest.mocked(getMessageCounts).mockResolvedValue(counts(0));
    fireEvent.click(list.getByText('Your last song'));
    const view = within(screen.getByRole('region', { name: 'Conversation' }));
    expect(await view.findByText('Loved it!')).toBeTruthy();
    expect(getMessageThread).toHaveBeenCalledWith({ path: { id: THREAD_ID } }, TOASTED);
    await waitFor(() => expect(updateMessageRead).toHaveBeenCalledWith({ body: { userId: jane().id, messageId: THREAD_ID } }, TOASTED));
    await waitFor(() => expect(screen.queryByTestId('unread-badge')).toBeNull());
    expect(window.location.search).toBe(`?thread=${THREAD_ID}`);
  });

  it("when a message holds web addresses, then this site's open in the app and others in a new tab, without the referrer", async () => {
    const text = `Sign it here: ${window.location.origin}/approve?token=abc.def, or read https://example.org/help.`;
    jest.mocked(getMessageThread).mockResolvedValue({ thread: thread(), messages: [fromBea(1, text)], earlierCursor: null, blockedByMe: false });
    const { list } = await openInbox();
    fireEvent.click(list.getByText('Your last song'));
    const view = within(screen.getByRole('region', { name: 'Conversation' }));
    const ours = await view.findByRole('link', { name: `${window.location.origin}/approve?token=abc.def` });
    expect(ours.getAttribute('href')).toBe('/approve?token=abc.def');
    expect(ours.getAttribute('target')).toBeNull();
    const theirs = view.getByRole('link', { name: 'https://example.org/help' });
    expect([theirs.getAttribute('href'), theirs.getAttribute('target'), theirs.getAttribute('rel')]).toEqual([
      'https://example.org/help',
      '_blank',
      'noopener noreferrer nofollow ugc',
    ]);
    expect(ours.closest('p')!.textContent).toBe(text);
    fireEvent.click(ours);
    await waitFor(() => expect(window.location.pathname).toBe('/approve'));
  });

  it('when Jane replies, then the recipient is locked to the thread’s other member and the toast names them', async () => {
    jest.mocked(replyMessage).mockResolvedValue({ message: 'A reply message was sent to Bea Stone', thread: thread(), item: fromJane(2, 'Thanks!') });
    const { list } = await openInbox();
    fireEvent.click(list.getByText('Your last song'));
    const view = within(screen.getByRole('region', { name: 'Conversation' }));
    fireEvent.click(await view.findByRole('button', { name: 'Reply' }));
    const modal = await modalTitled('Reply');
    expect(modal.getByText('Re: Your last song')).toBeTruthy();
    expect(modal.getByText('Bea Stone')).toBeTruthy();
    expect(document.querySelector('.ant-modal .ant-select-disabled')).toBeTruthy();
    expect(modal.queryByLabelText('Subject')).toBeNull();
    fireEvent.click(modal.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(toastTexts()).toContain('Enter all required input fields'));
    expect(replyMessage).not.toHaveBeenCalled();
    fireEvent.change(modal.getByLabelText('Message'), { target: { value: 'Thanks!' } });
    fireEvent.click(modal.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(toastTexts()).toContain('A reply message was sent to Bea Stone'));
    expect(replyMessage).toHaveBeenCalledWith({ body: { senderId: jane().id, messageId: THREAD_ID, receiverId: BEA.id, message: 'Thanks!' } }, QUIET);
  });

  it('when Jane marks a thread important, deletes it and restores it from Deleted, then each call is made and told', async () => {
    jest.mocked(setMessageImportant).mockResolvedValue({ message: 'Success', isImportant: true, counts: counts(0) });
    jest.mocked(deleteMessage).mockImplementation(async () => {
      // From now on the server lists the thread under Deleted, and the thread says so.
      jest.mocked(getDeletedMessages).mockResolvedValue({ threads: [thread({ isDeleted: true, isRead: true })], nextCursor: null });
      jest.mocked(getMessageThread).mockResolvedValue({
        thread: thread({ isDeleted: true, isRead: true }),
        messages: [fromBea(1, 'Loved it!')],
        earlierCursor: null,
        blockedByMe: false,
      });
      return { message: 'The conversation is moved to Deleted.', counts: counts(0) };
    });
    jest.mocked(restoreMessage).mockResolvedValue({ message: 'The conversation is back in your inbox.', counts: counts(0) });
    const { list } = await openInbox();
    fireEvent.click(list.getByText('Your last song'));
    const view = within(screen.getByRole('region', { name: 'Conversation' }));
    fireEvent.click(await view.findByRole('button', { name: /Mark important/ }));
    await waitFor(() => expect(setMessageImportant).toHaveBeenCalledWith({ body: { userId: jane().id, messageId: THREAD_ID, isImportant: true } }, TOASTED));
    fireEvent.click(view.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toastTexts()).toContain('The conversation is moved to Deleted.'));
    expect(deleteMessage).toHaveBeenCalledWith({ path: { id: THREAD_ID } }, TOASTED);

    fireEvent.click(screen.getByText('Deleted'));
    await waitFor(() => expect(getDeletedMessages).toHaveBeenCalledWith({ path: { id: jane().id } }, TOASTED));
    fireEvent.click(await list.findByText('Your last song'));
    fireEvent.click(await view.findByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(toastTexts()).toContain('The conversation is back in your inbox.'));
    expect(restoreMessage).toHaveBeenCalledWith({ path: { id: THREAD_ID } }, TOASTED);
  });
});

describe('the message modal', () => {
  it("when Jane writes to 'Admin' without a subject, then 'Enter all required input fields'; with one, the success toast", async () => {
    jest.mocked(createMessage).mockResolvedValue({ message: 'A message was sent to Admin', thread: thread(), item: fromJane(1, 'Help') });
    await openInbox();
    fireEvent.click(screen.getByRole('button', { name: 'Write to Admin' }));
    const modal = await modalTitled('New message');
    expect(modal.getByText('Admin')).toBeTruthy();
    fireEvent.change(modal.getByLabelText('Message'), { target: { value: 'Help' } });
    fireEvent.click(modal.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(toastTexts()).toContain('Enter all required input fields'));
    expect(createMessage).not.toHaveBeenCalled();
    fireEvent.change(modal.getByLabelText('Subject'), { target: { value: 'Payouts' } });
    fireEvent.click(modal.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(toastTexts()).toContain('A message was sent to Admin'));
    expect(createMessage).toHaveBeenCalledWith({ body: { senderId: jane().id, receiverId: 'admin', subject: 'Payouts', message: 'Help' } }, QUIET);
  });
});

describe('the recipient search', () => {
  const KAI_LEE = { id: '64b0000000000000000000c1', username: 'kai_lee', fullName: 'Kai Lee', image: null };
  const KAI_MORENO = { id: '64b0000000000000000000c2', username: 'kai.moreno', fullName: 'Kai Moreno', image: '/files/avatars/kai.jpg' };

  /** The inbox's new message modal, its recipient field typed into letter by letter as `typed`. */
  async function typeRecipient(typed: string) {
    await openInbox();
    fireEvent.click(screen.getByRole('button', { name: 'Write to Admin' }));
    const modal = await modalTitled('New message');
    const field = modal.getByRole('combobox', { name: 'Recipient' });
    fireEvent.mouseDown(field);
    for (let end = 1; end <= typed.length; end += 1) fireEvent.change(field, { target: { value: typed.slice(0, end) } });
    return { modal };
  }

  const shownOptions = () => [...document.querySelectorAll('.ant-select-dropdown .ant-select-item-option')].map((node) => node.textContent);

  it('when Jane types the start of a username, then one search asks once typing pauses, and the members show with their names', async () => {
    jest.mocked(searchMembers).mockResolvedValue({ members: [KAI_MORENO, KAI_LEE] });
    await typeRecipient('kai');
    await waitFor(() => expect(shownOptions()).toEqual(['@kai.moreno' + 'Kai Moreno', '@kai_lee' + 'Kai Lee']));
    expect(searchMembers).toHaveBeenCalledTimes(1);
    expect(searchMembers).toHaveBeenCalledWith({ query: { q: 'kai', limit: 8 } }, QUIET);
    const photo = document.querySelector<HTMLImageElement>('.ant-select-dropdown .kn-recipient img');
    expect(photo?.getAttribute('src')).toContain('/files/avatars/kai.jpg');
  });

  it('when Jane picks a member from the list, then the field shows them and the message goes to them', async () => {
    jest.mocked(searchMembers).mockResolvedValue({ members: [KAI_MORENO, KAI_LEE] });
    jest.mocked(createMessage).mockResolvedValue({ message: 'A message was sent to Kai Lee', thread: thread(), item: fromJane(1, 'Hi') });
    const { modal } = await typeRecipient('kai');
    fireEvent.click(await screen.findByText('@kai_lee'));
    await waitFor(() => expect(modal.getByTestId('message-recipient').textContent).toBe('@kai_lee' + 'Kai Lee'));
    fireEvent.change(modal.getByLabelText('Subject'), { target: { value: 'Hello' } });
    fireEvent.change(modal.getByLabelText('Message'), { target: { value: 'Hi' } });
    fireEvent.click(modal.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(toastTexts()).toContain('A message was sent to Kai Lee'));
    expect(createMessage).toHaveBeenCalledWith({ body: { senderId: jane().id, receiverId: KAI_LEE.id, subject: 'Hello', message: 'Hi' } }, QUIET);
  });

  it('when no username starts with what Jane typed, then the list says so', async () => {
    jest.mocked(searchMembers).mockResolvedValue({ members: [] });
    await typeRecipient('zq');
    expect(await screen.findByText('No member’s username starts with “zq”')).toBeTruthy();
  });

  it('when the member Jane picked does not accept her messages, then the server’s refusal shows and the modal stays open', async () => {
    jest.mocked(searchMembers).mockResolvedValue({ members: [KAI_LEE] });
    jest.mocked(createMessage).mockRejectedValue(new ApiError('This member does not accept your messages.', 403, 'forbidden'));
    const { modal } = await typeRecipient('kai_l');
    fireEvent.click(await screen.findByText('@kai_lee'));
    fireEvent.change(modal.getByLabelText('Subject'), { target: { value: 'Hello' } });
    fireEvent.change(modal.getByLabelText('Message'), { target: { value: 'Hi' } });
    fireEvent.click(modal.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(toastTexts()).toContain('This member does not accept your messages.'));
    expect(createMessage).toHaveBeenCalledWith({ body: { senderId: jane().id, receiverId: KAI_LEE.id, subject: 'Hello', message: 'Hi' } }, QUIET);
    expect(modal.getByRole('button', { name: 'Send' })).toBeTruthy();
  });
});

describe('the unread badge', () => {
  afterEach(() => jest.useRealTimers());

  it('when a message arrives, then the badge in the top navigation and the side menu shows it within 30 s, by itself', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    jest.mocked(getMessageCounts).mockResolvedValue(counts(0));
    await renderAsMember('/wallet', jane());
    await waitFor(() => expect(getMessageCounts).toHaveBeenCalledWith({ path: { id: jane().id } }, QUIET));
    expect(screen.queryByTestId('unread-badge')).toBeNull();
    jest.mocked(getMessageCounts).mockResolvedValue(counts(3));
    await act(async () => {
      await jest.advanceTimersByTimeAsync(30_000);
    });
    const top = within(screen.getByRole('banner'));
    await waitFor(() => expect(top.getByTestId('unread-badge').textContent).toBe('3'));
    const side = within(screen.getByRole('navigation', { name: 'Side menu' }));
    expect(side.getByTestId('unread-badge').textContent).toBe('3');
    expect(top.getByRole('link', { name: /Inbox/ }).getAttribute('href')).toBe('/inbox');
  });
});

describe('paging', () => {
  it('when the inbox has more than a page, then More asks for the next by nextCursor and adds its threads below', async () => {
    jest
      .mocked(getMessagesByReceiver)
      .mockResolvedValueOnce({ threads: [thread()], nextCursor: 'inbox-page-2' })
      .mockResolvedValueOnce({ threads: [thread({ id: '65a000000000000000000002', subject: 'Older', isRead: true, otherName: 'Cid' })], nextCursor: null });
    const { list } = await openInbox();
    expect(list.queryByText('Older')).toBeNull();
    fireEvent.click(list.getByRole('button', { name: 'More' }));
    expect(await list.findByText('Older')).toBeTruthy();
    expect(getMessagesByReceiver).toHaveBeenLastCalledWith({ path: { id: jane().id }, query: { cursor: 'inbox-page-2' } }, TOASTED);
    expect(list.getAllByTestId('inbox-thread').map((node) => node.querySelector('.kn-inbox__subject')?.textContent)).toEqual(['Your last song', 'Older']);
    expect(list.queryByRole('button', { name: 'More' })).toBeNull();
  });

  it('when a thread is longer than its latest page, then Earlier messages loads the page before by earlierCursor, shown above', async () => {
    const long = thread({ messagesCount: 3 });
    jest
      .mocked(getMessageThread)
      .mockImplementation(async ({ query }) =>
        query?.cursor === 'thread-page-2'
          ? { thread: long, messages: [fromBea(1, 'Loved it!')], earlierCursor: null, blockedByMe: false }
          : { thread: long, messages: [fromJane(2, 'Thanks!'), fromBea(3, 'Welcome')], earlierCursor: 'thread-page-2', blockedByMe: false },
      );
    const { list } = await openInbox();
    fireEvent.click(list.getByText('Your last song'));
    const view = within(screen.getByRole('region', { name: 'Conversation' }));
    expect(await view.findByText('Welcome')).toBeTruthy();
    expect(view.queryByText('Loved it!')).toBeNull();
    fireEvent.click(view.getByRole('button', { name: 'Earlier messages' }));
    expect(await view.findByText('Loved it!')).toBeTruthy();
    expect(getMessageThread).toHaveBeenLastCalledWith({ path: { id: THREAD_ID }, query: { cursor: 'thread-page-2' } }, TOASTED);
    expect([...document.querySelectorAll('.kn-inbox__message p')].map((node) => node.textContent)).toEqual(['Loved it!', 'Thanks!', 'Welcome']);
    expect(view.queryByRole('button', { name: 'Earlier messages' })).toBeNull();
  });
});

describe('a list that could not be loaded', () => {
  it('when the inbox cannot be read, then it says so instead of loading forever, and Retry reads it again', async () => {
    jest.mocked(getMessagesByReceiver).mockRejectedValueOnce(new ApiError('The server is busy.', 503, 'unavailable'));
    const asked = jest.mocked(getMessagesByReceiver).mock.calls.length;
    await renderAsMember('/inbox', jane());
    const list = within(await screen.findByRole('region', { name: 'Conversations' }));
    expect(await list.findByText(/The conversations could not be loaded\./)).toBeTruthy();
    expect(list.queryByText('Loading…')).toBeNull();
    fireEvent.click(list.getByRole('button', { name: 'Retry' }));
    expect(await list.findByText('Your last song')).toBeTruthy();
    expect(jest.mocked(getMessagesByReceiver).mock.calls.length - asked).toBe(2);
  });
});

describe('after a message is sent', () => {
  it('when Jane writes to Admin, then the inbox and the unread counts load again by themselves', async () => {
    jest.mocked(createMessage).mockResolvedValue({ message: 'A message was sent to Admin', thread: thread(), item: fromJane(1, 'Help') });
    const { list } = await openInbox();
    await waitFor(() => expect(screen.getAllByTestId('unread-badge')[0]!.textContent).toBe('1'));
    // The server's answers once the message is in: a new thread on top, and the counts with it.
    jest.mocked(getMessageCounts).mockResolvedValue(counts(2));
    jest.mocked(getMessagesByReceiver).mockResolvedValue({
      threads: [thread({ id: '65a000000000000000000003', subject: 'Payouts', isRead: true, otherName: 'Admin' }), thread()],
      nextCursor: null,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Write to Admin' }));
    const modal = await modalTitled('New message');
    fireEvent.change(modal.getByLabelText('Subject'), { target: { value: 'Payouts' } });
    fireEvent.change(modal.getByLabelText('Message'), { target: { value: 'Help' } });
    fireEvent.click(modal.getByRole('button', { name: 'Send' }));
    expect(await list.findByText('Payouts')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('unread-badge')[0]!.textContent).toBe('2'));
  });
});

describe('after a block', () => {
  it('when Jane blocks Bea, then the follows that end with it show: her own counts in the side menu load again', async () => {
    jest.mocked(getFollowCount).mockResolvedValue({ followersCount: 1, followingsCount: 1, isFollowing: false });
    jest.mocked(blockMessageSender).mockImplementation(async () => {
      // The block ends the follows between the two: from now on Jane's counts say so.
      jest.mocked(getFollowCount).mockResolvedValue({ followersCount: 0, followingsCount: 0, isFollowing: false });
      return { message: 'Bea Stone is blocked.', blocked: true };
    });
    const { list } = await openInbox();
    const side = within(screen.getByRole('navigation', { name: 'Side menu' }));
    expect(await side.findByRole('button', { name: '1 follower' })).toBeTruthy();
    fireEvent.click(list.getByText('Your last song'));
    const view = within(screen.getByRole('region', { name: 'Conversation' }));
    fireEvent.click(await view.findByRole('button', { name: 'Block' }));
    await waitFor(() => expect(toastTexts()).toContain('Bea Stone is blocked.'));
    expect(await side.findByRole('button', { name: '0 followers' })).toBeTruthy();
    expect(side.getByRole('button', { name: '0 following' })).toBeTruthy();
  });
});
