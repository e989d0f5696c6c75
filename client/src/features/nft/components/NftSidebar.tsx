import { Link } from 'react-router-dom';
import { useGetWalletLinkQuery } from '../../../api/generated/endpoints';
import { PATHS } from '../../../lib/constants';
import { MINIMUM_BALANCE_XLM } from '../nft.rules';
import { NftComparison, NftWhat } from './NftComparison';

/** Where a member links a wallet: the settings' wallet group. */
export const LINK_WALLET_PATH = `${PATHS.settings}#stellar-wallet`;

/** The member's linked wallet, or the way to link one. */
function WalletLine() {
  const link = useGetWalletLinkQuery();
  if (link.isLoading) return <p className="kn-nft-side__wallet">Reading your wallet…</p>;
  if (link.data?.linked) {
    return (
      <p className="kn-nft-side__wallet">
        Your wallet: <strong title={link.data.address}>{link.data.addressShort}</strong> ({link.data.network}). It needs at least {MINIMUM_BALANCE_XLM} XLM.
      </p>
    );
  }
  return (
    <p className="kn-nft-side__wallet">
      No Stellar wallet linked yet. <Link to={LINK_WALLET_PATH}>Link one in Settings</Link> (or from your profile summary’s wallet list) before the token step.
    </p>
  );
}

/** The NFT sidebar beside the form: what NFT mode is, the wallet it mints to, and the comparison. */
export function NftSidebar() {
  return (
    <aside className="kn-nft-side" aria-label="About NFT mode">
      <h2 className="kn-nft-side__title">About NFT mode</h2>
      <NftWhat />
      <WalletLine />
      <NftComparison headingLevel={3} />
    </aside>
  );
}
