/**
 * Money on the client (listing fee tiers, a $10 minimum cash-out, amounts with 2 decimals): the payment modal
 * of type dollar opened from a piece's detail (the quoted fee of its tier, a plan credit, a discount code,
 * the checkout redirect, a refused payment), the return from the checkout (the order polled, 'Paid
 * successfully' with the paid modal, or 'Payment Failed'), the wallet (figures, cash-out from $10 through the
 * price modal, the PayPal payout account, changed only with the current password), the activity history, and
 * the route guard keeping visitors out. The generated operations are mocked (some go through the real HTTP
 * client over a fake network); the store, sagas, router and toasts are real.
 */
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import {
  checkDiscountCode,
  getContentById,
  getCountries,
  getListingForecast,
  getListingQuote,
  getRegions,
  getPaidHistory,
  getAllTags,
  getPaymentOrder,
  sellTag,
  getUserHistory,
  getWalletSummary,
  payForContent,
  redeemDiscountCode,
  requestCashOut,
  updatePaymentInfo,
} from '../../client/src/api/generated/operations';
import { knackApi } from '../../client/src/api/generated/endpoints';
import { ApiError } from '../../client/src/api/http';
import { createAppStore } from '../../client/src/app/store';
import { useHistory } from '../../client/src/features/wallet/testing';
import { QUIET_CALL } from './call-options';
import { cardLink, detailDialog, JANE_ID, path, renderAt, toastTexts, useJaneWorld } from './profile-fixtures';
import {
  bea,
  catchCheckout,
  forecastFor,
  historyItem,
  jane,
  order,
  paymentDialog,
  quoteFor,
  renderAsMember,
  restoreNetwork,
  sendThroughHttp,
  walletSummary,
  type HistoryItem,
} from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();
const piece = (title: string) => world.pieces.find((candidate) => candidate.title === title)!;

/** The payout account of the settings page, once its form (a lazy chunk) has loaded. */
async function payoutForm(): Promise<HTMLElement> {
  const payout = await screen.findByRole('region', { name: 'Payout account' });
  await within(payout).findByLabelText('PayPal email');
  return payout;
}

beforeEach(() => {
  // The settings page, where the payout account is changed, lists the countries too.
  jest.mocked(getCountries).mockResolvedValue({ countries: [] });
  jest.mocked(getRegions).mockResolvedValue({ regions: [] });
  jest.mocked(getContentById).mockImplementation(async ({ path: { id } }) => {
    const content = world.pieces.find((candidate) => candidate.id === id);
    if (!content) throw new ApiError('Content not found', 404, 'not_found');
    return { content };
  });
  jest.mocked(getListingQuote).mockImplementation(async ({ path: { id } }) => quoteFor(world.pieces.find((candidate) => candidate.id === id)!));
  jest.mocked(getUserHistory).mockResolvedValue({ items: [], nextCursor: null });
  jest.mocked(getPaidHistory).mockResolvedValue({ items: [], nextCursor: null });
  jest.mocked(getListingForecast).mockImplementation(async ({ path: { id } }) => forecastFor(id));
});

afterEach(restoreNetwork);

/** Signed in (Bea by default), `title` opened from Jane's profile, then Monetize (own) or Support: the dollar modal. */
async function openMonetize(title: string, user = bea()) {
  const app = await renderAsMember('/jane_doe', user);
  fireEvent.click(await cardLink(title));
  const detail = await detailDialog(title);
  fireEvent.click(detail.getByRole('button', { name: user.id === JANE_ID ? 'Monetize' : 'Support' }));
  const dialog = await paymentDialog('Monetize this piece');
  const fee = await dialog.findByTestId('listing-fee');
  const offer = fee.closest('.kn-payment') as HTMLElement;
  return { ...app, detail, dialog, fee, offer };
}
const openOwnMonetize = (title: string) => openMonetize(title, jane());

const leadOf = (offer: HTMLElement) => offer.querySelector('.kn-payment__lead')?.textContent;

