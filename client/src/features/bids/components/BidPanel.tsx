import { useId, useState } from 'react';
import type { CachedError } from '../../../api/cache';
import {
  useGetBidsByContentQuery,
  useGetWalletLinkQuery,
  useRelistBidMutation,
  useSellBidMutation,
  useUpdateBidMutation,
} from '../../../api/generated/endpoints';
import type { GetBidsByContentResult } from '../../../api/generated/operations';
import { notify } from '../../../components/notify';
import { Button } from '../../../components/button';
import { TextInput } from '../../../components/input';
import { formatUsd } from '../../../components/format';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { displayUsername } from '../../../lib/userNames';
import { modalOpened } from '../../../lib/ui';
import { selectUser } from '../../auth';
import { goToCheckout } from '../../payments';
import { useWalletModal } from '../../stellar';
import { formatXlm } from '../bids.format';
import { saleOutcome, useSaleSigning, type BidSale } from './useSaleSigning';
import './bids.css';

type Bid = GetBidsByContentResult['bids'][number];

/** One line of the history: its date, the role, and what happened. */
interface HistoryRow {
  key: string;
  at: string;
  role: 'Buyer' | 'Bidder' | 'Seller';
  text: string;
}

const when = (at: string) => new Date(at).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const nameOf = (bid: Bid) => (bid.biderUsername ? displayUsername(bid.biderUsername) : 'A member');

/** A bid's rows: the buyer (sold or pending) or the bidder, and for a sold bid a second row, the seller's. */
function rowsOf(bid: Bid): HistoryRow[] {
  const price = formatXlm(bid.price);
  if (bid.sold) {
    return [
      { key: `${bid.id}:buyer`, at: bid.soldAt ?? bid.createdAt, role: 'Buyer', text: `${nameOf(bid)} bought it for ${price}` },
      {
        key: `${bid.id}:seller`,
        at: bid.soldAt ?? bid.createdAt,
        role: 'Seller',
        text: `${bid.sellerUsername ? displayUsername(bid.sellerUsername) : 'The owner'} sold it for ${price}`,
      },
    ];
  }
  if (bid.pending) return [{ key: bid.id, at: bid.createdAt, role: 'Buyer', text: `${nameOf(bid)} is buying it for ${price} (sale pending)` }];
  const text = bid.deleted ? `${nameOf(bid)} withdrew a bid of ${price}` : `${nameOf(bid)} bid ${price}`;
  return [{ key: bid.id, at: bid.createdAt, role: 'Bidder', text }];
}

/** The typed price as a number (null when empty); the server tells a missing or bad one ('You must input the price.'). */
function priceOf(text: string): number | null {
  const value = Number(text);
  return text.trim() === '' || !Number.isFinite(value) ? null : value;
}

/** The server's answer to a refused bid or sale, shown as the spec has it: a success-style toast with its message. */
const toldAsToast = (error: unknown) => notify('success', (error as CachedError).message);

/**
 * The buy/sell panel of a piece: 'Sell' for its owner, 'Buy' for everyone else. The price row (XLM, 2 decimals), the
 * current bid (0.00 with none), the reserve (the piece's earnings in XLM at the current rate: a bid must beat it),
 * for the owner what a sale at the current bid brings (Knack takes no percentage), and the history. Bidding and
 * selling need a linked Stellar wallet; the sale's one transaction is signed by each party's own wallet.
 */
