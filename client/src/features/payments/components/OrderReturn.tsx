import { useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { knackApi, useGetPaymentOrderQuery, useSellTagMutation } from '../../../api/generated/endpoints';
import { useAppDispatch, useAppSelector, type AppDispatch } from '../../../lib/storeHooks';
import { usePolledOutcome } from '../../../lib/usePolledOutcome';
import { notify } from '../../../components/notify';
import { selectIsLoggedIn, selectUser } from '../../auth';
import { modalOpened } from '../../../lib/ui';
import { listingPaid } from '../../../lib/contentEvents';
import { PAYMENT_MESSAGES } from '../payments.messages';

/** How often and how long the order is asked while the provider's webhook has not arrived yet. */
export const ORDER_POLL = { everyMs: 1000, times: 15 };

const QUIET = 'the outcome is told by the toasts of the order return';

/** The id of the tag that prices a piece (its sub-tag, or its main tag without one), or null when none does. */
async function pricingTagId(dispatch: AppDispatch, contentId: string): Promise<string | null> {
  const read = <T,>(request: { unwrap: () => Promise<T>; unsubscribe: () => void }) => request.unwrap().finally(() => request.unsubscribe());
  const { content } = await read(dispatch(knackApi.endpoints.getContentById.initiate({ path: { id: contentId }, quiet: QUIET })));
  const { tags } = await read(dispatch(knackApi.endpoints.getAllTags.initiate()));
  const label = (content.subTag || content.tags[0]?.name || '').toLowerCase();
  return tags.find((tag) => tag.label.toLowerCase() === label)?.id ?? null;
}

/**
 * Back from the checkout (`?order={id}` on the return address): asks the server how the order ended — the
 * webhook decides, never the return address — and shows 'Paid successfully' with the paid modal, or
 * 'Payment Failed' (the piece stays not monetized). The parameter is then removed. Back from a checkout the member
 * left (`&cancelled=1`), a still pending order is returned to unsold at once (`tag/sell` with isSell false, the
 * cancelPaid), rather than waiting for the provider to say so when the session expires.
 */
export function OrderReturn() {
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const loggedIn = useAppSelector(selectIsLoggedIn);
  const userId = useAppSelector(selectUser)?.id ?? '';
  const orderId = new URLSearchParams(search).get('order');
  const cancelled = new URLSearchParams(search).get('cancelled') === '1';
  const [sellTag] = useSellTagMutation();
  const cancelSent = useRef(false);
  const cancelPaid = async (contentId: string) => {
    try {
      const tagId = await pricingTagId(dispatch, contentId);
      if (tagId) await sellTag({ body: { tagId, isSell: false }, quiet: QUIET }).unwrap();
    } catch {
      // The order is still asked below; the provider fails it when the session expires.
    }
  };
  const order = useGetPaymentOrderQuery(
    orderId && loggedIn ? { path: { id: orderId }, quiet: 'the outcome is told by the toasts below, a failed read included' } : skipToken,
  );

  const done = () => {
    const rest = new URLSearchParams(search);
    rest.delete('order');
    rest.delete('cancelled');
    const query = rest.toString();
    void navigate({ pathname, search: query ? `?${query}` : '' }, { replace: true });
  };

  // Asked again while the order is pending; each outcome is told, and leaving the address ends the asking.
  usePolledOutcome(order, ORDER_POLL.everyMs, (answer, number) => {
    if ('error' in answer) {
      // The order could not be read (offline, signed out): the webhook still decides; say where to look.
      notify('info', PAYMENT_MESSAGES.stillProcessing);
      done();
      return false;
    }
    const { status, contentId, message } = answer.data;
    if (status === 'paid') {
      notify('success', PAYMENT_MESSAGES.paid);
      dispatch(listingPaid({ contentId, payerId: userId }));
      // The webhook monetized the piece as paying here would have: its reads load again.
      dispatch(knackApi.util.invalidateTags(['Content', 'Knack', 'Settings']));
      dispatch(modalOpened({ name: 'payment', paymentType: 'paid', contentId }));
      done();
      return false;
    }
    if (status !== 'pending') {
      // 'Payment Failed', or the server's own words (e.g. someone else monetized it first: refunded).
      notify('error', status === 'failed' ? PAYMENT_MESSAGES.failed : message);
      done();
      return false;
    }
    if (cancelled && !cancelSent.current) {
      cancelSent.current = true;
      void cancelPaid(contentId);
    }
    if (number < ORDER_POLL.times) return true;
    notify('info', PAYMENT_MESSAGES.stillProcessing);
    done();
    return false;
  });

  return null;
}