describe('payment modal of type dollar (monetize a piece)', () => {
  it('when Jane monetizes her photo, then the standard listing fee $0.65 is quoted, no credit is offered, and Not now closes', async () => {
    const blueHour = piece('Blue Hour');
    const { dialog, fee, offer, store } = await openOwnMonetize('Blue Hour');
    expect(getListingQuote).toHaveBeenCalledWith({ path: { id: blueHour.id } }, expect.anything());
    expect(leadOf(offer)).toBe('Pay the listing fee of “Blue Hour” once, and every play or view by another member earns $0.05 / view for you.');
    expect(dialog.getByText('Listing fee (standard)')).toBeTruthy();
    expect(fee.textContent).toBe('$0.65');
    // When the fee would pay back, from the piece's own knacks.
    expect((await dialog.findByTestId('listing-forecast')).textContent).toBe(
      "At $0.05 a knack and this piece's 1 knack a day, the $0.65 fee pays back in about 13 days (9–35).",
    );
    expect(getListingForecast).toHaveBeenCalledWith({ path: { id: blueHour.id } }, expect.anything());
    expect(dialog.getByRole('button', { name: 'Pay $0.65' })).toBeTruthy();
    expect(dialog.queryByRole('button', { name: /^Use a/ })).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
    expect(payForContent).not.toHaveBeenCalled();
  });

  it('when the piece is Digital Art and Jane has a premium credit, then $12.40 (premium) is quoted and the credit pays at once: "Paid successfully" and the paid modal', async () => {
    const redFox = piece('Red Fox');
    redFox.isPaidOut = false; // Digital Art, knack $0.99: the premium tier
    jest.mocked(getListingQuote).mockResolvedValue(quoteFor(redFox, { credit: 'premium-credit', creditsLeft: 1 }));
    jest.mocked(payForContent).mockResolvedValue({ status: 'paid', message: 'Paid successfully', content: { ...redFox, isPaidOut: true, payerId: JANE_ID } });
    const { detail, dialog, fee, offer, store } = await openOwnMonetize('Red Fox');
    expect(leadOf(offer)).toContain('earns $0.99 / view for you.');
    expect(dialog.getByText('Listing fee (premium)')).toBeTruthy();
    expect(fee.textContent).toBe('$12.40');
    expect(dialog.getByRole('button', { name: 'Pay $12.40' })).toBeTruthy();

    fireEvent.click(dialog.getByRole('button', { name: 'Use a premium credit (1 left)' }));
    await waitFor(() => expect(toastTexts()).toContain('Paid successfully'));
    expect(payForContent).toHaveBeenCalledTimes(1);
    expect(jest.mocked(payForContent).mock.calls[0]![0]).toEqual({ body: { userId: JANE_ID, contentId: redFox.id, useCredit: true } });
    const paid = await paymentDialog('Congratulations!');
    expect(await paid.findByText(/“Red Fox” is monetized\./)).toBeTruthy();
    expect(store.getState().ui.modalProps).toMatchObject({ paymentType: 'paid', contentId: redFox.id });
    // The detail beneath shows the piece monetized at once.
    expect(detail.getByRole('img', { name: 'Monetized' })).toBeTruthy();
    expect(detail.queryByRole('button', { name: 'Monetize' })).toBeNull();
    // The paid modal has Close only; the modal's corner × is named Close as well.
    const close = paid.getAllByRole('button', { name: 'Close' }).find((button) => button.textContent === 'Close')!;
    fireEvent.click(close);
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
  });

  it('when Bea supports Jane’s piece and pays by card, then POST /content/paid carries her id and the browser is sent to the checkout', async () => {
    const blueHour = piece('Blue Hour');
    const go = catchCheckout();
    const checkoutUrl = 'https://checkout.payments.example/c/pay_123';
    const sent = sendThroughHttp(['payForContent'], () => ({ status: 200, data: { status: 'checkout', orderId: '64e000000000000000000009', checkoutUrl } }));
    const { dialog, offer, user } = await openMonetize('Blue Hour');
    expect(leadOf(offer)).toBe(
      'Support jane doe: pay the listing fee of “Blue Hour” once, and every play or view by another member earns $0.05 / view: 90% to jane doe, 10% to you.',
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Pay $0.65' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith(checkoutUrl));
    expect(sent).toEqual([
      { method: 'POST', url: '/content/paid', body: { userId: user.id, contentId: blueHour.id, useCredit: false }, authorization: 'Bearer fresh-token' },
    ]);
    expect(toastTexts()).not.toContain('Paid successfully');
  });

  it('when the payment is refused, then the server’s message shows as an error toast, nobody is redirected and the offer stays', async () => {
    const go = catchCheckout();
    const refusal = 'The payment provider could not be reached. Please try again.';
    sendThroughHttp(['payForContent'], () => ({ status: 502, data: { message: refusal, code: 'payment_provider' } }));
    const { dialog, detail } = await openOwnMonetize('Blue Hour');
    fireEvent.click(dialog.getByRole('button', { name: 'Pay $0.65' }));
    await waitFor(() => expect(toastTexts()).toContain(refusal));
    expect(go).not.toHaveBeenCalled();
    expect(toastTexts()).not.toContain('Paid successfully');
    await waitFor(() => expect((dialog.getByRole('button', { name: 'Pay $0.65' }) as HTMLButtonElement).disabled).toBe(false));
    expect(detail.getByRole('img', { name: 'Not monetized' })).toBeTruthy();
  });

  it('when a discount code is applied: empty says "Discount code should not be empty", an unknown one the server’s message, a valid one is redeemed', async () => {
    const blueHour = piece('Blue Hour');
    jest
      .mocked(checkDiscountCode)
      .mockRejectedValueOnce(new ApiError('This discount code is not valid.', 404, 'not_found'))
      .mockResolvedValueOnce({ valid: true, message: 'This discount code is valid.' });
    jest.mocked(redeemDiscountCode).mockResolvedValue({ message: 'Paid successfully', content: { ...blueHour, isPaidOut: true, payerId: JANE_ID } });
    const { dialog } = await openOwnMonetize('Blue Hour');
    const field = dialog.getByLabelText('Discount code');
    const apply = dialog.getByRole('button', { name: 'Apply' });

    fireEvent.change(field, { target: { value: '   ' } });
    fireEvent.click(apply);
    expect((await dialog.findByRole('alert')).textContent).toBe('Discount code should not be empty');
    expect(checkDiscountCode).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: 'nope' } });
    fireEvent.click(apply);
    await waitFor(() => expect(dialog.getByRole('alert').textContent).toBe('This discount code is not valid.'));
    // The form shows the refusal itself: the call is quiet (no toast as well).
    expect(checkDiscountCode).toHaveBeenCalledWith({ body: { code: 'nope' } }, QUIET_CALL);
    expect(redeemDiscountCode).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: ' SPRING26 ' } });
    fireEvent.click(apply);
    await waitFor(() => expect(toastTexts()).toContain('Paid successfully'));
    expect(checkDiscountCode).toHaveBeenLastCalledWith({ body: { code: 'SPRING26' } }, QUIET_CALL);
    expect(jest.mocked(redeemDiscountCode).mock.calls[0]![0]).toEqual({ body: { userId: JANE_ID, contentId: blueHour.id, code: 'SPRING26' } });
    expect(await (await paymentDialog('Congratulations!')).findByText(/“Blue Hour” is monetized\./)).toBeTruthy();
    expect(payForContent).not.toHaveBeenCalled();
  });
});

