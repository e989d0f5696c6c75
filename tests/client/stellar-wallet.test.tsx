/**
 * Linking a Stellar wallet, on the client: the wallet list of the profile summary and of the settings, and the wallet
 * modal. Freighter is the Freighter stand-in (tests/helpers/freighter-standin.ts) answering freighter-api's real
 * window messages in jsdom and signing with a test keypair; the server's calls are the mocked generated operations,
 * whose challenge is a real SEP-10 challenge made with the Stellar SDK.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Keypair, Networks, TransactionBuilder, WebAuth } from '@stellar/stellar-sdk';
import {
  createWalletChallenge,
  getCountries,
  getProjectsOfUser,
  getRegions,
  getWalletLink,
  getWalletSummary,
  linkWallet,
  unlinkWallet,
} from '../../client/src/api/generated/operations';
import type { GetWalletLinkResult } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { QUIET_CALL } from './call-options';
import { renderSignedIn } from './upload-fixtures';
import { jane, renderAsMember, walletSummary } from './wallet-fixtures';
import { createFreighterWallet, freighterStandInScript, FREIGHTER_STANDIN_BINDING, type FreighterWallet } from '../helpers/freighter-standin';

jest.mock('../../client/src/api/generated/operations');

const SERVER = Keypair.random();
const MEMBER = Keypair.random();
const short = (address: string) => `${address.slice(0, 4)}…${address.slice(-4)}`;
const linkOf = (address: string, wallet: NonNullable<GetWalletLinkResult['wallet']>): GetWalletLinkResult => ({
  linked: true,
  wallet,
  network: 'testnet',
  address,
  addressShort: short(address),
  linkedAt: '2026-03-01T10:00:00.000Z',
});

/** A challenge for `address` as the server makes it: signed by the server's key, for Testnet, 300 seconds. */
function challengeFor(address: string) {
  const transaction = WebAuth.buildChallengeTx(SERVER, address, 'localhost', 300, Networks.TESTNET, 'localhost');
  return { transaction, networkPassphrase: Networks.TESTNET, expiresAt: new Date(Date.now() + 300_000).toISOString() };
}

/** The keys that signed a transaction, among `keys`. */
const signersOf = (xdr: string, keys: Keypair[]) =>
  keys.filter((key) =>
    TransactionBuilder.fromXDR(xdr, Networks.TESTNET).signatures.some((signature) =>
      key.verify(TransactionBuilder.fromXDR(xdr, Networks.TESTNET).hash(), signature.signature()),
    ),
  );

// jsdom's postMessage leaves the event's source empty; a browser names the window that posted, and both Freighter and
// freighter-api only listen to messages from their own window.
beforeAll(() => {
  window.postMessage = (data: unknown) => {
    setTimeout(() => window.dispatchEvent(new MessageEvent('message', { data, source: window, origin: window.location.origin })), 0);
  };
  new Function(freighterStandInScript())();
});

let freighter: FreighterWallet | null;
/** Freighter in this browser, with the member's keypair. */
function installFreighter() {
  freighter = createFreighterWallet({ secret: MEMBER.secret() });
  Object.assign(window, { [FREIGHTER_STANDIN_BINDING]: (request: never) => freighter!.answer(request) });
  return freighter;
}

let link: GetWalletLinkResult;
beforeEach(() => {
  freighter = null;
  delete (window as unknown as Record<string, unknown>)[FREIGHTER_STANDIN_BINDING];
  link = { linked: false };
  jest
    .mocked(getWalletLink)
    .mockReset()
    .mockImplementation(async () => link);
  jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ uploads: 0, collections: 0, totalValue: 0, balance: 0 }));
  jest.mocked(getProjectsOfUser).mockResolvedValue({ projects: [] });
  jest.mocked(getCountries).mockResolvedValue({ countries: [] });
  jest.mocked(getRegions).mockResolvedValue({ regions: [] });
  jest
    .mocked(createWalletChallenge)
    .mockReset()
    .mockImplementation(async ({ body }) => challengeFor(body.address));
  jest
    .mocked(linkWallet)
    .mockReset()
    .mockImplementation(async ({ body }) => {
      const tx = TransactionBuilder.fromXDR(body.transaction, Networks.TESTNET);
      const address = 'operations' in tx ? (tx.operations[0]!.source as string) : '';
      link = linkOf(address, jest.mocked(createWalletChallenge).mock.calls.at(-1)![0].body.wallet);
      return link;
    });
  jest
    .mocked(unlinkWallet)
    .mockReset()
    .mockImplementation(async () => {
      link = { linked: false };
      return link;
    });
});

