import Skeleton from 'antd/es/skeleton';
import Button from 'antd/es/button';
import CopyOutlined from '@ant-design/icons/es/icons/CopyOutlined';
import { useGetWalletLinkQuery } from '../../../api/generated/endpoints';
import { copyText } from '../../../components/copyText';
import { networkName, walletName } from '../wallets';
import { UnlinkWallet } from './UnlinkWallet';
import { useWalletModal } from './useWalletModal';
import { WalletList } from './WalletList';
import './stellar.css';

/**
 * The settings' Stellar wallet group, under its heading (`labelledBy`): the linked wallet (which one, its network,
 * its address in full with Copy, and short as the app shows it) with Unlink, or the wallet list to connect one (the
 * profile summary's list).
 */
export function WalletSettings({ labelledBy }: { labelledBy: string }) {
  const { data: link } = useGetWalletLinkQuery();
  const { connect, modal } = useWalletModal();
  if (!link) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (!link.linked || !link.wallet || !link.network || !link.address) {
    return (
      <>
        <p className="kn-wallet-settings__hint">Link the Stellar wallet you use on Knack. Its signature proves the address is yours; nothing is paid.</p>
        <WalletList labelledBy={labelledBy} onConnect={connect} />
        {modal}
      </>
    );
  }
  const address = link.address;
  return (
    <div className="kn-wallet-settings">
      {modal}
      <dl className="kn-wallet-settings__facts">
        <div>
          <dt>Wallet</dt>
          <dd>{walletName(link.wallet)}</dd>
        </div>
        <div>
          <dt>Network</dt>
          <dd>{networkName(link.network)}</dd>
        </div>
        <div>
          <dt>Address</dt>
          <dd>
            <span>{link.addressShort}</span>
            <code className="kn-wallet-settings__address">{address}</code>
            <Button size="small" icon={<CopyOutlined aria-hidden />} onClick={() => void copyText(address, 'Address')}>
              Copy address
            </Button>
          </dd>
        </div>
      </dl>
      <UnlinkWallet link={link} />
    </div>
  );
}