describe('back from the checkout (/profile/default?order={id})', () => {
  const ORDER_ID = '64e000000000000000000001';

  it('when the order is pending, then it is asked again; once paid, "Paid successfully", the paid modal, and the order leaves the address', async () => {
    const blueHour = piece('Blue Hour');
    jest
      .mocked(getPaymentOrder)
      .mockResolvedValueOnce(order(blueHour.id, 'pending', ORDER_ID))
      .mockResolvedValueOnce(order(blueHour.id, 'paid', ORDER_ID));
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 1 }));
    const { store } = await renderAsMember(`/profile/default?order=${ORDER_ID}`);
    // The wallet's figures, read while the order is still pending.
    const wallet = store.dispatch(knackApi.endpoints.getWalletSummary.initiate({ path: { id: JANE_ID } }));
    await wallet;
    await waitFor(() => expect(toastTexts()).toContain('Paid successfully'), { timeout: 5000 });
    expect(jest.mocked(getPaymentOrder).mock.calls).toEqual([
      [{ path: { id: ORDER_ID } }, QUIET_CALL],
      [{ path: { id: ORDER_ID } }, QUIET_CALL],
    ]);
    const paid = await paymentDialog('Congratulations!');
    expect(await paid.findByText(/“Blue Hour” is monetized\./)).toBeTruthy();
    expect(store.getState().ui.modalProps).toMatchObject({ paymentType: 'paid', contentId: blueHour.id });
    // The money changed: the wallet's figures load again.
    await waitFor(() => expect(getWalletSummary).toHaveBeenCalledTimes(2));
    wallet.unsubscribe();
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(path()).toBe('/profile/default');
  });

  it('when the order failed, then "Payment Failed" and no paid modal', async () => {
    const blueHour = piece('Blue Hour');
    jest.mocked(getPaymentOrder).mockResolvedValue(order(blueHour.id, 'failed', ORDER_ID));
    const { store } = await renderAsMember(`/profile/default?order=${ORDER_ID}`);
    await waitFor(() => expect(toastTexts()).toContain('Payment Failed'));
    expect(getPaymentOrder).toHaveBeenCalledTimes(1);
    expect(toastTexts()).not.toContain('Paid successfully');
    expect(store.getState().ui.modal).toBeNull();
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(path()).toBe('/profile/default');
  });

  it('when someone else monetized the piece first (superseded), then the server’s words say so, not "Payment Failed"', async () => {
    const blueHour = piece('Blue Hour');
    jest.mocked(getPaymentOrder).mockResolvedValue(order(blueHour.id, 'superseded', ORDER_ID));
    await renderAsMember(`/profile/default?order=${ORDER_ID}`);
    await waitFor(() => expect(toastTexts()).toContain('This piece was monetized by someone else first. Your payment will be refunded.'));
    expect(toastTexts()).not.toContain('Payment Failed');
  });

  it('when the member left the checkout (cancelled), then the pending order is returned to unsold through tag/sell (cancelPaid) and "Payment Failed" shows', async () => {
    const blueHour = piece('Blue Hour');
    jest
      .mocked(getPaymentOrder)
      .mockResolvedValueOnce(order(blueHour.id, 'pending', ORDER_ID))
      .mockResolvedValue(order(blueHour.id, 'failed', ORDER_ID));
    jest.mocked(sellTag).mockResolvedValue({ tagId: 'x', isSell: false, returned: 1, message: 'Payment Failed' });
    await renderAsMember(`/profile/default?order=${ORDER_ID}&cancelled=1`);
    await waitFor(() => expect(toastTexts()).toContain('Payment Failed'), { timeout: 5000 });
    // The tag that prices the piece: its sub-tag, from the tag list.
    const label = (blueHour.subTag || blueHour.tags[0]!.name).toLowerCase();
    const { tags } = (await jest.mocked(getAllTags).mock.results.at(-1)!.value) as Awaited<ReturnType<typeof getAllTags>>;
    const tagId = tags.find((tag) => tag.label.toLowerCase() === label)!.id;
    expect(sellTag).toHaveBeenCalledTimes(1);
    expect(sellTag).toHaveBeenCalledWith({ body: { tagId, isSell: false } }, QUIET_CALL);
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('when the order cannot be read, then the member is told the result will show in the wallet history', async () => {
    jest.mocked(getPaymentOrder).mockRejectedValue(new Error('offline'));
    await renderAsMember(`/profile/default?order=${ORDER_ID}`);
    await waitFor(() => expect(toastTexts()).toContain('Your payment is still being confirmed. Its result will show in your wallet history.'));
  });
});