afterEach(() => jest.restoreAllMocks());

const openPanel = async () => {
  fireEvent.click(await screen.findByRole('button', { name: 'Profile summary' }));
  return within(await screen.findByRole('dialog', { name: 'Profile summary' }));
};
/**
 * The wallet modal titled `title`. antd gives every dialog the same aria-labelledby id in jsdom, which another part
 * of the settings page also has: found by the modal's class and its title instead.
 */
async function walletModal(title: string) {
  const dialog = await waitFor(() => {
    const found = document.querySelector<HTMLElement>('.kn-wallet-modal [role="dialog"]');
    if (found?.querySelector('.ant-modal-title')?.textContent !== title) throw new Error(`no wallet modal ${title}`);
    return found;
  });
  return within(dialog);
}
const rowsOf = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((row) => row.textContent);

describe('the wallet list of the profile summary', () => {
  it('when Jane has no wallet linked, then the panel says Connect a wallet and lists Freighter and External Wallet to connect, Ledger and Trezor not available', async () => {
    await renderSignedIn(jane());
    const panel = await openPanel();
    await waitFor(() => expect(panel.getByTestId('summary-address').textContent).toBe('Connect a wallet'));
    expect(rowsOf(panel.getByRole('list', { name: 'Wallets' }))).toEqual([
      'FreighterConnect',
      'LedgerNot available',
      'TrezorNot available',
      'External WalletConnect',
    ]);
    expect(panel.getByRole('button', { name: 'Connect Freighter' })).toBeTruthy();
    expect(panel.getByRole('button', { name: 'Connect External Wallet' })).toBeTruthy();
  });

  it('when she connects Freighter, then Freighter shares her address, signs the challenge, the wallet is linked and the panel shows the short address', async () => {
    const wallet = installFreighter();
    await renderSignedIn(jane());
    const panel = await openPanel();
    fireEvent.click(await panel.findByRole('button', { name: 'Connect Freighter' }));
    const modal = await walletModal('Connect Freighter');
    fireEvent.click(modal.getByRole('button', { name: 'Connect Freighter' }));

    await modal.findByText('Freighter is linked:');
    expect(modal.getByText(short(MEMBER.publicKey()))).toBeTruthy();
    expect(createWalletChallenge).toHaveBeenCalledWith({ body: { address: MEMBER.publicKey(), wallet: 'freighter' } }, QUIET_CALL);
    // What reached the server is the challenge the server made, signed by the server and by the member's key.
    const sent = jest.mocked(linkWallet).mock.calls[0]![0].body.transaction;
    expect(wallet.signed).toEqual([sent]);
    expect(signersOf(sent, [SERVER, MEMBER])).toEqual([SERVER, MEMBER]);
    expect(wallet.requests.map((request) => request.type)).toEqual([
      'REQUEST_CONNECTION_STATUS',
      'REQUEST_ACCESS',
      'REQUEST_CONNECTION_STATUS',
      'SUBMIT_TRANSACTION',
    ]);
    expect(wallet.requests[3]).toMatchObject({ networkPassphrase: Networks.TESTNET, accountToSign: MEMBER.publicKey() });

    // The panel stayed open under the modal, and reads the link again.
    await waitFor(() => expect(panel.getByTestId('summary-address').textContent).toBe(short(MEMBER.publicKey())));
    fireEvent.click(modal.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(document.querySelector('.kn-wallet-modal .ant-modal')).toBeNull());
    expect(rowsOf(panel.getByRole('list', { name: 'Wallets' }))[0]).toBe(`FreighterLinked · ${short(MEMBER.publicKey())}Unlink`);
  });

  it('when Freighter is not installed, then she is told so with a link to get it, and the cause is logged as a Freighter error', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await renderSignedIn(jane());
    const panel = await openPanel();
    fireEvent.click(await panel.findByRole('button', { name: 'Connect Freighter' }));
    const modal = await walletModal('Connect Freighter');
    fireEvent.click(modal.getByRole('button', { name: 'Connect Freighter' }));

    const alert = await modal.findByRole('alert', {}, { timeout: 5000 });
    expect(within(alert).getByText('Freighter is not installed in this browser.')).toBeTruthy();
    expect(within(alert).getByRole('link', { name: 'Get Freighter' }).getAttribute('href')).toBe('https://www.freighter.app/');
    expect(logged).toHaveBeenCalledWith('Freighter error', expect.anything());
    expect(createWalletChallenge).not.toHaveBeenCalled();
    expect(await modal.findByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('when she declines in Freighter, then she reads that Freighter did not share her address, or did not sign, and nothing is linked', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const wallet = installFreighter();
    wallet.respond('decline');
    await renderSignedIn(jane());
    fireEvent.click(await (await openPanel()).findByRole('button', { name: 'Connect Freighter' }));
    const modal = await walletModal('Connect Freighter');
    fireEvent.click(modal.getByRole('button', { name: 'Connect Freighter' }));
    await modal.findByText('Freighter did not share your address. Please try again.');

    // She allows the site, then declines to sign.
    wallet.respond('approve');
    jest.mocked(createWalletChallenge).mockImplementationOnce(async ({ body }) => {
      wallet.respond('decline');
      return challengeFor(body.address);
    });
    fireEvent.click(await modal.findByRole('button', { name: 'Try again' }));
    await modal.findByText('Freighter did not sign. Please try again.');
    expect(linkWallet).not.toHaveBeenCalled();
  });

  it('when the server refuses the link, then its message is shown as it is', async () => {
    installFreighter();
    jest.mocked(linkWallet).mockRejectedValueOnce(new ApiError('This wallet is already linked to another Knack account.', 409, 'conflict'));
    await renderSignedIn(jane());
    fireEvent.click(await (await openPanel()).findByRole('button', { name: 'Connect Freighter' }));
    const modal = await walletModal('Connect Freighter');
    fireEvent.click(modal.getByRole('button', { name: 'Connect Freighter' }));
    const alert = await modal.findByRole('alert');
    expect(alert.textContent).toBe('This wallet is already linked to another Knack account.');
  });

  it('when she unlinks, then she is asked first, and after Yes the panel says Connect a wallet again', async () => {
    link = linkOf(MEMBER.publicKey(), 'external');
    await renderSignedIn(jane());
    const panel = await openPanel();
    await waitFor(() => expect(panel.getByTestId('summary-address').textContent).toBe(short(MEMBER.publicKey())));
    const wallets = panel.getByRole('list', { name: 'Wallets' });
    expect(rowsOf(wallets)[3]).toBe(`External WalletLinked · ${short(MEMBER.publicKey())}Unlink`);

    fireEvent.click(panel.getByRole('button', { name: 'Unlink External Wallet' }));
    const question = panel.getByRole('group', {
      name: `Unlink External Wallet (${short(MEMBER.publicKey())}) from your Knack account? You can link it again at any time.`,
    });
    fireEvent.click(within(question).getByRole('button', { name: 'Keep it' }));
    expect(unlinkWallet).not.toHaveBeenCalled();
    fireEvent.click(panel.getByRole('button', { name: 'Unlink External Wallet' }));
    fireEvent.click(panel.getByRole('button', { name: 'Yes, unlink' }));
    await waitFor(() => expect(panel.getByTestId('summary-address').textContent).toBe('Connect a wallet'));
    expect(unlinkWallet).toHaveBeenCalledTimes(1);
  });
});

describe('an External Wallet', () => {
  async function openExternal() {
    await renderSignedIn(jane());
    fireEvent.click(await (await openPanel()).findByRole('button', { name: 'Connect External Wallet' }));
    return walletModal('Link an External Wallet');
  }

  it('when Jane gives her address, then she gets the challenge to copy, signs it elsewhere, pastes it back and the wallet is linked', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    const modal = await openExternal();
    fireEvent.change(modal.getByLabelText('Stellar address'), { target: { value: ` ${MEMBER.publicKey()} ` } });
    fireEvent.click(modal.getByRole('button', { name: 'Get the challenge' }));

    const challenge = (await modal.findByLabelText('Challenge to sign')) as HTMLTextAreaElement;
    expect(createWalletChallenge).toHaveBeenCalledWith({ body: { address: MEMBER.publicKey(), wallet: 'external' } }, QUIET_CALL);
    expect(modal.getByText(short(MEMBER.publicKey()))).toBeTruthy();
    expect(modal.getByText(/for Testnet/)).toBeTruthy();
    fireEvent.click(modal.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(challenge.value));

    // Signed in another wallet (here the SDK), pasted back with the line breaks a wallet may add.
    const signed = TransactionBuilder.fromXDR(challenge.value, Networks.TESTNET);
    signed.sign(MEMBER);
    const xdr = signed.toXDR();
    fireEvent.change(modal.getByLabelText('Signed challenge'), { target: { value: `${xdr.slice(0, 40)}\n${xdr.slice(40)}\n` } });
    fireEvent.click(modal.getByRole('button', { name: 'Link wallet' }));

    await modal.findByText('External Wallet is linked:');
    expect(linkWallet).toHaveBeenCalledWith({ body: { transaction: xdr } }, QUIET_CALL);
  });

  it('when the address or the pasted text is wrong, then she reads why: the server refusal as it is, or that it is not a signed transaction', async () => {
    jest.mocked(createWalletChallenge).mockRejectedValueOnce(new ApiError('Enter a valid Stellar address (G…, 56 characters).', 400, 'validation_error'));
    const modal = await openExternal();
    fireEvent.change(modal.getByLabelText('Stellar address'), { target: { value: 'GABC' } });
    fireEvent.click(modal.getByRole('button', { name: 'Get the challenge' }));
    expect((await modal.findByRole('alert')).textContent).toBe('Enter a valid Stellar address (G…, 56 characters).');

    fireEvent.change(modal.getByLabelText('Stellar address'), { target: { value: MEMBER.publicKey() } });
    fireEvent.click(modal.getByRole('button', { name: 'Get the challenge' }));
    await modal.findByLabelText('Challenge to sign');
    fireEvent.change(modal.getByLabelText('Signed challenge'), { target: { value: 'not a transaction!' } });
    fireEvent.click(modal.getByRole('button', { name: 'Link wallet' }));
    expect((await modal.findByRole('alert')).textContent).toBe(
      'This is not a signed transaction. Paste the whole signed transaction (XDR) your wallet gave you.',
    );
    expect(linkWallet).not.toHaveBeenCalled();

    jest.mocked(linkWallet).mockRejectedValueOnce(new ApiError("This wallet's signature does not match the address.", 400, 'validation_error'));
    fireEvent.change(modal.getByLabelText('Signed challenge'), { target: { value: (modal.getByLabelText('Challenge to sign') as HTMLTextAreaElement).value } });
    fireEvent.click(modal.getByRole('button', { name: 'Link wallet' }));
    await waitFor(() => expect(modal.getByRole('alert').textContent).toBe("This wallet's signature does not match the address."));
  });
});

