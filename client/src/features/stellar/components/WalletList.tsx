import { useGetWalletLinkQuery } from '../../../api/generated/endpoints';
import { Button } from '../../../components/button';
import { WALLETS, type ConnectableWallet } from '../wallets';
import { UnlinkWallet } from './UnlinkWallet';
import './stellar.css';

/**
 * The Stellar wallets a member can link, one row each: Freighter and External Wallet connect (the wallet modal),
 * Ledger and Trezor say they are not available; the linked one shows its short address and Unlink. The profile
 * summary and the settings show the same list.
 */
/** The props of the wallet list: the id of its heading, and what choosing a wallet does. */
export interface WalletListProps {
  labelledBy: string;
  /** Opens the wallet modal for the wallet chosen (useWalletModal's `connect`). */
  onConnect: (wallet: ConnectableWallet) => void;
}

export function WalletList({ labelledBy, onConnect }: WalletListProps) {
  const { data: link } = useGetWalletLinkQuery();

  return (
    <ul className="kn-wallets" aria-labelledby={labelledBy}>
      {WALLETS.map((wallet) => {
        const linked = link?.linked && link.wallet === wallet.kind;
        return (
          <li key={wallet.kind} className={linked ? 'kn-wallets__row is-linked' : 'kn-wallets__row'}>
            <div className="kn-wallets__line">
              <span className="kn-wallets__name">{wallet.name}</span>
              {linked ? (
                <>
                  <span className="kn-wallets__status kn-wallets__status--linked" title={link.address}>
                    Linked · {link.addressShort}
                  </span>
                  <UnlinkWallet link={link} />
                </>
              ) : wallet.connectable ? (
                <Button
                  size="small"
                  className="kn-wallets__connect"
                  aria-label={`Connect ${wallet.name}`}
                  onClick={() => onConnect(wallet.kind as ConnectableWallet)}
                >
                  Connect
                </Button>
              ) : (
                <span className="kn-wallets__status">Not available</span>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