describe('wallet (/wallet) and the payout account (/user-setting)', () => {
  const byTestId = (id: string) => screen.getByTestId(id).textContent;
  const balance = () => screen.getByRole('region', { name: 'Balance' });
  const cashOutButton = () => within(balance()).getByRole('button', { name: 'Cash out' }) as HTMLButtonElement;

  it('when opened, then the figures of the wallet summary show with 2 decimals, the next payout, and the earnings history', async () => {
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 25.5, uploads: 3.2, collections: 1.24, totalValue: 4.44, paidOut: 12 }));
    jest.mocked(getUserHistory).mockResolvedValue({ items: [historyItem('Paid1', 'Knack on Night Drive', { paid: 0.05, earned: 0.05 })], nextCursor: null });
    await renderAsMember('/wallet');
    expect(await screen.findByRole('heading', { level: 1, name: 'Wallet' })).toBeTruthy();
    await screen.findByTestId('wallet-balance');
    expect(getWalletSummary).toHaveBeenCalledWith({ path: { id: JANE_ID } }, expect.anything());
    expect([byTestId('wallet-balance'), byTestId('wallet-uploads'), byTestId('wallet-collections'), byTestId('wallet-total')]).toEqual([
      '$25.50',
      '$3.20',
      '$1.24',
      '$4.44',
    ]);
    expect(screen.getByText('Paid out').nextElementSibling?.textContent).toBe('$12.00');
    const firstOfJuly = new Date('2026-07-01T00:00:00.000Z').toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
    expect(within(balance()).getByText(`Next payout ${firstOfJuly}`)).toBeTruthy();
    expect(cashOutButton().disabled).toBe(false);

    const history = await screen.findByRole('list', { name: 'History' });
    expect(within(history).getByText('Knack on Night Drive')).toBeTruthy();
    expect(within(history).getByText('+$0.05')).toBeTruthy();
    expect(getUserHistory).toHaveBeenCalledWith({ path: { id: JANE_ID }, query: { limit: 20 } }, expect.anything());
    expect(screen.getByRole('link', { name: 'All activity' }).getAttribute('href')).toBe('/activity-history');
  });

  it('when the balance is under $10, then Cash out is disabled and says from $10.00; pressing it opens nothing', async () => {
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 9.99, uploads: 9.99 }));
    const { store } = await renderAsMember('/wallet');
    await screen.findByTestId('wallet-balance');
    expect(byTestId('wallet-balance')).toBe('$9.99');
    expect(cashOutButton().disabled).toBe(true);
    expect(within(balance()).getByText('Cash-out from $10.00')).toBeTruthy();
    fireEvent.click(cashOutButton());
    expect(store.getState().ui.modal).toBeNull();
    expect(requestCashOut).not.toHaveBeenCalled();
  });

  it('when the balance is $10 and the cash-out is confirmed, then the earn request is sent, its message shows, and the figures and history load again', async () => {
    const paypal = { paypal: 'jane@paypal.example' };
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 10, uploads: 10 }, { payoutAccount: paypal }));
    const requested = 'Your cash-out request was sent. It is paid to your PayPal account once approved.';
    const earn = historyItem('Earn', 'Cash-out request', { paid: 10, earned: 9.41 });
    jest.mocked(requestCashOut).mockImplementation(async () => {
      // What the server has now: the balance waiting for approval, and the earn item first in the history.
      jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 0, uploads: 10, pendingCashOut: 10 }, { payoutAccount: paypal }));
      jest.mocked(getUserHistory).mockResolvedValue({ items: [earn], nextCursor: null });
      return { message: requested, item: earn };
    });
    const { store } = await renderAsMember('/wallet');
    await screen.findByTestId('wallet-balance');
    expect(cashOutButton().disabled).toBe(false);
    expect(within(balance()).queryByText(/Cash-out from/)).toBeNull();

    // No closes without asking.
    fireEvent.click(cashOutButton());
    let dialog = await paymentDialog('Cash out');
    fireEvent.click(await dialog.findByRole('button', { name: 'No' }));
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
    expect(requestCashOut).not.toHaveBeenCalled();

    fireEvent.click(cashOutButton());
    dialog = await paymentDialog('Cash out');
    const yes = await dialog.findByRole('button', { name: 'Yes, cash out' });
    expect(yes.closest('.kn-payment')?.querySelector('.kn-payment__lead')?.textContent).toBe(
      "Cash out $10.00 to the PayPal account jane@paypal.example? The payment provider's fee is deducted from what is sent.",
    );
    fireEvent.click(yes);
    await waitFor(() => expect(toastTexts()).toContain(requested));
    expect(jest.mocked(requestCashOut).mock.calls.map(([args]) => args)).toEqual([{ body: { userId: JANE_ID } }]);
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
    await waitFor(() => expect(byTestId('wallet-balance')).toBe('$0.00'));
    expect(within(balance()).getByText(/^\$10\.00 cash-out waiting for approval · Next payout/)).toBeTruthy();
    const item = within(await screen.findByRole('list', { name: 'History' }))
      .getByText('Cash-out request')
      .closest('li')!;
    expect(within(item).getByText('Cash-out')).toBeTruthy();
    expect(within(item).getByText('-$10.00')).toBeTruthy();
    expect(item.textContent).toContain(' · pending');
  });

  it('when the server refuses the cash-out (the balance fell under $10 meanwhile), then its message shows: "You need to have a minimum balance of $10 to withdraw"', async () => {
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 10, uploads: 10 }, { payoutAccount: { paypal: 'jane@paypal.example' } }));
    const minimum = 'You need to have a minimum balance of $10 to withdraw';
    const sent = sendThroughHttp(['requestCashOut'], () => ({ status: 400, data: { message: minimum, code: 'bad_request' } }));
    const { store } = await renderAsMember('/wallet');
    await screen.findByTestId('wallet-balance');
    fireEvent.click(cashOutButton());
    const dialog = await paymentDialog('Cash out');
    fireEvent.click(await dialog.findByRole('button', { name: 'Yes, cash out' }));
    await waitFor(() => expect(toastTexts()).toContain(minimum));
    expect(sent).toEqual([{ method: 'POST', url: '/user-history/earn', body: { userId: JANE_ID }, authorization: 'Bearer fresh-token' }]);
    // The confirmation stays open; nothing is counted as asked, so the figures do not load again.
    expect(store.getState().ui.modal).toBe('payment');
    expect(getWalletSummary).toHaveBeenCalledTimes(1);
  });

  it('when the wallet opens, then it says where payouts go and links to the payout account in the settings', async () => {
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 2 }, { payoutAccount: { paypal: 'jane@paypal.example' } }));
    await renderAsMember('/wallet');
    const where = await screen.findByRole('region', { name: 'Where payouts go' });
    expect(where.textContent).toContain('To the PayPal account jane@paypal.example.');
    expect(within(where).getByRole('link', { name: 'Change it in Settings' }).getAttribute('href')).toBe('/user-setting#payout');
    expect(screen.queryByRole('region', { name: 'Payout account' })).toBeNull();
  });

  it('when the PayPal email is held, then the wallet and the settings say so, and saving it again with the password confirms it', async () => {
    const held = { paypal: 'thief@paypal.example', held: true };
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 2 }, { payoutAccount: held }));
    const confirmed = 'Your PayPal email is confirmed: payouts and cash-outs go to it again.';
    jest.mocked(updatePaymentInfo).mockImplementation(async ({ body }) => {
      jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 2 }, { payoutAccount: { paypal: body.paypal, held: false } }));
      return { message: confirmed, paypal: body.paypal };
    });
    await renderAsMember('/wallet');
    const where = await screen.findByRole('region', { name: 'Where payouts go' });
    expect(within(where).getByTestId('wallet-payout-held').textContent).toContain('On hold');
    fireEvent.click(within(where).getByRole('link', { name: 'Confirm or change it in Settings' }));

    const payout = await payoutForm();
    expect(within(payout).getByTestId('payout-held').textContent).toBe(
      'This PayPal email was set while someone else may have had your account, so nothing is paid to it for now. If it is yours, save it with your password to confirm it; if not, enter your own.',
    );
    const email = within(payout).getByLabelText('PayPal email') as HTMLInputElement;
    await waitFor(() => expect(email.value).toBe('thief@paypal.example'));
    fireEvent.change(within(payout).getByLabelText('Current password'), { target: { value: 'Str0ng!pass' } });
    fireEvent.click(within(payout).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTexts()).toContain(confirmed));
    expect(jest.mocked(updatePaymentInfo).mock.calls.map(([args]) => args)).toEqual([
      { path: { id: JANE_ID }, body: { paypal: 'thief@paypal.example', password: 'Str0ng!pass' } },
    ]);
    await waitFor(() => expect(within(payout).queryByTestId('payout-held')).toBeNull());
  });

  it('when the PayPal email is saved, then a wrong address or a blank password is refused on the spot, and a right one is sent trimmed and lower-cased with the password, which is then cleared', async () => {
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 2 }));
    jest.mocked(updatePaymentInfo).mockImplementation(async ({ body }) => {
      jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 2 }, { payoutAccount: { paypal: body.paypal } }));
      return { message: 'Success', paypal: body.paypal };
    });
    await renderAsMember('/user-setting');
    const payout = await payoutForm();
    const email = within(payout).getByLabelText('PayPal email') as HTMLInputElement;
    const password = within(payout).getByLabelText('Current password') as HTMLInputElement;
    expect(email.value).toBe('');
    expect(password.type).toBe('password');
    expect(payout.textContent).toContain('For your safety, changing it asks for your password, and we email your account address each time it changes.');

    fireEvent.change(email, { target: { value: 'jane@paypal' } });
    fireEvent.click(within(payout).getByRole('button', { name: 'Save' }));
    const alerts = await within(payout).findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual(['Enter the email address of your PayPal account.', 'Please input password']);
    expect(updatePaymentInfo).not.toHaveBeenCalled();

    fireEvent.change(email, { target: { value: ' Jane@PayPal.Example ' } });
    fireEvent.change(password, { target: { value: 'Str0ng!pass' } });
    fireEvent.click(within(payout).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTexts()).toContain('Success'));
    expect(jest.mocked(updatePaymentInfo).mock.calls.map(([args]) => args)).toEqual([
      { path: { id: JANE_ID }, body: { paypal: 'jane@paypal.example', password: 'Str0ng!pass' } },
    ]);
    expect(within(payout).queryByRole('alert')).toBeNull();
    expect(password.value).toBe('');
    // The summary loads again and brings the saved account.
    await waitFor(() => expect(getWalletSummary).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(email.value).toBe('jane@paypal.example'));
  });

  it('when the server refuses the password, then its message shows under the password field (no error toast), the password stays to be corrected, and nothing loads again', async () => {
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 2 }, { payoutAccount: { paypal: 'jane@paypal.example' } }));
    const wrong = 'Incorrect password.';
    const sent = sendThroughHttp(['updatePaymentInfo'], () => ({
      status: 400,
      data: { message: wrong, code: 'bad_request', errors: [{ path: 'password', message: wrong }] },
    }));
    await renderAsMember('/user-setting');
    const payout = await payoutForm();
    const email = within(payout).getByLabelText('PayPal email') as HTMLInputElement;
    await waitFor(() => expect(email.value).toBe('jane@paypal.example'));
    fireEvent.change(email, { target: { value: 'new@paypal.example' } });
    const password = within(payout).getByLabelText('Current password') as HTMLInputElement;
    fireEvent.change(password, { target: { value: 'Wr0ng!pass' } });
    fireEvent.click(within(payout).getByRole('button', { name: 'Save' }));

    const alert = await within(payout).findByRole('alert');
    expect(alert.textContent).toBe(wrong);
    expect(password.getAttribute('aria-describedby')).toBe(alert.id);
    expect(sent).toEqual([
      {
        method: 'POST',
        url: `/user-setting/update-payment-info/${JANE_ID}`,
        body: { paypal: 'new@paypal.example', password: 'Wr0ng!pass' },
        authorization: 'Bearer fresh-token',
      },
    ]);
    expect(toastTexts()).not.toContain(wrong);
    expect(password.value).toBe('Wr0ng!pass');
    expect(getWalletSummary).toHaveBeenCalledTimes(1);
    expect(within(payout).queryByRole('button', { name: /Forgot password/ })).toBeNull();
  });

  it('when the account has no password (Google or Facebook sign-in), then the server’s message shows and Forgot password opens the reset by email', async () => {
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 2 }));
    const notSet =
      'Your account has no password yet (you sign in with Google or Facebook). Set one with “Forgot password”: we email you a link. Then try again.';
    sendThroughHttp(['updatePaymentInfo'], () => ({
      status: 400,
      data: { message: notSet, code: 'password_not_set', errors: [{ path: 'password', message: notSet }] },
    }));
    const { store } = await renderAsMember('/user-setting');
    const payout = await payoutForm();
    fireEvent.change(within(payout).getByLabelText('PayPal email'), { target: { value: 'jane@paypal.example' } });
    fireEvent.change(within(payout).getByLabelText('Current password'), { target: { value: 'something' } });
    fireEvent.click(within(payout).getByRole('button', { name: 'Save' }));

    expect((await within(payout).findByRole('alert')).textContent).toBe(notSet);
    fireEvent.click(within(payout).getByRole('button', { name: 'Forgot password? Set one by email' }));
    await waitFor(() => expect(store.getState().ui.modal).toBe('forgot-password'));
  });

  it('when too many wrong passwords were given, then the server’s 429 message shows as an error toast', async () => {
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 2 }));
    const tooMany = 'Too many wrong passwords. Please wait and try again.';
    sendThroughHttp(['updatePaymentInfo'], () => ({ status: 429, data: { message: tooMany, code: 'too_many_requests' } }));
    await renderAsMember('/user-setting');
    const payout = await payoutForm();
    fireEvent.change(within(payout).getByLabelText('PayPal email'), { target: { value: 'jane@paypal.example' } });
    fireEvent.change(within(payout).getByLabelText('Current password'), { target: { value: 'Guess!123' } });
    fireEvent.click(within(payout).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTexts()).toContain(tooMany));
    expect(within(payout).queryByRole('alert')).toBeNull();
  });
});

