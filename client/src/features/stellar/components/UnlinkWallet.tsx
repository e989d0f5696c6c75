import { useId, useState } from 'react';
import { useUnlinkWalletMutation } from '../../../api/generated/endpoints';
import { Button } from '../../../components/button';
import { walletName, type WalletLink } from '../wallets';

/**
 * Unlink, asked first: the button turns into the question and its answers. The link is read again by its tag once
 * the server has unlinked it; a failure is shown by the one error toast.
 */
export function UnlinkWallet({ link }: { link: WalletLink }) {
  const [asking, setAsking] = useState(false);
  const [unlink, { isLoading }] = useUnlinkWalletMutation();
  const questionId = useId();
  if (!link.linked || !link.wallet) return null;
  const name = walletName(link.wallet);

  if (!asking) {
    return (
      <Button size="small" className="kn-wallets__unlink" aria-label={`Unlink ${name}`} onClick={() => setAsking(true)}>
        Unlink
      </Button>
    );
  }
  const confirm = async () => {
    try {
      await unlink().unwrap();
    } catch {
      // The error toast has said why; the question stays for another try.
    }
  };
  return (
    <div className="kn-wallets__confirm" role="group" aria-labelledby={questionId}>
      <p id={questionId}>
        Unlink {name} ({link.addressShort}) from your Knack account? You can link it again at any time.
      </p>
      <div className="kn-wallets__confirm-actions">
        <Button size="small" kind="primary" loading={isLoading} onClick={() => void confirm()}>
          Yes, unlink
        </Button>
        <Button size="small" onClick={() => setAsking(false)} disabled={isLoading}>
          Keep it
        </Button>
      </div>
    </div>
  );
}
