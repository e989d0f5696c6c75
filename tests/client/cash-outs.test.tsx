/**
 * Cash-outs on the client. A member cancels a waiting cash-out from their wallet, after a question ('Keep it'
 * changes nothing), sees the server's message and the history loaded again. An admin's cash-outs page lists the
 * requests with the member, balance and payout account, flags a long wait, filters and searches through the server,
 * approves after a question, declines only with a reason and restores a declined request after a question, each with the server's message as a toast; a member is
 * sent home. The generated operations are mocked; the store, router, route guard, antd and toasts are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { components } from '../../generated/openapi';
import {
  approveCashOut,
  cancelCashOut,
  declineCashOut,
  getPaidHistory,
  getUserHistory,
  getWalletSummary,
  listCashOuts,
  restoreCashOut,
} from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { modalTitled } from './dialogs';
import { makeAdmin, makeUser } from './auth-fixtures';
import { QUIET_CALL } from './call-options';
import { JANE_ID, path, toastTexts } from './profile-fixtures';
import { historyItem, renderAsMember, walletSummary } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

type CashOutRow = components['schemas']['CashOutRow'];

const admin = makeAdmin;

beforeEach(() => {
  jest.mocked(getPaidHistory).mockResolvedValue({ items: [], nextCursor: null });
  jest.mocked(cancelCashOut).mockReset();
  jest.mocked(approveCashOut).mockReset();
  jest.mocked(declineCashOut).mockReset();
  jest.mocked(listCashOuts).mockReset();
  jest.mocked(restoreCashOut).mockReset();
});

describe('a member cancels a waiting cash-out', () => {
  it('when they press Cancel on the waiting request, then they are asked first; confirming sends it, shows the message, and the history loads again', async () => {
    const waiting = historyItem('Earn', 'You asked to cash out $20.00', { paid: 20, earned: 19.6 });
    const cancelled = { ...waiting, status: 'cancelled' as const, activity: 'Your cash-out of $20.00 was cancelled' };
    jest
      .mocked(getWalletSummary)
      .mockResolvedValue(walletSummary({ balance: 20, uploads: 20, pendingCashOut: 20 }, { payoutAccount: { paypal: 'jane@paypal.example' } }));
    jest
      .mocked(getUserHistory)
      .mockResolvedValue({ items: [waiting, historyItem('Paid1', 'Knack on Night Drive', { paid: 0.05, earned: 0.05 })], nextCursor: null });
    await renderAsMember('/wallet');

    const history = await screen.findByRole('list', { name: 'History' });
    const row = within(history).getByText('You asked to cash out $20.00').closest('li')!;
    // Only the waiting request offers Cancel.
    expect(within(history).getAllByRole('button', { name: 'Cancel' })).toHaveLength(1);

    fireEvent.click(within(row).getByRole('button', { name: 'Cancel' }));
    const question = await modalTitled('Cancel this cash-out?');
    expect(question.getByText(/Your request to cash out \$20\.00 is withdrawn, and the balance is yours again/)).toBeTruthy();
    fireEvent.click(question.getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryAllByRole('dialog').some((shown) => shown.textContent?.includes('Cancel this cash-out?'))).toBe(false));
    expect(cancelCashOut).not.toHaveBeenCalled();

    jest.mocked(cancelCashOut).mockImplementation(async () => {
      jest.mocked(getUserHistory).mockResolvedValue({ items: [cancelled], nextCursor: null });
      jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 20, uploads: 20 }, { payoutAccount: { paypal: 'jane@paypal.example' } }));
      return { message: 'The cash-out request was cancelled.', item: cancelled };
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel' }));
    fireEvent.click((await modalTitled('Cancel this cash-out?')).getByRole('button', { name: 'Cancel cash-out' }));

    await waitFor(() => expect(toastTexts()).toContain('The cash-out request was cancelled.'));
    expect(cancelCashOut).toHaveBeenCalledWith({ body: { historyId: waiting.historyId } }, QUIET_CALL);
    const after = await screen.findByText('Your cash-out of $20.00 was cancelled');
    expect(after.closest('li')!.textContent).toContain(' · cancelled');
    expect(within(screen.getByRole('list', { name: 'History' })).queryByRole('button', { name: 'Cancel' })).toBeNull();
    await waitFor(() => expect(screen.queryByText(/cash-out waiting for approval/)).toBeNull());
    expect(getUserHistory).toHaveBeenCalledWith({ path: { id: JANE_ID }, query: { limit: 20 } }, expect.anything());
  });

  it('when the server refuses (an admin decided it meanwhile), then its message shows and the question stays open', async () => {
    const waiting = historyItem('Earn', 'You asked to cash out $12.00', { paid: 12, earned: 11.76 });
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 12, uploads: 12, pendingCashOut: 12 }));
    jest.mocked(getUserHistory).mockResolvedValue({ items: [waiting], nextCursor: null });
    jest.mocked(cancelCashOut).mockRejectedValue(new ApiError('This cash-out request was already approved, declined or cancelled.', 409, 'conflict'));
    await renderAsMember('/activity-history');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    const question = await screen.findByRole('dialog', { name: 'Cancel this cash-out?' });
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel cash-out' }));
    await waitFor(() => expect(toastTexts()).toContain('This cash-out request was already approved, declined or cancelled.'));
    expect(screen.getByRole('dialog', { name: 'Cancel this cash-out?' })).toBeTruthy();
  });
});

function cashOut(overrides: Partial<CashOutRow> = {}): CashOutRow {
  return {
    historyId: '64f000000000000000000101',
    status: 'waiting',
    paidBy: null,
    member: { id: '64b0000000000000000000b2', username: 'bea_moon', email: 'bea@example.com' },
    amount: 20,
    amountMicros: 20_000_000,
    requestedAt: '2026-05-01T12:00:00.000Z',
    decidedAt: null,
    overdue: true,
    reason: null,
    balance: 20,
    balanceMicros: 20_000_000,
    payoutAccount: { paypal: 'bea.pay@example.com', held: false },
    historyPath: '/user-history/get-all/64b0000000000000000000b2',
    ...overrides,
  };
}

const BEA = cashOut();
const CID = cashOut({
  historyId: '64f000000000000000000102',
  member: { id: '64b0000000000000000000c3', username: 'cid_sky', email: 'cid@example.com' },
  amount: 12,
  amountMicros: 12_000_000,
  overdue: false,
  requestedAt: '2026-05-13T12:00:00.000Z',
  payoutAccount: { paypal: 'cid.pay@example.com', held: true },
});
const DEE = cashOut({
  historyId: '64f000000000000000000103',
  member: { id: '64b0000000000000000000d4', username: 'dee_sun', email: 'dee@example.com' },
  status: 'paid',
  paidBy: 'monthlyPayout',
  overdue: false,
  balance: 0,
  balanceMicros: 0,
  decidedAt: '2026-06-01T00:00:00.000Z',
});

async function openAsAdmin() {
  await renderAsMember('/admin/cash-outs', admin());
  await screen.findByRole('heading', { level: 1, name: /Cash-outs/ });
  return screen.findByRole('table');
}
const rowOf = async (username: string) => (await screen.findByText(username)).closest('tr')!;

describe('the admins’ cash-outs page', () => {
  it('when a member opens it, then they are sent home and the requests are never asked for', async () => {
    await renderAsMember('/admin/cash-outs', makeUser());
    await screen.findByRole('heading', { level: 1, name: 'Get paid for every play and view.' });
    expect(path()).toBe('/');
    expect(listCashOuts).not.toHaveBeenCalled();
  });

  it('when an admin opens it, then each request shows its member, amount, balance and payout account, a long wait is flagged, and filters and search ask the server', async () => {
    jest.mocked(listCashOuts).mockResolvedValue({ cashOuts: [BEA, CID, DEE], nextCursor: null });
    await openAsAdmin();
    expect(listCashOuts).toHaveBeenCalledWith({ query: { limit: 20 } }, expect.anything());
    const bea = within(await rowOf('bea_moon'));
    expect(bea.getByText('bea@example.com')).toBeTruthy();
    expect(bea.getAllByText('Waiting over 7 days').length).toBeGreaterThan(0);
    expect(bea.getByText(/^\$20\.00 · asked .* · balance \$20\.00$/)).toBeTruthy();
    expect(bea.getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(bea.getByRole('button', { name: 'Decline' })).toBeTruthy();
    const cid = within(await rowOf('cid_sky'));
    expect(cid.queryByText('Waiting over 7 days')).toBeNull();
    const dee = within(await rowOf('dee_sun'));
    expect(dee.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(dee.getByRole('button', { name: 'History' })).toBeTruthy();

    fireEvent.click(screen.getByText('Waiting'));
    await waitFor(() => expect(listCashOuts).toHaveBeenCalledWith({ query: { limit: 20, status: 'waiting' } }, expect.anything()));
    fireEvent.change(screen.getByLabelText('Search members'), { target: { value: ' bea ' } });
    fireEvent.keyDown(screen.getByLabelText('Search members'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(listCashOuts).toHaveBeenCalledWith({ query: { limit: 20, status: 'waiting', q: 'bea' } }, expect.anything()));
  });

  it('when an admin approves, then they are asked first with where the money goes; the server’s message shows and the list loads again', async () => {
    jest.mocked(listCashOuts).mockResolvedValue({ cashOuts: [BEA], nextCursor: null });
    await openAsAdmin();
    fireEvent.click(within(await rowOf('bea_moon')).getByRole('button', { name: 'Approve' }));
    const question = await screen.findByRole('dialog', { name: 'Approve this cash-out?' });
    expect(question.textContent).toContain('bea.pay@example.com');
    jest.mocked(approveCashOut).mockImplementation(async () => {
      jest
        .mocked(listCashOuts)
        .mockResolvedValue({ cashOuts: [{ ...BEA, status: 'paid', paidBy: 'cashOut', overdue: false, balance: 0, balanceMicros: 0 }], nextCursor: null });
      return {
        message: 'The cash-out was approved and sent.',
        item: historyItem('Earn', 'Your cash-out of $20.00 was approved', { paid: 20 }, { status: 'approved' }),
      };
    });
    fireEvent.click(within(question).getByRole('button', { name: 'Approve and send' }));
    await waitFor(() => expect(toastTexts()).toContain('The cash-out was approved and sent.'));
    expect(approveCashOut).toHaveBeenCalledWith({ body: { historyId: BEA.historyId } }, QUIET_CALL);
    await waitFor(() => expect(within(screen.getByText('bea_moon').closest('tr')!).queryByRole('button', { name: 'Approve' })).toBeNull());
    expect(listCashOuts).toHaveBeenCalledTimes(2);
  });

  it('when an admin declines, then a blank reason is refused on the spot; with one it is sent, the server’s message shows, and a refusal shows its message', async () => {
    jest.mocked(listCashOuts).mockResolvedValue({ cashOuts: [BEA], nextCursor: null });
    await openAsAdmin();
    fireEvent.click(within(await rowOf('bea_moon')).getByRole('button', { name: 'Decline' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Decline this cash-out' }));
    fireEvent.click(modal.getByRole('button', { name: 'Decline' }));
    expect(await modal.findByText('Please tell the member why the cash-out is declined.')).toBeTruthy();
    expect(declineCashOut).not.toHaveBeenCalled();

    jest.mocked(declineCashOut).mockRejectedValueOnce(new ApiError('This cash-out request was already paid by the monthly payout.', 409, 'conflict'));
    fireEvent.change(modal.getByLabelText('Reason'), { target: { value: '  Your PayPal email bounced.  ' } });
    fireEvent.click(modal.getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(toastTexts()).toContain('This cash-out request was already paid by the monthly payout.'));

    jest.mocked(declineCashOut).mockResolvedValue({
      message: 'The cash-out request was declined, and the member was told why.',
      item: historyItem('Earn', 'Your cash-out of $20.00 was declined: Your PayPal email bounced.', { paid: 20 }, { status: 'declined' }),
    });
    fireEvent.click(modal.getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(toastTexts()).toContain('The cash-out request was declined, and the member was told why.'));
    expect(declineCashOut).toHaveBeenLastCalledWith({ path: { id: BEA.historyId }, body: { reason: 'Your PayPal email bounced.' } }, QUIET_CALL);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Decline this cash-out' })).toBeNull());
  });

  it('when an admin restores a declined request, then they are asked first; the server’s message shows and the row waits again', async () => {
    const declined = { ...BEA, status: 'declined' as const, overdue: false, reason: 'Your PayPal email bounced.', decidedAt: '2026-05-09T12:00:00.000Z' };
    jest.mocked(listCashOuts).mockResolvedValue({ cashOuts: [declined, DEE], nextCursor: null });
    await openAsAdmin();
    // Only a declined or cancelled request offers Restore; a paid one stays paid.
    expect(within(await rowOf('dee_sun')).queryByRole('button', { name: 'Restore' })).toBeNull();
    const row = within(await rowOf('bea_moon'));
    expect(row.queryByRole('button', { name: 'Approve' })).toBeNull();

    fireEvent.click(row.getByRole('button', { name: 'Restore' }));
    const question = await screen.findByRole('dialog', { name: 'Restore this cash-out request?' });
    expect(question.textContent).toContain("bea_moon's request to cash out $20.00 waits for approval again");
    fireEvent.click(within(question).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Restore this cash-out request?' })).toBeNull());
    expect(restoreCashOut).not.toHaveBeenCalled();

    jest.mocked(restoreCashOut).mockRejectedValueOnce(new ApiError("The member's balance no longer covers this cash-out. Cancel it instead.", 409, 'conflict'));
    fireEvent.click(row.getByRole('button', { name: 'Restore' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Restore this cash-out request?' })).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(toastTexts()).toContain("The member's balance no longer covers this cash-out. Cancel it instead."));
    expect(screen.getByRole('dialog', { name: 'Restore this cash-out request?' })).toBeTruthy();

    jest.mocked(restoreCashOut).mockImplementation(async () => {
      jest.mocked(listCashOuts).mockResolvedValue({ cashOuts: [BEA, DEE], nextCursor: null });
      return {
        message: 'The cash-out request is waiting again, and the member was told.',
        item: historyItem('Earn', 'You asked to cash out $20.00', { paid: 20 }, { status: 'pending' }),
      };
    });
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Restore this cash-out request?' })).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(toastTexts()).toContain('The cash-out request is waiting again, and the member was told.'));
    expect(restoreCashOut).toHaveBeenLastCalledWith({ path: { id: BEA.historyId } }, QUIET_CALL);
    await waitFor(() => expect(within(screen.getByText('bea_moon').closest('tr')!).getByRole('button', { name: 'Approve' })).toBeTruthy());
  });

  it('when an admin opens a member’s history, then it lists that member’s items', async () => {
    jest.mocked(listCashOuts).mockResolvedValue({ cashOuts: [BEA], nextCursor: null });
    jest
      .mocked(getUserHistory)
      .mockResolvedValue({ items: [historyItem('Paid1', 'jane_doe viewed Blue Hour', { paid: 0.05, earned: 0.045 })], nextCursor: null });
    await openAsAdmin();
    fireEvent.click(within(await rowOf('bea_moon')).getByRole('button', { name: 'History' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'History of bea_moon' }));
    expect(await dialog.findByText('jane_doe viewed Blue Hour')).toBeTruthy();
    expect(getUserHistory).toHaveBeenCalledWith({ path: { id: BEA.member!.id }, query: { limit: 20 } }, expect.anything());
  });
});
