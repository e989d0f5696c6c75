import { useLocation, useNavigate } from 'react-router-dom';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { knackApi, useGetPaymentOrderQuery } from '../../../api/generated/endpoints';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { usePolledOutcome } from '../../../lib/usePolledOutcome';
import { notify } from '../../../components/notify';
import { selectIsLoggedIn, selectUser } from '../../auth';
import { modalOpened } from '../../../lib/ui';
import { listingPaid } from '../../../lib/contentEvents';
import { PAYMENT_MESSAGES } from '../payments.messages';

/** How often and how long the order is asked while the provider's webhook has not arrived yet. */
export const ORDER_POLL = { everyMs: 1000, times: 15 };

/**
 * Back from the checkout (`?order={id}` on the return address): asks the server how the order ended — the
 * webhook decides, never the return address — and shows 'Paid successfully' with the paid modal, or
 * 'Payment Failed' (the piece stays not monetized). The parameter is then removed.
 */
export function OrderReturn() {
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const loggedIn = useAppSelector(selectIsLoggedIn);
  const userId = useAppSelector(selectUser)?.id ?? '';
  const orderId = new URLSearchParams(search).get('order');
  const order = useGetPaymentOrderQuery(
    orderId && loggedIn ? { path: { id: orderId }, quiet: 'the outcome is told by the toasts below, a failed read included' } : skipToken,
  );

  const done = () => {
    const rest = new URLSearchParams(search);
    rest.delete('order');
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
    if (number < ORDER_POLL.times) return true;
    notify('info', PAYMENT_MESSAGES.stillProcessing);
    done();
    return false;
  });

  return null;
}
