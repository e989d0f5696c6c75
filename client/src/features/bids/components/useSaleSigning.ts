import { useApproveBidMutation } from '../../../api/generated/endpoints';
import type { ApproveBidResult } from '../../../api/generated/operations';
import { knackApi } from '../../../api/generated/endpoints';
import { notify } from '../../../components/notify';
import { useAppDispatch } from '../../../lib/storeHooks';
import { signWithFreighter, WalletError } from '../../stellar';
import type { CachedError } from '../../../api/cache';

export type BidSale = NonNullable<ApproveBidResult['sale']>;
type BidRef = { bidId: string } | { token: string };

/** What a sale's state means to the member who just acted on it. */
export function saleOutcome(sale: BidSale | undefined): string {
  if (!sale) return 'The sale is no longer pending: bidding is open again.';
  if (sale.status === 'settled') return 'The sale is settled on the Stellar network: the piece has its new owner.';
  if (sale.status === 'submitted') return 'The sale was sent to the Stellar network: the piece changes hands once it is in a ledger.';
  if (sale.status === 'released') return 'The sale is no longer pending: bidding is open again.';
  const waiting = sale.signers.filter((signer) => !signer.signed).map((signer) => signer.role);
  return waiting.length ? `The sale is pending: waiting for the ${waiting.join(' and the ')} to sign it with their wallet.` : 'The sale is pending.';
}

/**
 * Signing a pending sale with the member's own wallet (Freighter): the sale's transaction is signed for its network
 * by the linked address, and handed to bid/approve; Knack submits it once every needed signature is there. The
 * server's refusal shows as its message; a wallet that did not sign, as the wallet's sentence.
 */
export function useSaleSigning() {
  const dispatch = useAppDispatch();
  const [approve, { isLoading }] = useApproveBidMutation();

  async function sign(ref: BidRef, sale: BidSale, address: string): Promise<BidSale | undefined | null> {
    let signed: string;
    try {
      signed = await signWithFreighter(sale.transaction, sale.networkPassphrase, address);
    } catch (error) {
      notify('error', error instanceof WalletError ? error.message : 'Your wallet did not sign.');
      return null;
    }
    try {
      const answer = await approve({
        body: { ...ref, stellarAddress: address, succeed: true, transaction: signed },
        quiet: 'the panel tells the outcome as a toast',
      }).unwrap();
      // Settled: the piece has a new owner, which the detail and the grids show.
      if (answer.sale?.status === 'settled' || answer.bid.sold) dispatch(knackApi.util.invalidateTags(['Content']));
      notify('success', saleOutcome(answer.sale));
      return answer.sale;
    } catch (error) {
      notify('error', (error as CachedError).message);
      return null;
    }
  }

  return { sign, signing: isLoading };
}