describe('activity history (/activity-history)', () => {
  const items = (): HistoryItem[] => [
    historyItem('Paid1', 'Knack on Night Drive', { paid: 0.05, earned: 0.05 }),
    historyItem('Paid0', 'You supported Sea Glass', { paid: 12.4 }),
    historyItem('Earn', 'Cash-out request', { paid: 12.34, earned: 11.7 }, { status: 'pending' }),
    historyItem('Payout', 'Monthly payout', { paid: 20, earned: 19.3 }),
    historyItem('Refund', 'Your listing fee for Red Fox was refunded: someone else monetized it first', { earned: 0.65 }),
  ];
  const rows = (list: HTMLElement) =>
    within(list)
      .getAllByRole('listitem')
      .map((row) => [...row.children].filter((child) => child.tagName !== 'TIME').map((child) => child.textContent));

  it('when reached from the wallet, then every history item shows its kind, text and amount, and Load more pages on with the cursor', async () => {
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 1 }));
    const page1 = items();
    const older = historyItem('Paid0', 'You monetized Blue Hour', { paid: 0.65 }, { at: '2026-04-02T12:00:00.000Z' });
    jest
      .mocked(getUserHistory)
      .mockImplementation(async ({ query }) =>
        query?.cursor === 'cursor-2' ? { items: [older], nextCursor: null } : { items: page1, nextCursor: 'cursor-2' },
      );
    await renderAsMember('/wallet');
    fireEvent.click(await screen.findByRole('link', { name: 'All activity' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Activity history' })).toBeTruthy();
    expect(path()).toBe('/activity-history');

    const list = await screen.findByRole('list', { name: 'History' });
    expect(rows(list)).toEqual([
      ['Knack', 'Knack on Night Drive', '+$0.05'],
      ['Listing fee', 'You supported Sea Glass', '$12.40'],
      ['Cash-out', 'Cash-out request · pending', '-$12.34', 'Cancel'],
      ['Payout', 'Monthly payout', '-$20.00'],
      ['Refund', 'Your listing fee for Red Fox was refunded: someone else monetized it first', '+$0.65'],
    ]);
    const times = within(list)
      .getAllByRole('listitem')
      .map((row) => row.querySelector('time')!);
    expect(times[0]!.getAttribute('dateTime')).toBe('2026-05-14T12:00:00.000Z');
    expect(times[0]!.textContent).toBe(new Date('2026-05-14T12:00:00.000Z').toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }));

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(6));
    expect(rows(list)[5]).toEqual(['Listing fee', 'You monetized Blue Hour', '$0.65']);
    expect(getUserHistory).toHaveBeenLastCalledWith({ path: { id: JANE_ID }, query: { limit: 20, cursor: 'cursor-2' } }, expect.anything());
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('when the member has no history yet, then the page says so', async () => {
    await renderAsMember('/activity-history');
    expect(await screen.findByText('Nothing yet: monetize a piece or support one to start.')).toBeTruthy();
    expect(getUserHistory).toHaveBeenCalledWith({ path: { id: JANE_ID }, query: { limit: 20 } }, expect.anything());
  });

  it('when a page of history cannot be loaded, then the page stays, says why and offers to try again', async () => {
    const fee = historyItem('Paid0', 'You monetized Blue Hour', { paid: 0.65 });
    jest
      .mocked(getUserHistory)
      .mockRejectedValueOnce(new ApiError('Network error: the server could not be reached.', 0, 'network_error'))
      .mockResolvedValueOnce({ items: [fee], nextCursor: null });
    await renderAsMember('/activity-history');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Network error: the server could not be reached.');
    expect(screen.getByRole('heading', { name: 'Activity history' })).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('You monetized Blue Hour')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when the paid list is asked for, then the listing fees come from get-paid (Paid0 items only), a page at a time', async () => {
    const fee = historyItem('Paid0', 'You monetized Blue Hour', { paid: 0.65 });
    const older = historyItem('Paid0', 'You supported Sea Glass', { paid: 12.4 });
    jest
      .mocked(getPaidHistory)
      .mockResolvedValueOnce({ items: [fee], nextCursor: 'next' })
      .mockResolvedValueOnce({ items: [older], nextCursor: null });
    const store = createAppStore();
    const { result } = renderHook(() => useHistory(JANE_ID, 'paid'), {
      wrapper: ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>,
    });
    await waitFor(() => expect(result.current.loaded).toBe(true));
    expect(result.current.items.map((item) => item.activity)).toEqual(['You monetized Blue Hour']);
    act(() => result.current.more!());
    await waitFor(() => expect(result.current.items).toHaveLength(2));
    expect(result.current.more).toBeUndefined();
    expect(jest.mocked(getPaidHistory).mock.calls.map(([args]) => args)).toEqual([
      { path: { id: JANE_ID }, query: { limit: 20 } },
      { path: { id: JANE_ID }, query: { limit: 20, cursor: 'next' } },
    ]);
    expect(getUserHistory).not.toHaveBeenCalled();
  });
});

describe('route guard', () => {
  it.each(['/wallet', '/activity-history'])(
    'when a visitor without an account opens %s, then the guard sends them home and nothing of the member is asked',
    async (at) => {
      const { store } = renderAt(at);
      expect(await screen.findByRole('heading', { level: 1, name: 'Get paid for every play and view.' })).toBeTruthy();
      expect(path()).toBe('/');
      expect(store.getState().auth.isLoggedIn).toBe(false);
      expect(getWalletSummary).not.toHaveBeenCalled();
      expect(getUserHistory).not.toHaveBeenCalled();
    },
  );
});
