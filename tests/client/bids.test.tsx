/**
 * The buy/sell panel of the content detail: 'Buy' for everyone but the owner, 'Sell' for the owner; the price row
 * (XLM, 2 decimals), the unit (XLM only), the current bid (0.00 with none), the reserve (the piece's earnings in XLM),
 * the owner's figure for a sale at the current bid (no percentage taken), the history rows (date, role, text; a
 * seller row when sold), the bid messages as success-style toasts (as the spec has it, refusals included), and the
 * links of a bidder's inbox (/cancel?token=, /approve?token= going home). The generated operations are mocked; the
 * store, router and toasts are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { approveBid, cancelBid, getBidsByContent, getWalletLink, relistBid, sellBid, updateBid } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import type { components } from '../../generated/openapi';
import { QUIET_CALL } from './call-options';
import { cardLink, detailDialog, JANE_ID, path, toastTexts, useJaneWorld } from './profile-fixtures';
import { bea, jane, renderAsMember, catchCheckout } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

type Bid = components['schemas']['Bid'];
type BidList = components['schemas']['BidList'];

const world = useJaneWorld();
const BEA_ID = bea().id;
const BEA_ADDRESS = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
const JANE_ADDRESS = 'GAHK7EEG2WWHVKDNT4CEQFZGKF2LGDSW2IVM4S5DP42RBW3K6BTODB4A';

function bidOf(contentId: string, n: number, price: number, overrides: Partial<Bid> = {}): Bid {
  const id = `${contentId}:${n}`;
  return {
    _id: id,
    id,
    contentId,
    biderId: BEA_ID,
    userId: BEA_ID,
    biderUsername: 'bea_moon',
    price,
    unit: 'xlm',
    createdAt: `2026-05-1${n}T12:00:00.000Z`,
    sold: false,
    pending: false,
    deleted: false,
    current: false,
    soldAt: null,
    ...overrides,
  };
}

function listOf(bids: Bid[], overrides: Partial<BidList> = {}): BidList {
  const current = bids.find((bid) => bid.current);
  return {
    bids,
    count: bids.length,
    currentBidId: current?.id ?? null,
    highestPrice: current?.price ?? 0,
    unit: 'xlm',
    pending: false,
    reserve: 4.2,
    xlmPerUsd: 10,
    lastSale: null,
    closed: false,
    relistFee: null,
    ...overrides,
  };
}

const piece = () => world.pieces.find((candidate) => candidate.title === 'Blue Hour')!;

/** Blue Hour (Jane's) opened from her profile by `user`: the panel of the detail. */
async function openPanel(user = bea()) {
  const app = await renderAsMember('/jane_doe', user);
  fireEvent.click(await cardLink('Blue Hour'));
  const detail = await detailDialog('Blue Hour');
  const panel = within(await detail.findByRole('region', { name: 'Buy or sell' }));
  return { ...app, panel };
}

/** Jane's linked Freighter wallet, for the owner's Sell tab. */
const janeWallet = () =>
  jest.mocked(getWalletLink).mockResolvedValue({
    linked: true,
    wallet: 'freighter',
    network: 'testnet',
    address: JANE_ADDRESS,
    addressShort: 'GAHK…DB4A',
    linkedAt: '2026-05-01T00:00:00.000Z',
  });

const historyRows = (panel: ReturnType<typeof within>) =>
  panel
    .getAllByRole('listitem')
    .map((row: HTMLElement) => [...row.children].map((child) => (child.tagName === 'TIME' ? child.getAttribute('dateTime') : child.textContent)));

beforeEach(() => {
  jest.mocked(getWalletLink).mockResolvedValue({
    linked: true,
    wallet: 'freighter',
    network: 'testnet',
    address: BEA_ADDRESS,
    addressShort: 'GBRP…OX2H',
    linkedAt: '2026-05-01T00:00:00.000Z',
  });
});

