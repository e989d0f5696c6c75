import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import Spin from 'antd/es/spin';
import type { CachedError } from '../../../api/cache';
import { knackApi, useApproveBidMutation, useCancelBidMutation, useGetWalletLinkQuery } from '../../../api/generated/endpoints';
import { notify } from '../../../components/notify';
import { PATHS } from '../../../lib/constants';
import { useAppDispatch } from '../../../lib/storeHooks';
import { saleOutcome, useSaleSigning } from '../components/useSaleSigning';
import '../components/bids.css';

/**
 * A bid's link from the bidder's inbox, then home. `/cancel?token=`: the pending sale of the bid the token names is
 * cancelled (bidding opens again). `/approve?token=`: the server answers the sale to sign; the bidder's own wallet
 * signs it (Freighter, with the linked address) and Knack submits it once every signature is there. A wallet that
 * does not sign releases the sale, as the server's contract has it (approve with `succeed: false`).
 */
export function BidLinkPage({ token }: { token: string }) {
  const cancelling = useLocation().pathname === '/cancel';
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const link = useGetWalletLinkQuery();
  const [approve] = useApproveBidMutation();
  const [cancel] = useCancelBidMutation();
  const { sign } = useSaleSigning();
  const started = useRef(false);
  const ready = !link.isLoading;

  useEffect(() => {
    if (!ready || started.current) return;
    started.current = true;
    const quiet = 'the page tells the outcome as a toast, then goes home';
    const act = async () => {
      if (cancelling) {
        await cancel({ body: { token, succeed: true }, quiet }).unwrap();
        notify('success', 'The sale is cancelled: bidding is open again.');
        return;
      }
      const { sale } = await approve({ body: { token, succeed: true }, quiet }).unwrap();
      const buyer = sale?.signers.find((signer) => signer.role === 'buyer');
      const address = link.data?.linked ? link.data.address : null;
      if (!sale || sale.status !== 'pending' || !buyer || buyer.signed) {
        notify('success', saleOutcome(sale));
        return;
      }
      if (!address) {
        notify('error', 'Link your Stellar wallet first: the sale is signed with it.');
        return;
      }
      const signed = await sign({ token }, sale, address);
      // The wallet did not sign: the sale is released, and bidding opens again.
      if (signed === null) await approve({ body: { token, succeed: false }, quiet }).unwrap();
    };
    act()
      .catch((error: unknown) => notify('success', (error as CachedError).message))
      .finally(() => {
        dispatch(knackApi.util.invalidateTags(['Bid']));
        void navigate(PATHS.home, { replace: true });
      });
  }, [ready, cancelling, token, link.data, approve, cancel, sign, dispatch, navigate]);

  return (
    <div className="kn-bid-link" role="status">
      <Spin />
      <p>{cancelling ? 'Cancelling the sale…' : 'Opening the sale to sign it with your wallet…'}</p>
    </div>
  );
}
