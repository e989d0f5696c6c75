import { lazy, Suspense, useCallback, useState } from 'react';
import { withAntd } from '../../../components/antd/withAntd';
import type { ConnectableWallet } from '../wallets';

// The modal's code (and antd with it) loads the first time a member chooses a wallet.
const WalletConnectModal = lazy(withAntd(() => import('./WalletConnectModal')));

/**
 * The wallet modal of a screen: `connect(wallet)` opens it for Freighter or an External Wallet, and `modal` is the
 * element to render (nothing while it is closed). The screen that owns it keeps it open while what it shows
 * changes under it (the list becoming the linked wallet).
 */
export function useWalletModal() {
  const [wallet, setWallet] = useState<ConnectableWallet | null>(null);
  const close = useCallback(() => setWallet(null), []);
  const modal = wallet ? (
    <Suspense fallback={null}>
      <WalletConnectModal wallet={wallet} onClose={close} />
    </Suspense>
  ) : null;
  return { connect: setWallet, modal };
}
