/**
 * The admin area's members page, `/admin/members`: a member is sent home; an admin searches and filters the list
 * (each change asks again), opens a member (balance, credits, pieces with their flags, history), changes credits with a
 * note and deactivates them; the account-create modal shows the form's own message for each blank field, fills in a
 * test email (and says when it works only with the outbox), shows the server's refusal under its field, and links the
 * activation mail in the outbox once the account is made. The generated operations are mocked; the store, router,
 * route guard and antd are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { components } from '../../generated/openapi';
import {
  createMemberAccount,
  deactivateMember,
  getCreditMovements,
  getMember,
  getTestMailbox,
  getUserHistory,
  listMembers,
  updateStandardCredits,
} from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { makeAdmin, makeUser } from './auth-fixtures';
import { modalTitled } from './dialogs';
import { path, toastTexts } from './profile-fixtures';
import { renderAsMember } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

type Summary = components['schemas']['MemberSummary'];

const PAGE = '/admin/members';
const BEA_ID = '64b0000000000000000000b2';
const admin = makeAdmin;

function summary(overrides: Partial<Summary> = {}): Summary {
  return {
    id: BEA_ID,
    username: 'bea_moon',
    fullName: 'Bea Moon',
    email: 'bea@example.com',
    image: null,
    status: 'active',
    role: 'user',
    createdAt: '2026-05-01T12:00:00.000Z',
    contentsCount: 3,
    ...overrides,
  };
}

const view = (overrides: Partial<components['schemas']['MemberView']> = {}): components['schemas']['MemberView'] => ({
  member: summary(),
  deactivatedAt: null,
  balanceMicros: 12_340_000,
  credits: { sCredit: 2, pCredit: 1 },
  pieces: [
    {
      id: '64c000000000000000000009',
      title: 'Blue Hour',
      type: 'photos',
      link: '/bea_moon-blue-hour',
      listed: true,
      isHide: false,
      takenDown: false,
      openFlags: 2,
      uploadedAt: '2026-05-02T12:00:00.000Z',
    },
  ],
  ...overrides,
});

const QUIET = expect.objectContaining({ quiet: expect.any(String) });

beforeEach(() => {
  jest
    .mocked(listMembers)
    .mockReset()
    .mockResolvedValue({
      members: [summary(), summary({ id: '64b0000000000000000000b3', username: 'cid_sun', fullName: 'Cid Sun', email: 'cid@example.com', status: 'waiting' })],
      nextCursor: null,
    });
  jest.mocked(getMember).mockReset().mockResolvedValue(view());
  jest
    .mocked(getCreditMovements)
    .mockReset()
    .mockResolvedValue({
      credits: { sCredit: 2, pCredit: 1 },
      movements: [{ id: 'm1', standard: 2, premium: 0, reason: 'admin', ref: 'x', note: 'Welcome gift', at: '2026-05-03T12:00:00.000Z' }],
    });
  jest.mocked(getUserHistory).mockReset().mockResolvedValue({ items: [], nextCursor: null });
  jest.mocked(createMemberAccount).mockReset();
  jest.mocked(getTestMailbox).mockReset();
});

async function openAsAdmin() {
  await renderAsMember(PAGE, admin());
  await screen.findByRole('heading', { level: 1, name: /Members/ });
}

describe('who reaches /admin/members', () => {
  it('when a member opens it, then they are sent home and the members are never asked for', async () => {
    await renderAsMember(PAGE, makeUser());
    await waitFor(() => expect(path()).toBe('/'));
    expect(listMembers).not.toHaveBeenCalled();
  });
});

describe('the members list', () => {
  it('when an admin searches and filters, then each asks the list again with its query', async () => {
    await openAsAdmin();
    expect(await screen.findByText('@bea_moon')).toBeTruthy();
    expect(within(screen.getByRole('table')).getByText('Not activated')).toBeTruthy();
    expect(listMembers).toHaveBeenCalledWith({ query: {} }, expect.anything());

    fireEvent.change(screen.getByLabelText('Search members'), { target: { value: 'bea' } });
    fireEvent.keyDown(screen.getByLabelText('Search members'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(listMembers).toHaveBeenCalledWith({ query: { q: 'bea' } }, expect.anything()));
    fireEvent.click(screen.getByText('Deactivated'));
    await waitFor(() => expect(listMembers).toHaveBeenCalledWith({ query: { q: 'bea', status: 'deactivated' } }, expect.anything()));
  });

  it('when an admin opens a member, then their balance, credits with notes, pieces and flags show; a credit change with a note and a deactivation are sent', async () => {
    jest.mocked(updateStandardCredits).mockResolvedValue({ credits: { sCredit: 5, pCredit: 1 } });
    jest.mocked(deactivateMember).mockResolvedValue({ message: 'The member is deactivated.', member: summary({ status: 'deactivated' }) });
    await openAsAdmin();
    fireEvent.click(await screen.findByText('@bea_moon'));
    expect(await screen.findByTestId('member-balance')).toHaveProperty('textContent', '$12.34');
    expect(screen.getByTestId('member-scredits').textContent).toBe('2');
    expect(screen.getByText(/Welcome gift/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Blue Hour' }).getAttribute('href')).toBe('/bea_moon-blue-hour');
    expect(screen.getByText('2 flags')).toBeTruthy();
    expect(window.location.search).toBe(`?member=${BEA_ID}`);

    const credits = within(screen.getByRole('form', { name: 'Change credits' }));
    fireEvent.change(credits.getByLabelText('Credits to add'), { target: { value: '3' } });
    fireEvent.change(credits.getByLabelText('Note'), { target: { value: 'Contest prize' } });
    fireEvent.click(credits.getByRole('button', { name: 'Change credits' }));
    await waitFor(() => expect(updateStandardCredits).toHaveBeenCalledWith({ body: { userId: BEA_ID, amount: 3, note: 'Contest prize' } }, expect.anything()));
    await waitFor(() => expect(toastTexts()).toContain('Credits changed: 5 standard, 1 premium.'));

    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    // The question comes first; its own Deactivate sends the call.
    const question = (await screen.findByText('Deactivate this member?')).closest<HTMLElement>('.ant-popover')!;
    fireEvent.click(within(question).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(deactivateMember).toHaveBeenCalledWith({ path: { id: BEA_ID } }, expect.anything()));
    await waitFor(() => expect(toastTexts()).toContain('The member is deactivated.'));
  });
});

describe('the account-create modal', () => {
  async function openModal() {
    await openAsAdmin();
    fireEvent.click(screen.getByRole('button', { name: /Create an account/ }));
    return modalTitled('Create an account');
  }

  it('when it is sent blank, then each field shows the form’s own message and nothing is sent', async () => {
    const modal = await openModal();
    fireEvent.click(modal.getByRole('button', { name: 'Create account' }));
    for (const message of [
      'You should input your first name.',
      'You should input your last name.',
      'You should input your username.',
      'You should input your email.',
      'You should input your password.',
    ])
      expect(await modal.findByText(message)).toBeTruthy();
    expect(createMemberAccount).not.toHaveBeenCalled();
  });

  it('when the admin takes a test email and creates the account, then the address is filled in and the outbox link opens its mail', async () => {
    const email = 'test-0a1b2c3d4e@outbox.knack.test';
    jest.mocked(getTestMailbox).mockResolvedValue({ email, delivery: 'outbox', outboxUrl: `/dev/mail?to=${encodeURIComponent(email)}` });
    jest.mocked(createMemberAccount).mockResolvedValue({
      message: 'The account is created. Its activation mail is sent.',
      member: summary({ id: '64b0000000000000000000c1', username: 'nora_quinn', email, status: 'waiting' }),
    });
    const modal = await openModal();
    fireEvent.change(modal.getByLabelText('First name'), { target: { value: 'Nora' } });
    fireEvent.change(modal.getByLabelText('Last name'), { target: { value: 'Quinn' } });
    fireEvent.change(modal.getByLabelText('Username'), { target: { value: 'nora_quinn' } });
    fireEvent.change(modal.getByLabelText('Password'), { target: { value: 'Str0ng!pass' } });
    fireEvent.click(modal.getByRole('button', { name: 'Test email' }));
    await waitFor(() => expect((modal.getByLabelText('Email') as HTMLInputElement).value).toBe(email));
    expect(modal.getByText('A throwaway address: its mail lands in the outbox.')).toBeTruthy();
    fireEvent.click(modal.getByRole('button', { name: 'Create account' }));
    await waitFor(() =>
      expect(createMemberAccount).toHaveBeenCalledWith(
        { body: { firstName: 'Nora', lastName: 'Quinn', username: 'nora_quinn', email, password: 'Str0ng!pass' } },
        QUIET,
      ),
    );
    const link = await modal.findByRole('link', { name: 'Open its mail in the outbox' });
    expect(link.getAttribute('href')).toBe(`/dev/mail?to=${encodeURIComponent(email)}`);
    expect(toastTexts()).toContain('The account is created. Its activation mail is sent.');
  });

  it('when mail goes out by SMTP, then the modal says the test address works only with the outbox', async () => {
    jest.mocked(getTestMailbox).mockResolvedValue({ email: 'test-ffffffffff@outbox.knack.test', delivery: 'smtp', outboxUrl: null });
    const modal = await openModal();
    fireEvent.click(modal.getByRole('button', { name: 'Test email' }));
    expect(
      await modal.findByText('This address receives mail only with the embedded outbox. This server sends mail by SMTP, so nothing will receive it.'),
    ).toBeTruthy();
  });

  it('when the server refuses the username, then its message shows under the field', async () => {
    jest
      .mocked(createMemberAccount)
      .mockRejectedValue(
        new ApiError('That username is taken. Try another.', 400, 'bad_request', [{ path: 'username', message: 'That username is taken. Try another.' }]),
      );
    const modal = await openModal();
    fireEvent.change(modal.getByLabelText('First name'), { target: { value: 'Nora' } });
    fireEvent.change(modal.getByLabelText('Last name'), { target: { value: 'Quinn' } });
    fireEvent.change(modal.getByLabelText('Username'), { target: { value: 'bea_moon' } });
    fireEvent.change(modal.getByLabelText('Email'), { target: { value: 'nora@example.com' } });
    fireEvent.change(modal.getByLabelText('Password'), { target: { value: 'Str0ng!pass' } });
    fireEvent.click(modal.getByRole('button', { name: 'Create account' }));
    expect(await modal.findByText('That username is taken. Try another.')).toBeTruthy();
  });
});