export default function BidPanel({ contentId, ownerId }: { contentId: string; ownerId: string }) {
  const dispatch = useAppDispatch();
  const viewer = useAppSelector(selectUser);
  const isOwner = viewer?.id === ownerId;
  const list = useGetBidsByContentQuery({ path: { id: contentId } });
  const link = useGetWalletLinkQuery(undefined, { skip: !viewer });
  const wallet = useWalletModal();
  // The price as typed, shown to 2 decimals once the field is left (XLM prices have 2).
  const [priceText, setPriceText] = useState('');
  const tabId = useId();
  const paneId = useId();
  const [bid, { isLoading: bidding }] = useUpdateBidMutation();
  const [sell, { isLoading: selling }] = useSellBidMutation();
  const [relist, { isLoading: relisting }] = useRelistBidMutation();
  const { sign, signing } = useSaleSigning();

  const data = list.data;
  const linked = link.data?.linked ? link.data : null;
  const sale = data?.sale;
  const mySigner = sale?.signers.find((signer) => signer.role === (isOwner ? 'seller' : 'buyer'));
  const mustSign = Boolean(sale && sale.status === 'pending' && mySigner && !mySigner.signed);

  const placeBid = async () => {
    if (!viewer) return;
    try {
      const answer = await bid({
        body: { contentId, biderId: viewer.id, price: priceOf(priceText) ?? 0, unit: 'xlm' },
        quiet: 'a refused bid is told as a toast with its message',
      }).unwrap();
      notify('success', `Your bid of ${formatXlm(answer.bid.price)} is the current best bid.`);
      setPriceText('');
    } catch (error) {
      toldAsToast(error);
    }
  };

  const signSale = async (pending: BidSale) => {
    if (!linked?.address) return;
    await sign({ bidId: pending.bidId }, pending, linked.address);
  };

  const sellCurrent = async () => {
    if (!data?.currentBidId) return;
    try {
      const answer = await sell({ body: { bidId: data.currentBidId }, quiet: 'a refused sale is told as a toast with its message' }).unwrap();
      const pending = answer.sale;
      if (pending && linked?.address && pending.signers.some((signer) => signer.role === 'seller' && !signer.signed)) {
        await sign({ bidId: pending.bidId }, pending, linked.address);
      } else {
        notify('success', saleOutcome(pending));
      }
    } catch (error) {
      toldAsToast(error);
    }
  };

  /** Opens the sold piece to bids again: the fee by card checkout, or at once when it is waived. */
  const relistPiece = async () => {
    try {
      const answer = await relist({ body: { contentId }, quiet: 'a refused relisting is told as a toast with its message' }).unwrap();
      if (answer.status === 'checkout') return goToCheckout(answer.checkoutUrl);
      notify('success', 'Your piece is open for bids again.');
    } catch (error) {
      toldAsToast(error);
    }
  };

  const history = (data?.bids ?? []).flatMap(rowsOf);
  const lastSale = data?.lastSale;
  const closed = Boolean(data?.closed);
  const current = data ? formatXlm(data.highestPrice) : '…';
  const xlmPerUsd = data?.xlmPerUsd;

  const walletNeeded = viewer && link.data && !linked;
  const action = !viewer ? (
    <Button kind="primary" onClick={() => dispatch(modalOpened({ name: 'login', origin: 'onClickKnack' }))}>
      Log in to bid
    </Button>
  ) : walletNeeded ? (
    <div className="kn-bids__wallet">
      <span>{isOwner ? 'Selling needs a linked Stellar wallet.' : 'Bidding needs a linked Stellar wallet.'}</span>
      <Button onClick={() => wallet.connect('freighter')}>Link Freighter</Button>
    </div>
  ) : null;

  // The current bid and the reserve a bid must beat: the same two figures on both tabs.
  const figures = (
    <dl className="kn-bids__figures">
      {closed && lastSale ? (
        <div>
          <dt>Last sold for</dt>
          <dd data-testid="bid-last-sale">{formatXlm(lastSale.price)}</dd>
        </div>
      ) : (
        <div>
          <dt>Current bid</dt>
          <dd data-testid="bid-current">{current}</dd>
        </div>
      )}
      <div>
        <dt>Reserve (knack guarantee)</dt>
        <dd data-testid="bid-reserve">{data ? (data.reserve === null ? 'Not known right now' : formatXlm(data.reserve)) : '…'}</dd>
      </div>
    </dl>
  );

  const pane = isOwner ? (
    <div className="kn-bids__pane">
      {figures}
      {closed ? null : (
        <p className="kn-bids__brings" data-testid="bid-brings">
          {data && data.currentBidId && data.highestPrice > 0
            ? `A sale at the current bid brings you ${formatXlm(data.highestPrice)}${xlmPerUsd ? ` (about ${formatUsd(data.highestPrice / xlmPerUsd)})` : ''}: Knack takes no percentage.`
            : 'No bid yet: a sale brings you the whole price, Knack takes no percentage.'}
        </p>
      )}
      {closed && data && lastSale ? (
        <div className="kn-bids__closed" role="status">
          <p>
            {`Bought for ${formatXlm(lastSale.price)} on ${when(lastSale.soldAt)}. Nobody can bid until you relist it: `}
            {data.relistFee
              ? `the fee is ${formatUsd(data.relistFee)}, 10% of the reserve.`
              : 'relisting is free (10% of the reserve is under the $0.50 card minimum).'}
          </p>
          <Button kind="primary" loading={relisting} onClick={() => void relistPiece()}>
            {data.relistFee ? `Relist for ${formatUsd(data.relistFee)}` : 'Relist for free'}
          </Button>
        </div>
      ) : (
        (action ?? (
          <Button kind="primary" disabled={!data?.currentBidId || data.pending} loading={selling || signing} onClick={() => void sellCurrent()}>
            {data?.currentBidId ? `Sell for ${current}` : 'Sell'}
          </Button>
        ))
      )}
    </div>
  ) : (
    <div className="kn-bids__pane">
      {figures}
      {closed && lastSale ? (
        <p
          className="kn-bids__closed"
          role="status"
        >{`Sold for ${formatXlm(lastSale.price)} on ${when(lastSale.soldAt)}. Bidding opens again when its owner relists it.`}</p>
      ) : null}
      <div className="kn-bids__price">
        <TextInput
          type="number"
          inputMode="decimal"
          aria-label="Price"
          className="kn-bids__amount"
          min={0}
          step={0.01}
          placeholder="0.00"
          value={priceText}
          onChange={(event) => setPriceText(event.target.value)}
          onBlur={() => {
            const value = priceOf(priceText);
            if (value !== null) setPriceText(value.toFixed(2));
          }}
        />
        <select aria-label="Unit" className="kn-input kn-bids__unit" value="xlm" onChange={() => undefined}>
          <option value="xlm">XLM</option>
        </select>
        {action ?? (
          <Button kind="primary" loading={bidding} disabled={closed} onClick={() => void placeBid()}>
            Bid
          </Button>
        )}
      </div>
    </div>
  );

  return (
    <section className="kn-bids" aria-label="Buy or sell">
      {/* One tab, the viewer's: Sell for the owner, Buy for everyone else. */}
      <div className="kn-bids__tabs" role="tablist">
        <button type="button" role="tab" id={tabId} aria-selected="true" aria-controls={paneId} className="kn-bids__tab">
          {isOwner ? 'Sell' : 'Buy'}
        </button>
      </div>
      <div role="tabpanel" id={paneId} aria-labelledby={tabId}>
        {pane}
      </div>
      {sale && mustSign ? (
        <div className="kn-bids__sale" role="status">
          <span>{saleOutcome(sale)}</span>
          <Button kind="primary" loading={signing} disabled={!linked} onClick={() => void signSale(sale)}>
            Sign the sale
          </Button>
        </div>
      ) : sale ? (
        <p className="kn-bids__sale" role="status">
          {saleOutcome(sale)}
        </p>
      ) : null}
      <h3 className="kn-bids__title">History</h3>
      {history.length ? (
        <ul className="kn-bids__history" aria-label="Bid history">
          {history.map((row) => (
            <li key={row.key} className="kn-bids__row">
              <time dateTime={row.at}>{when(row.at)}</time>
              <span className={`kn-bids__role kn-bids__role--${row.role.toLowerCase()}`}>{row.role}</span>
              <span className="kn-bids__text">{row.text}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="kn-bids__empty">No bids yet.</p>
      )}
      {wallet.modal}
    </section>
  );
}
