import { useId, useState, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import CopyOutlined from '@ant-design/icons/es/icons/CopyOutlined';
import { useCreateWalletChallengeMutation, useLinkWalletMutation } from '../../../api/generated/endpoints';
import type { CreateWalletChallengeResult } from '../../../api/generated/operations';
import type { CachedError } from '../../../api/cache';
import { ResponsiveModal } from '../../../components/modal';
import { copyText } from '../../../components/copyText';
import { connectFreighter, FREIGHTER_INSTALL_URL, FREIGHTER_MESSAGES, signWithFreighter, WalletError } from '../freighter';
import { networkOfPassphrase, shortAddress, walletName, type ConnectableWallet, type WalletLink } from '../wallets';
import './stellar.css';

const QUIET = 'the wallet modal shows the refusal under its step';

/** Said when something other than the wallet or the server failed (a bug, the connection): the cause is logged. */
export const UNEXPECTED = 'Your wallet could not be linked. Please try again.';

/** A signed transaction as the server takes it: base64, nothing else. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
export const NOT_A_TRANSACTION = 'This is not a signed transaction. Paste the whole signed transaction (XDR) your wallet gave you.';

/** The sentence a member sees for a failed step: the wallet's, or the server's own message. */
function messageOf(error: unknown): string {
  if (error instanceof WalletError) return error.message;
  // A refusal of the server (the cache's error: its status and plain message).
  const refusal = error as Partial<CachedError> | null;
  if (typeof refusal?.status === 'number' && typeof refusal.message === 'string') return refusal.message;
  console.error('Wallet link failed', error);
  return UNEXPECTED;
}

function Linked({ link, onDone }: { link: WalletLink; onDone: () => void }) {
  return (
    <div className="kn-wallet-modal__linked" role="status">
      <p>
        <strong>{link.wallet ? walletName(link.wallet) : 'Your wallet'} is linked:</strong> <span className="kn-wallet-modal__short">{link.addressShort}</span>
      </p>
      <p className="kn-wallet-modal__address">{link.address}</p>
      <Button type="primary" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

function Problem({ children }: { children: ReactNode }) {
  return (
    <div className="kn-wallet-modal__error" role="alert">
      {children}
    </div>
  );
}

type FreighterStep = 'start' | 'connecting' | 'signing' | 'linking';
const FREIGHTER_PROGRESS: Record<FreighterStep, string> = {
  start: '',
  connecting: 'Allow Knack in Freighter to share your address…',
  signing: 'Sign the challenge in Freighter…',
  linking: 'Linking your wallet…',
};

/** Freighter: its address, a challenge for it, Freighter's signature, the link. */
function FreighterFlow({ onDone }: { onDone: () => void }) {
  const [step, setStep] = useState<FreighterStep>('start');
  const [error, setError] = useState('');
  const [link, setLink] = useState<WalletLink | null>(null);
  const [createChallenge] = useCreateWalletChallengeMutation();
  const [linkWallet] = useLinkWalletMutation();

  const run = async () => {
    setError('');
    try {
      setStep('connecting');
      const address = await connectFreighter();
      const challenge = await createChallenge({ body: { address, wallet: 'freighter' }, quiet: QUIET }).unwrap();
      setStep('signing');
      const signed = await signWithFreighter(challenge.transaction, challenge.networkPassphrase, address);
      setStep('linking');
      setLink(await linkWallet({ body: { transaction: signed }, quiet: QUIET }).unwrap());
    } catch (failure) {
      setError(messageOf(failure));
    }
    setStep('start');
  };

  if (link) return <Linked link={link} onDone={onDone} />;
  const busy = step !== 'start';
  return (
    <div className="kn-wallet-modal__flow">
      <p>
        Freighter asks you to share your address with Knack, then to sign a challenge that proves the address is yours. Nothing is sent to the Stellar network
        and nothing is paid.
      </p>
      <p className="kn-wallet-modal__progress" aria-live="polite">
        {FREIGHTER_PROGRESS[step]}
      </p>
      {error ? (
        <Problem>
          <p>{error}</p>
          {error === FREIGHTER_MESSAGES.notInstalled ? (
            <p>
              <a href={FREIGHTER_INSTALL_URL} target="_blank" rel="noopener noreferrer">
                Get Freighter
              </a>{' '}
              for your browser, then try again.
            </p>
          ) : null}
        </Problem>
      ) : null}
      <Button type="primary" loading={busy} onClick={() => void run()}>
        {error ? 'Try again' : 'Connect Freighter'}
      </Button>
    </div>
  );
}

/** Any other wallet: the address, its challenge to copy and sign elsewhere, the signed challenge pasted back. */
function ExternalFlow({ onDone }: { onDone: () => void }) {
  const [address, setAddress] = useState('');
  const [challenge, setChallenge] = useState<(CreateWalletChallengeResult & { address: string }) | null>(null);
  const [signed, setSigned] = useState('');
  const [error, setError] = useState('');
  const [link, setLink] = useState<WalletLink | null>(null);
  const [createChallenge, asking] = useCreateWalletChallengeMutation();
  const [linkWallet, linking] = useLinkWalletMutation();
  const ids = { address: useId(), challenge: useId(), signed: useId(), hint: useId() };

  const ask = async () => {
    setError('');
    const asked = address.trim();
    try {
      const issued = await createChallenge({ body: { address: asked, wallet: 'external' }, quiet: QUIET }).unwrap();
      setChallenge({ ...issued, address: asked });
      setSigned('');
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const send = async () => {
    setError('');
    const transaction = signed.replace(/\s+/g, '');
    if (!BASE64.test(transaction)) {
      setError(NOT_A_TRANSACTION);
      return;
    }
    try {
      setLink(await linkWallet({ body: { transaction }, quiet: QUIET }).unwrap());
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  if (link) return <Linked link={link} onDone={onDone} />;
  const problem = error ? (
    <Problem>
      <p>{error}</p>
    </Problem>
  ) : null;

  if (!challenge) {
    return (
      <form
        className="kn-wallet-modal__flow"
        onSubmit={(event) => {
          event.preventDefault();
          void ask();
        }}
      >
        <p>Link any Stellar wallet: Knack gives you a challenge to sign with the wallet&apos;s key, and you paste the signed challenge back.</p>
        <label className="kn-wallet-modal__field" htmlFor={ids.address}>
          <span>Stellar address</span>
          <Input
            id={ids.address}
            value={address}
            onChange={(event) => setAddress(event.target.value)}
            placeholder="G…"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={ids.hint}
          />
        </label>
        <p id={ids.hint} className="kn-wallet-modal__hint">
          The public address of your account: G and 55 more letters and digits.
        </p>
        {problem}
        <Button type="primary" htmlType="submit" loading={asking.isLoading} disabled={!address.trim()}>
          Get the challenge
        </Button>
      </form>
    );
  }

  const network = networkOfPassphrase(challenge.networkPassphrase);
  const until = new Date(challenge.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return (
    <form
      className="kn-wallet-modal__flow"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <p>
        Sign this challenge with the key of <strong title={challenge.address}>{shortAddress(challenge.address)}</strong> for {network}, in your wallet or in the{' '}
        <a href="https://lab.stellar.org/" target="_blank" rel="noopener noreferrer">
          Stellar Laboratory
        </a>
        . Nothing is sent to the network. It can be used until {until}.
      </p>
      <div className="kn-wallet-modal__field">
        <label htmlFor={ids.challenge}>Challenge to sign</label>
        <Input.TextArea
          id={ids.challenge}
          value={challenge.transaction}
          readOnly
          autoSize={{ minRows: 3, maxRows: 5 }}
          onFocus={(event) => event.currentTarget.select()}
          className="kn-wallet-modal__xdr"
        />
        <div>
          <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copyText(challenge.transaction, 'Challenge')}>
            Copy
          </Button>
        </div>
      </div>
      <div className="kn-wallet-modal__field">
        <label htmlFor={ids.signed}>Signed challenge</label>
        <Input.TextArea
          id={ids.signed}
          value={signed}
          onChange={(event) => setSigned(event.target.value)}
          autoSize={{ minRows: 3, maxRows: 5 }}
          placeholder="Paste the signed transaction (XDR) here"
          spellCheck={false}
          className="kn-wallet-modal__xdr"
        />
      </div>
      {problem}
      <div className="kn-wallet-modal__actions">
        <Button type="primary" htmlType="submit" loading={linking.isLoading} disabled={!signed.trim()}>
          Link wallet
        </Button>
        <Button
          onClick={() => {
            setChallenge(null);
            setError('');
          }}
        >
          Use another address
        </Button>
      </div>
    </form>
  );
}

/**
 * The wallet modal: links the member's Stellar wallet by a challenge it signs (the server checks the signature,
 * so nobody links an address they cannot sign for), for Freighter or for any other wallet (External Wallet). Opened
 * from the wallet list of the profile summary and of the settings (useWalletModal); it starts afresh at each opening.
 */
export default function WalletConnectModal({ wallet, onClose }: { wallet: ConnectableWallet; onClose: () => void }) {
  return (
    <ResponsiveModal
      open
      onCancel={onClose}
      footer={null}
      centered="off-phones"
      width={540}
      rootClassName="kn-wallet-modal"
      title={wallet === 'freighter' ? 'Connect Freighter' : 'Link an External Wallet'}
    >
      {wallet === 'freighter' ? <FreighterFlow onDone={onClose} /> : <ExternalFlow onDone={onClose} />}
    </ResponsiveModal>
  );
}