describe('the buy/sell panel', () => {
  it("when Bea opens Jane's piece with no bid yet, then the tab is Buy, the current bid 0.00 XLM, the reserve in XLM, the unit XLM, and no history", async () => {
    jest.mocked(getBidsByContent).mockResolvedValue(listOf([]));
    const { panel } = await openPanel();
    expect(panel.getByRole('tab', { name: 'Buy' }).getAttribute('aria-selected')).toBe('true');
    expect(panel.queryByRole('tab', { name: 'Sell' })).toBeNull();
    await waitFor(() => expect(panel.getByTestId('bid-current').textContent).toBe('0.00 XLM'));
    expect(panel.getByTestId('bid-reserve').textContent).toBe('4.20 XLM');
    const unit = panel.getByRole('combobox', { name: 'Unit' }) as HTMLSelectElement;
    expect([unit.value, unit.selectedOptions[0]!.textContent]).toEqual(['xlm', 'XLM']);
    expect(panel.getByText('No bids yet.')).toBeTruthy();
    expect(getBidsByContent).toHaveBeenCalledWith({ path: { id: piece().id } }, expect.anything());
  });

  it('when the history has a withdrawn bid, a bid, and a pending sale, then each row has its date, its role (buyer when pending, else bidder) and its text', async () => {
    const id = piece().id;
    jest.mocked(getBidsByContent).mockResolvedValue(
      listOf([bidOf(id, 3, 12.5, { pending: true, current: true, biderUsername: 'cal_ray' }), bidOf(id, 2, 10), bidOf(id, 1, 8, { deleted: true })], {
        pending: true,
      }),
    );
    const { panel } = await openPanel();
    await waitFor(() => expect(panel.getByTestId('bid-current').textContent).toBe('12.50 XLM'));
    expect(historyRows(panel)).toEqual([
      ['2026-05-13T12:00:00.000Z', 'Buyer', 'cal ray is buying it for 12.50 XLM (sale pending)'],
      ['2026-05-12T12:00:00.000Z', 'Bidder', 'bea moon bid 10.00 XLM'],
      ['2026-05-11T12:00:00.000Z', 'Bidder', 'bea moon withdrew a bid of 8.00 XLM'],
    ]);
  });

  it('when a bid was sold, then it has a buyer row and a second, seller row', async () => {
    const id = piece().id;
    jest
      .mocked(getBidsByContent)
      .mockResolvedValue(listOf([bidOf(id, 1, 20, { sold: true, soldAt: '2026-05-12T15:00:00.000Z', sellerId: JANE_ID, sellerUsername: 'jane_doe' })]));
    const { panel } = await openPanel();
    await waitFor(() => expect(historyRows(panel)).toHaveLength(2));
    expect(historyRows(panel)).toEqual([
      ['2026-05-12T15:00:00.000Z', 'Buyer', 'bea moon bought it for 20.00 XLM'],
      ['2026-05-12T15:00:00.000Z', 'Seller', 'jane doe sold it for 20.00 XLM'],
    ]);
  });

  it('when Bea bids, then the bid is sent in XLM and its success is a toast; each refusal shows its message as a success-style toast too', async () => {
    jest.mocked(getBidsByContent).mockResolvedValue(listOf([]));
    const id = piece().id;
    const refusals = [
      'You must input the price.',
      'The price must be bigger than the current best bid price.',
      'The price must be bigger than the current earning.',
      "This upload is pending to sell now, So you can't bid.",
    ];
    for (const message of refusals) jest.mocked(updateBid).mockRejectedValueOnce(new ApiError(message, message.includes('pending') ? 409 : 400, 'bad_request'));
    jest.mocked(updateBid).mockResolvedValueOnce({ bid: bidOf(id, 1, 5.25, { current: true }) });
    const { panel } = await openPanel();
    const price = panel.getByRole('spinbutton', { name: 'Price' });

    for (const message of refusals) {
      fireEvent.click(panel.getByRole('button', { name: 'Bid' }));
      await waitFor(() => expect(toastTexts()).toContain(message));
    }
    // Success-style: the toasts carry the success icon, none the error one.
    expect(document.querySelectorAll('.ant-message-notice .anticon-check-circle').length).toBeGreaterThan(0);
    expect(document.querySelectorAll('.ant-message-notice .anticon-close-circle')).toHaveLength(0);

    fireEvent.change(price, { target: { value: '5.25' } });
    fireEvent.blur(price);
    fireEvent.click(panel.getByRole('button', { name: 'Bid' }));
    await waitFor(() => expect(toastTexts()).toContain('Your bid of 5.25 XLM is the current best bid.'));
    expect(updateBid).toHaveBeenLastCalledWith({ body: { contentId: id, biderId: BEA_ID, price: 5.25, unit: 'xlm' } }, QUIET_CALL);
  });

  it('when Bea has no linked wallet, then the panel asks her to link Freighter instead of bidding', async () => {
    jest.mocked(getBidsByContent).mockResolvedValue(listOf([]));
    jest.mocked(getWalletLink).mockResolvedValue({ linked: false });
    const { panel } = await openPanel();
    expect(await panel.findByText('Bidding needs a linked Stellar wallet.')).toBeTruthy();
    expect(panel.getByRole('button', { name: 'Link Freighter' })).toBeTruthy();
    expect(panel.queryByRole('button', { name: 'Bid' })).toBeNull();
  });

  it('when Jane opens her own piece, then the tab is Sell, with the reserve and what a sale at the current bid brings (no percentage); Sell sends the current bid, and "You can\'t sell" is a success-style toast', async () => {
    const id = piece().id;
    janeWallet();
    jest.mocked(getBidsByContent).mockResolvedValue(listOf([bidOf(id, 2, 12.5, { current: true })], { reserve: 3.1 }));
    jest.mocked(sellBid).mockRejectedValueOnce(new ApiError("You can't sell", 409, 'conflict'));
    const { panel } = await openPanel(jane());
    expect(panel.getByRole('tab', { name: 'Sell' }).getAttribute('aria-selected')).toBe('true');
    expect(panel.queryByRole('tab', { name: 'Buy' })).toBeNull();
    await waitFor(() => expect(panel.getByTestId('bid-current').textContent).toBe('12.50 XLM'));
    expect(panel.getByTestId('bid-reserve').textContent).toBe('3.10 XLM');
    await waitFor(() =>
      expect(panel.getByTestId('bid-brings').textContent).toBe('A sale at the current bid brings you 12.50 XLM (about $1.25): Knack takes no percentage.'),
    );
    expect(panel.queryByRole('spinbutton', { name: 'Price' })).toBeNull();

    fireEvent.click(panel.getByRole('button', { name: 'Sell for 12.50 XLM' }));
    await waitFor(() => expect(toastTexts()).toContain("You can't sell"));
    expect(sellBid).toHaveBeenCalledWith({ body: { bidId: `${id}:2` } }, QUIET_CALL);
    expect(document.querySelector('.ant-message-notice .anticon-check-circle')).toBeTruthy();
  });
});

