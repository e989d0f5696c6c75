import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { getPaymentOrder } from '../../../api/generated/operations';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { notify } from '../../../components/notify';
import { selectIsLoggedIn, selectUser } from '../../auth';
import { modalOpened } from '../../../lib/ui';
import { listingPaid } from '../../../lib/contentEvents';
import { PAYMENT_MESSAGES } from '../payments.messages';

/** How often and how long the order is asked while the provider's webhook has not arrived yet. */
export const ORDER_POLL = { everyMs: 1000, times: 15 };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  useEffect(() => {
    if (!orderId || !loggedIn) return undefined;
    let stopped = false;
    const rest = new URLSearchParams(search);
    rest.delete('order');
    const query = rest.toString();
    void (async () => {
      for (let attempt = 0; attempt < ORDER_POLL.times && !stopped; attempt += 1) {
        const order = await getPaymentOrder({ path: { id: orderId } }, { quiet: true }).catch(() => null);
        if (stopped) return;
        if (!order) {
          // The order could not be read (offline, signed out): the webhook still decides; say where to look.
          notify('info', PAYMENT_MESSAGES.stillProcessing);
          break;
        }
        if (order.status === 'paid') {
          notify('success', PAYMENT_MESSAGES.paid);
          dispatch(listingPaid({ contentId: order.contentId, payerId: userId }));
          dispatch(modalOpened({ name: 'payment', paymentType: 'paid', contentId: order.contentId }));
          break;
        }
        if (order.status !== 'pending') {
          // 'Payment Failed', or the server's own words (e.g. someone else monetized it first: refunded).
          notify('error', order.status === 'failed' ? PAYMENT_MESSAGES.failed : order.message);
          break;
        }
        if (attempt === ORDER_POLL.times - 1) notify('info', PAYMENT_MESSAGES.stillProcessing);
        else await wait(ORDER_POLL.everyMs);
      }
      if (!stopped) void navigate({ pathname, search: query ? `?${query}` : '' }, { replace: true });
    })();
    return () => {
      stopped = true;
    };
    // Runs once per returned order.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderId, loggedIn]);

  return null;
}
