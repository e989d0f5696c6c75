/**
 * The admin area in the back layout: its navigation (from the one section list) leads to each section, the
 * dashboard shows the counted figures, the waiting cash-outs (an overdue one flagged) and the week of product events, the pieces section
 * searches, filters and acts on pieces (delete only after a question that says the fee is not refunded, and only for
 * the admins allowed to), the plans moved into their section, and a member is sent home. The generated operations are
 * mocked; the store, router, route guard and antd are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  deletePieceAsAdmin,
  getAdminDashboard,
  getAllPlans,
  hidePiece,
  listAdminPieces,
  trendContent,
  updatePlan,
  type GetAdminDashboardResult,
} from '../../client/src/api/generated/operations';
import { makeAdmin, makeUser, storeAccount } from './auth-fixtures';
import { makeContent, path, renderAt, toastTexts } from './profile-fixtures';
import { mockMemberCalls } from './upload-fixtures';
import { PLANS, plansAnswer } from './subscription-fixtures';
import { renderAsMember } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const admin = makeAdmin;

const FIGURES = {
  members: 3,
  pieces: 4,
  knacks: 12,
  listings: 2,
  listingFeesMicros: 1_300_000,
  knackValueMicros: 600_000,
  payouts: 1,
  payoutsMicros: 20_000_000,
};
const DASHBOARD: GetAdminDashboardResult = {
  asOf: '2026-11-27T12:00:00.000Z',
  today: FIGURES,
  month: { ...FIGURES, members: 40 },
  openFlags: { flags: 3, pieces: 2, more: false },
  waitingCashOuts: {
    count: 2,
    more: false,
    oldest: [
      { id: '64c0000000000000000000c1', userId: '64b0000000000000000000b1', amountMicros: 12_000_000, at: '2026-11-19T12:00:00.000Z', overdue: true },
      { id: '64c0000000000000000000c2', userId: '64b0000000000000000000b2', amountMicros: 15_500_000, at: '2026-11-26T12:00:00.000Z', overdue: false },
    ],
  },
  waitingMails: { count: 3, failed: 1, oldestAt: new Date(Date.now() - 2 * 3_600_000).toISOString() },
  productEvents: ['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'].map((day, i) => ({
    day,
    counts: { login: 10 + i, signup: 2, forgot_password: 0, reset_password: 0, post_content: 1, play: 1_200 + i, knack: 30, follow: 4, comment: 5 },
  })),
};

const SONG = makeContent({ id: '64c000000000000000000001', title: 'Night Song', type: 'music', ownerUsername: 'ana_lima' });
const PHOTO = makeContent({ id: '64c000000000000000000002', title: 'Harbour', type: 'photos', ownerUsername: 'bea_stone' });

function signInAsAdmin() {
  const user = admin();
  storeAccount('stored-token', user);
  mockMemberCalls(user);
  jest.mocked(getAdminDashboard).mockResolvedValue(DASHBOARD);
  jest.mocked(listAdminPieces).mockResolvedValue({
    pieces: [
      { content: SONG, status: 'public' },
      { content: PHOTO, status: 'public' },
    ],
    nextCursor: null,
    canDelete: true,
  });
}

beforeEach(() => {
  for (const call of [deletePieceAsAdmin, hidePiece, trendContent, updatePlan, listAdminPieces]) jest.mocked(call).mockReset();
});

describe('the back layout', () => {
  it('when an admin opens /admin, then the back layout shows the dashboard, and its navigation leads to each section', async () => {
    signInAsAdmin();
    jest.mocked(getAllPlans).mockResolvedValue(plansAnswer());
    renderAt('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Admin sections' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Dashboard', '/admin'],
      ['Members', '/admin/members'],
      ['Pieces', '/admin/pieces'],
      ['Flags', '/admin/flags'],
      ['Cash-outs', '/admin/cash-outs'],
      ['Support inbox', '/admin/support'],
      ['Pages', '/admin/pages'],
      ['Discount codes', '/admin/discount-codes'],
      ['Plans', '/admin/plans'],
      ['Audit log', '/admin/audit'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
    const header = within(document.querySelector<HTMLElement>('.kn-back__header')!);
    expect(header.getByRole('link', { name: 'Knack home' }).getAttribute('href')).toBe('/');
    expect(header.getByRole('link', { name: /Back to Knack/ }).getAttribute('href')).toBe('/');
    expect(header.getByRole('button', { name: 'Account of knack admin' })).toBeTruthy();
    // The front layout's side menu (and its Admin entry) is not on the admin pages.
    expect(screen.queryByRole('navigation', { name: 'Side menu' })).toBeNull();

    fireEvent.click(within(nav).getByRole('link', { name: 'Plans' }));
    expect(await screen.findByRole('spinbutton', { name: 'Plan 1: Standard price' })).toBeTruthy();
    expect(path()).toBe('/admin/plans');
  });

  it('when the plans section saves a new price, then it is sent in whole cents and a toast says so', async () => {
    signInAsAdmin();
    jest.mocked(getAllPlans).mockResolvedValue(plansAnswer());
    jest.mocked(updatePlan).mockResolvedValue({ plan: { ...PLANS[0]!, priceMicros: 2_500_000, price: 2.5 } });
    renderAt('/admin/plans');
    const price = await screen.findByRole('spinbutton', { name: 'Plan 1: Standard price' });
    fireEvent.change(price, { target: { value: '2.5' } });
    fireEvent.blur(price);
    fireEvent.click(within(price.closest('tr') as HTMLElement).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTexts()).toContain('Plan 1: Standard saved. New checkouts and renewals use it.'));
    expect(updatePlan).toHaveBeenCalledWith({ body: { planId: 1, priceMicros: 2_500_000, sCredits: 3, pCredits: 0 } }, expect.anything());
  });

  it('when an admin opens the spec’s /creat-discount-code, then they are in the discount codes section', async () => {
    signInAsAdmin();
    renderAt('/creat-discount-code');
    await waitFor(() => expect(path()).toBe('/admin/discount-codes'));
    expect(await screen.findByRole('heading', { level: 1, name: /Discount codes/ })).toBeTruthy();
  });

  it('when a member opens /admin or a section, then they are sent home and nothing of it is asked', async () => {
    await renderAsMember('/admin/pieces');
    await waitFor(() => expect(path()).toBe('/'));
    expect(listAdminPieces).not.toHaveBeenCalled();
  });
});

describe('the dashboard', () => {
  it('when the figures are counted, then today and this month show them with the time, and an overdue cash-out is flagged', async () => {
    signInAsAdmin();
    renderAt('/admin');
    const today = await screen.findByRole('region', { name: 'Today' });
    expect(within(today).getByText('Knack value paid').nextElementSibling?.textContent).toBe('$0.60');
    expect(within(today).getByText('Listing fees in').nextElementSibling?.textContent).toBe('$1.30');
    expect(within(today).getByText('Payouts').nextElementSibling?.textContent).toBe('$20.00 (1)');
    expect(within(screen.getByRole('region', { name: 'This month' })).getByText('New members').nextElementSibling?.textContent).toBe('40');
    expect(screen.getByText(/^As of Nov 27, 2026/)).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Open flags' })).getByText('3')).toBeTruthy();
    const waiting = within(screen.getByRole('list', { name: 'Waiting longest' })).getAllByRole('listitem');
    expect(waiting.map((item) => item.textContent?.startsWith('$12.00') || item.textContent?.startsWith('$15.50'))).toEqual([true, true]);
    expect(within(waiting[0]!).getByText('Waiting over 7 days')).toBeTruthy();
    expect(within(waiting[1]!).queryByText('Waiting over 7 days')).toBeNull();
  });

  it('when mail waits in the outbox (the mail server down), then the dashboard says how many, since when, and how many were given up on', async () => {
    signInAsAdmin();
    renderAt('/admin');
    const mail = await screen.findByRole('region', { name: 'Mail waiting to be sent' });
    expect(within(mail).getByText('3')).toBeTruthy();
    expect(
      within(mail).getByText('The mail server has not taken them yet; the oldest was written 2 hours ago. Each is tried again until it goes.'),
    ).toBeTruthy();
    expect(within(mail).getByText('1 given up on after 3 days')).toBeTruthy();
  });

  it('when no mail waits, then the dashboard says every mail went out', async () => {
    signInAsAdmin();
    jest.mocked(getAdminDashboard).mockResolvedValue({ ...DASHBOARD, waitingMails: { count: 0, failed: 0, oldestAt: null } });
    renderAt('/admin');
    const mail = await screen.findByRole('region', { name: 'Mail waiting to be sent' });
    expect(within(mail).getByText('0')).toBeTruthy();
    expect(within(mail).getByText('Every mail went out.')).toBeTruthy();
    expect(within(mail).queryByText(/given up on/)).toBeNull();
  });

  it('when product events are counted, then a table shows each event per day for the last 7 days, the oldest first', async () => {
    signInAsAdmin();
    renderAt('/admin');
    const table = await screen.findByRole('table', { name: 'Product events, last 7 days (UTC)' });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Event', 'Nov 21', 'Nov 22', 'Nov 23', 'Nov 24', 'Nov 25', 'Nov 26', 'Nov 27']);
    const row = (name: string) => {
      const found = rows.find((candidate) => within(candidate).queryByRole('rowheader', { name }));
      return within(found!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    };
    expect(row('Sign-ins')).toEqual(['10', '11', '12', '13', '14', '15', '16']);
    expect(row('Plays')).toEqual(['1,200', '1,201', '1,202', '1,203', '1,204', '1,205', '1,206']);
    expect(row('Password reset mails')).toEqual(['0', '0', '0', '0', '0', '0', '0']);
    expect(rows.slice(1).map((candidate) => within(candidate).getByRole('rowheader').textContent)).toEqual([
      'Sign-ins',
      'Sign-ups',
      'Password reset mails',
      'Passwords reset',
      'Pieces posted',
      'Plays',
      'Knacks',
      'Follows',
      'Comments',
    ]);
  });
});

describe('the pieces section', () => {
  it('when an admin searches and filters, then the list is asked with those filters', async () => {
    signInAsAdmin();
    renderAt('/admin/pieces');
    expect(await screen.findByText('Night Song')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by title or owner' }), { target: { value: 'night' } });
    fireEvent.submit(screen.getByRole('search'));
    await waitFor(() => expect(listAdminPieces).toHaveBeenLastCalledWith(expect.objectContaining({ query: { q: 'night' } }), expect.anything()));
  });

  it('when an admin re-posts a song with one click, then the server’s message is shown', async () => {
    signInAsAdmin();
    jest.mocked(trendContent).mockResolvedValue({ message: 'This music is re-posted successfully.' });
    renderAt('/admin/pieces');
    const row = within(await screen.findByRole('group', { name: 'Actions for Night Song' }));
    fireEvent.click(row.getByRole('button', { name: 'Re-post' }));
    await waitFor(() => expect(toastTexts()).toContain('This music is re-posted successfully.'));
    expect(trendContent).toHaveBeenCalledWith({ body: { contentId: SONG.id } }, expect.anything());
  });

  it('when an admin deletes a piece, then they are asked first, told the listing fee is not refunded, and only then is it deleted', async () => {
    signInAsAdmin();
    jest.mocked(deletePieceAsAdmin).mockResolvedValue({ message: 'The content is removed successfully.' });
    renderAt('/admin/pieces');
    fireEvent.click(within(await screen.findByRole('group', { name: 'Actions for Harbour' })).getByRole('button', { name: 'Delete' }));
    const question = await waitFor(() => document.querySelector<HTMLElement>('.kn-admin-delete-modal [role="dialog"]')!);
    expect(question.textContent).toContain('Delete this piece?');
    expect(question.textContent).toContain('“Harbour” will be deleted from Knack with its files, for every member. The listing fee is not refunded.');
    expect(deletePieceAsAdmin).not.toHaveBeenCalled();
    fireEvent.click(within(question).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toastTexts()).toContain('The content is removed successfully.'));
    expect(deletePieceAsAdmin).toHaveBeenCalledWith({ body: { contentId: PHOTO.id } }, expect.anything());
  });

  it('when the admin may not delete pieces, then no Delete is offered, and Hide is', async () => {
    signInAsAdmin();
    jest.mocked(listAdminPieces).mockResolvedValue({ pieces: [{ content: PHOTO, status: 'public' }], nextCursor: null, canDelete: false });
    renderAt('/admin/pieces');
    const row = within(await screen.findByRole('group', { name: 'Actions for Harbour' }));
    expect(row.getAllByRole('button').map((button) => button.textContent)).toEqual(['Re-post', 'Hide']);
  });
});
