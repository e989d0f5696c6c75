import { WalletSettings } from '../../stellar';

/** The Stellar wallet group: the linked wallet and Unlink, or the wallets to connect (the profile summary's list). */
export function StellarWalletSettings() {
  return (
    <section id="stellar-wallet" className="kn-settings__group" aria-labelledby="kn-stellar-wallet-title">
      <h2 id="kn-stellar-wallet-title" className="kn-settings__title">
        Stellar wallet
      </h2>
      <WalletSettings labelledBy="kn-stellar-wallet-title" />
    </section>
  );
}