describe('a sold piece', () => {
  const soldList = (overrides: Partial<BidList> = {}) => {
    const id = piece().id;
    const sold = bidOf(id, 1, 20, { sold: true, soldAt: '2026-05-12T15:00:00.000Z', sellerId: 'aaaaaaaaaaaaaaaaaaaaaaaa', sellerUsername: 'cal_ray' });
    return listOf([sold], { closed: true, lastSale: { bidId: sold.id, price: 20, soldAt: '2026-05-12T15:00:00.000Z' }, ...overrides });
  };

  it('when Bea opens a piece sold and not relisted, then she sees what it last sold for, that bidding is closed, and cannot bid', async () => {
    jest.mocked(getBidsByContent).mockResolvedValue(soldList());
    const { panel } = await openPanel();
    await waitFor(() => expect(panel.getByTestId('bid-last-sale').textContent).toBe('20.00 XLM'));
    expect(panel.queryByTestId('bid-current')).toBeNull();
    expect(panel.getByRole('status').textContent).toMatch(/^Sold for 20\.00 XLM on .+\. Bidding opens again when its owner relists it\.$/);
    expect(panel.getByRole('button', { name: 'Bid' }).hasAttribute('disabled')).toBe(true);
  });

  it('when Jane, its new owner, relists it for its $1.00 fee, then she goes to the card checkout', async () => {
    janeWallet();
    const go = catchCheckout();
    jest.mocked(getBidsByContent).mockResolvedValue(soldList({ relistFee: 1 }));
    jest.mocked(relistBid).mockResolvedValue({ status: 'checkout', orderId: 'a'.repeat(24), checkoutUrl: 'http://localhost/checkout/sandbox/cs_1' });
    const { panel } = await openPanel(jane());
    await waitFor(() => expect(panel.getByRole('status').textContent).toContain('the fee is $1.00, 10% of the reserve.'));
    fireEvent.click(panel.getByRole('button', { name: 'Relist for $1.00' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('http://localhost/checkout/sandbox/cs_1'));
    expect(relistBid).toHaveBeenCalledWith({ body: { contentId: piece().id } }, QUIET_CALL);
  });

  it('when the fee is waived, then relisting is free and says the piece is open again', async () => {
    janeWallet();
    jest.mocked(getBidsByContent).mockResolvedValue(soldList({ relistFee: 0 }));
    jest.mocked(relistBid).mockResolvedValue({ status: 'relisted' });
    const { panel } = await openPanel(jane());
    fireEvent.click(await panel.findByRole('button', { name: 'Relist for free' }));
    await waitFor(() => expect(toastTexts()).toContain('Your piece is open for bids again.'));
  });
});

describe("a bidder's inbox links", () => {
  it('when /cancel?token= is opened, then the sale the token names is cancelled, it says so, and the page goes home', async () => {
    jest.mocked(cancelBid).mockResolvedValue({ bid: bidOf(piece().id, 1, 5) });
    await renderAsMember('/cancel?token=abc.def.sig', bea());
    await waitFor(() => expect(toastTexts()).toContain('The sale is cancelled: bidding is open again.'));
    expect(cancelBid).toHaveBeenCalledWith({ body: { token: 'abc.def.sig', succeed: true } }, QUIET_CALL);
    await waitFor(() => expect(path()).toBe('/'));
  });

  it('when /approve?token= names a sale no longer pending, then the server says so as a toast and the page goes home, with nothing to sign', async () => {
    jest.mocked(approveBid).mockRejectedValue(new ApiError("You can't sell", 409, 'conflict'));
    await renderAsMember('/approve?token=abc.def.sig', bea());
    await waitFor(() => expect(toastTexts()).toContain("You can't sell"));
    expect(approveBid).toHaveBeenCalledTimes(1);
    expect(approveBid).toHaveBeenCalledWith({ body: { token: 'abc.def.sig', succeed: true } }, QUIET_CALL);
    await waitFor(() => expect(path()).toBe('/'));
  });
});