describe('the Stellar wallet group of the settings', () => {
  it('when Jane has Freighter linked, then it shows the wallet, the network, the full address with Copy and the short one; Unlink asks first and brings back the wallets to connect', async () => {
    link = linkOf(MEMBER.publicKey(), 'freighter');
    await renderAsMember('/user-setting');
    const group = within(await screen.findByRole('region', { name: 'Stellar wallet' }));
    await group.findByText(MEMBER.publicKey());
    const facts = [...document.querySelectorAll('#stellar-wallet dt')].map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`);
    expect(facts).toEqual(['Wallet: Freighter', 'Network: Testnet', `Address: ${short(MEMBER.publicKey())}${MEMBER.publicKey()}Copy address`]);

    fireEvent.click(group.getByRole('button', { name: 'Unlink Freighter' }));
    await act(async () => {
      fireEvent.click(group.getByRole('button', { name: 'Yes, unlink' }));
    });
    const wallets = await group.findByRole('list', { name: 'Stellar wallet' });
    expect(rowsOf(wallets)).toEqual(['FreighterConnect', 'LedgerNot available', 'TrezorNot available', 'External WalletConnect']);
  });

  it('when she has none, then the same choices open the same modal', async () => {
    await renderAsMember('/user-setting');
    const group = within(await screen.findByRole('region', { name: 'Stellar wallet' }));
    fireEvent.click(await group.findByRole('button', { name: 'Connect External Wallet' }));
    const modal = await walletModal('Link an External Wallet');
    expect(modal.getByLabelText('Stellar address')).toBeTruthy();
  });
});
