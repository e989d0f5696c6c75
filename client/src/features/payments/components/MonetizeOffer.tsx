import { useState } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Skeleton from 'antd/es/skeleton';
import type { CachedError } from '../../../api/cache';
import {
  useCheckDiscountCodeMutation,
  useGetContentByIdQuery,
  useGetListingForecastQuery,
  useGetListingQuoteQuery,
  usePayForContentMutation,
  useRedeemDiscountCodeMutation,
} from '../../../api/generated/endpoints';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { notify } from '../../../components/notify';
import { displayUsername } from '../../../lib/userNames';
import { selectUser } from '../../auth';
import { formatKnackPricePer } from '../../../lib/formatKnackPrice';
import { modalOpened } from '../../../lib/ui';
import { listingPaid } from '../../../lib/contentEvents';
import { PAYMENT_MESSAGES } from '../payments.messages';
import { goToCheckout } from '../checkout';
import { formatUsd } from '../../../components/format';

const CREDIT_LABEL = { 'standard-credit': 'standard credit', 'premium-credit': 'premium credit' } as const;

/**
 * The payment modal of type dollar: pay a piece's listing fee once, so that every play or
 * view by another member earns knack (90% owner, 10% the supporter who paid). A plan credit of the piece's tier
 * is offered first, then the checkout; a discount code can cover the fee instead.
 */
export function MonetizeOffer({ contentId, onClose }: { contentId: string; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const piece = useGetContentByIdQuery({ path: { id: contentId } });
  // When the fee would pay back: a help to decide, so a failure leaves it out rather than toasting.
  const forecast = useGetListingForecastQuery({ path: { id: contentId }, quiet: 'the forecast is left out when it cannot be had' });
  const quote = useGetListingQuoteQuery({ path: { id: contentId } });
  const [payForContent, pay] = usePayForContentMutation();
  const [checkDiscountCode, check] = useCheckDiscountCodeMutation();
  const [redeemDiscountCode, redeem] = useRedeemDiscountCodeMutation();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const busy = pay.isLoading || check.isLoading || redeem.isLoading;

  const paid = () => {
    notify('success', PAYMENT_MESSAGES.paid);
    dispatch(listingPaid({ contentId, payerId: user?.id ?? '' }));
    dispatch(modalOpened({ name: 'payment', paymentType: 'paid', contentId }));
  };

  const payFee = async (useCredit: boolean) => {
    if (!user) return;
    try {
      const answer = await payForContent({ body: { userId: user.id, contentId, useCredit } }).unwrap();
      if (answer.status === 'paid') paid();
      else if (answer.checkoutUrl) goToCheckout(answer.checkoutUrl);
    } catch {
      // The HTTP client has shown the server's message.
    }
  };

  const applyCode = async () => {
    if (!user) return;
    const trimmed = code.trim();
    if (!trimmed) {
      setCodeError(PAYMENT_MESSAGES.emptyCode);
      return;
    }
    setCodeError(null);
    try {
      const quiet = 'the discount code field shows the refusal under it';
      await checkDiscountCode({ body: { code: trimmed }, quiet }).unwrap();
      await redeemDiscountCode({ body: { userId: user.id, contentId, code: trimmed }, quiet }).unwrap();
      paid();
    } catch (error) {
      setCodeError((error as CachedError).message || PAYMENT_MESSAGES.emptyCode);
    }
  };

  if (!piece.data || !quote.data) {
    return piece.error || quote.error ? (
      <p className="kn-payment__note">{((piece.error ?? quote.error) as CachedError).message}</p>
    ) : (
      <Skeleton active paragraph={{ rows: 3 }} />
    );
  }
  const content = piece.data.content;
  const offer = quote.data;
  const own = content.ownerId === user?.id;
  const artist = displayUsername(content.ownerUsername);
  const knack = formatKnackPricePer(content.knackRate, content.type);

  if (offer.isPaidOut) {
    return (
      <div className="kn-payment">
        <p className="kn-payment__lead">“{content.title}” is monetized already: every play or view by another member earns knack.</p>
        <div className="kn-payment__actions">
          <Button type="primary" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    );
  }

  const fee = formatUsd(offer.fee);
  return (
    <div className="kn-payment">
      <p className="kn-payment__lead">
        {own ? (
          <>
            Pay the listing fee of “{content.title}” once, and every play or view by another member earns <strong>{knack}</strong> for you.
          </>
        ) : (
          <>
            Support {artist}: pay the listing fee of “{content.title}” once, and every play or view by another member earns <strong>{knack}</strong>: 90% to{' '}
            {artist}, 10% to you.
          </>
        )}
      </p>
      <dl className="kn-payment__fee">
        <dt>Listing fee ({offer.tier})</dt>
        <dd data-testid="listing-fee">{fee}</dd>
      </dl>
      {forecast.data ? (
        <p className="kn-payment__forecast" data-testid="listing-forecast">
          {forecast.data.message}
        </p>
      ) : null}
      <div className="kn-payment__actions">
        {offer.credit ? (
          <Button type="primary" size="large" loading={pay.isLoading} disabled={busy} onClick={() => void payFee(true)}>
            Use a {CREDIT_LABEL[offer.credit]} ({offer.creditsLeft} left)
          </Button>
        ) : null}
        <Button
          type={offer.credit ? 'default' : 'primary'}
          size="large"
          loading={pay.isLoading && !offer.credit}
          disabled={busy}
          onClick={() => void payFee(false)}
        >
          Pay {fee}
        </Button>
      </div>
      <form
        className="kn-payment__code"
        onSubmit={(event) => {
          event.preventDefault();
          void applyCode();
        }}
      >
        <label htmlFor="kn-discount-code">Discount code</label>
        <div className="kn-payment__code-row">
          <Input
            id="kn-discount-code"
            value={code}
            disabled={busy}
            status={codeError ? 'error' : undefined}
            placeholder="Enter a code"
            autoComplete="off"
            onChange={(event) => setCode(event.target.value)}
          />
          <Button htmlType="submit" loading={check.isLoading || redeem.isLoading} disabled={busy}>
            Apply
          </Button>
        </div>
        {codeError ? (
          <p className="kn-payment__error" role="alert">
            {codeError}
          </p>
        ) : null}
      </form>
      <button type="button" className="kn-payment__later" onClick={onClose} disabled={busy}>
        Not now
      </button>
    </div>
  );
}
