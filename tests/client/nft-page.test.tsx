/**
 * NFT mode on /nft in the whole SPA: what a visitor reads, and for a member the four steps beside the NFT sidebar:
 * the details' messages (as the classic upload's), the optional TOML step, the token's messages and the server's
 * refusals of the mint (with a way to link a wallet), step 4's pinned file and expiry, signing with the wallet and
 * publishing, the wallet's refusal in plain words, an expired transaction prepared again, Back, and the form starting
 * again when the save mode switches or the page opens anew. The generated operations and the wallet's signing are
 * stand-ins; the store, sagas, router and toasts are real.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  getCommentsByContent,
  getContentDetail,
  getContentsByKind,
  getTrendingArtists,
  getWalletLink,
  prepareNftMint,
  startNftMint,
  submitNftMint,
  uploadContentPhoto,
  type PrepareNftMintResult,
  type StartNftMintResult,
} from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { signWithFreighter, WalletError } from '../../client/src/features/stellar';
import { modalClosed } from '../../client/src/lib/ui';
import { renderApp } from './auth-app';
import { makeUser, setViewport, storeAccount } from './auth-fixtures';
import { makeContent } from './explore-fixtures';
import { chooseFile, chooseMainTag, findDialog, imageAnswer, mockMemberCalls, pick, pngFile, stubObjectUrls, toastTexts, type } from './upload-fixtures';
import { QUIET_FLOW_CALL } from './call-options';

jest.mock('../../client/src/api/generated/operations');
jest.mock('../../client/src/features/stellar', () => ({
  ...jest.requireActual<typeof import('../../client/src/features/stellar')>('../../client/src/features/stellar'),
  signWithFreighter: jest.fn(),
}));

const OWNER = 'GDVEUPD2BGCEJHAW4WUWJ5NXB6NJ2AO3BZCTNHKFC6ALBRQ6WUXFZA57';
const ISSUER = 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5';
const CID = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';
const HASH = 'a'.repeat(64);
const PASSPHRASE = 'Test SDF Network ; September 2015';

const startedMint = (overrides: Partial<StartNftMintResult> = {}): StartNftMintResult => ({
  id: '64e000000000000000000001',
  status: 'started',
  tokenCode: 'SUNSET01',
  tokenAmount: 1,
  tokenIssuer: ISSUER,
  tokenIssuerShort: 'GBBD…FLA5',
  asset: `SUNSET01:${ISSUER}`,
  ownerAddress: OWNER,
  network: 'testnet',
  ...overrides,
});

const preparedMint = (overrides: Partial<PrepareNftMintResult> = {}): PrepareNftMintResult => ({
  ...startedMint(),
  status: 'prepared',
  ipfsHash: CID,
  ipfsHashShort: 'bafkre…ku',
  ipfsUrl: `http://localhost/ipfs/${CID}`,
  transaction: 'AAAAissuer-signed',
  networkPassphrase: PASSPHRASE,
  expiresAt: new Date(Date.now() + 300_000).toISOString(),
  transactionHash: HASH,
  ...overrides,
});

const publishedPiece = () =>
  makeContent({
    id: '64d000000000000000000009',
    ownerId: makeUser().id,
    title: 'Lisbon at dawn',
    type: 'photos',
    subTag: 'Travel',
    tags: [{ name: 'Photos' }],
    nft: {
      tokenCode: 'SUNSET01',
      tokenIssuer: ISSUER,
      tokenIssuerShort: 'GBBD…FLA5',
      asset: `SUNSET01:${ISSUER}`,
      tokenAmount: 1,
      transactionHash: HASH,
      ipfsHash: CID,
      ipfsHashShort: 'bafkre…ku',
      ipfsUrl: `http://localhost/ipfs/${CID}`,
      network: 'testnet',
    },
  });

beforeEach(() => {
  jest.resetAllMocks();
  stubObjectUrls();
  jest.mocked(uploadContentPhoto).mockResolvedValue(imageAnswer());
  jest.mocked(getWalletLink).mockResolvedValue({
    linked: true,
    wallet: 'freighter',
    network: 'testnet',
    address: OWNER,
    addressShort: 'GDVE…ZA57',
    linkedAt: '2026-11-01T00:00:00.000Z',
  });
  jest.mocked(startNftMint).mockResolvedValue(startedMint());
  jest.mocked(prepareNftMint).mockResolvedValue(preparedMint());
  jest.mocked(signWithFreighter).mockResolvedValue('AAAAsigned-by-both');
  jest.mocked(submitNftMint).mockResolvedValue({ message: 'Content saved', content: publishedPiece() });
  // The published piece opens in the detail modal, whose own reads stay in flight (the detail modal's tests answer them).
  const inFlight = () => new Promise<never>(() => undefined);
  jest.mocked(getContentDetail).mockReturnValue(inFlight());
  jest.mocked(getCommentsByContent).mockReturnValue(inFlight());
  jest.mocked(getContentsByKind).mockReturnValue(inFlight());
  jest.mocked(getTrendingArtists).mockReturnValue(inFlight());
});

/** A member on /nft, at 1280 px unless told. */
async function openNftPage(viewport: [number, number] = [1280, 800]) {
  setViewport(...viewport);
  const user = makeUser();
  storeAccount('stored-token', user);
  mockMemberCalls(user);
  const app = renderApp('/nft');
  await screen.findByRole('heading', { name: 'Step 1 of 4 · Details' });
  return app;
}

const stepHeading = (step: string) => screen.findByRole('heading', { name: step });
const press = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
const next = () => press('Next');

/** Step 1 filled in (a photo, Photos · Travel), then Next. */
async function fillDetails() {
  type('Title', 'Lisbon at dawn');
  type('Description', 'Tram 28 before the crowds');
  await chooseMainTag('Photos');
  await pick('Category', 'Travel');
  chooseFile('Photo', pngFile());
  await waitFor(() => expect(screen.getByRole('img', { name: 'Photo: cover.png' })).toBeTruthy());
  next();
  await stepHeading('Step 2 of 4 · Token page (optional)');
}

async function toTokenStep() {
  await fillDetails();
  press('Skip');
  await stepHeading('Step 3 of 4 · Token');
}

async function toSignStep() {
  await toTokenStep();
  type('Token Code', 'SUNSET01');
  next();
  await stepHeading('Step 4 of 4 · Sign and save');
  await screen.findByRole('button', { name: 'Sign and save' });
}

describe('a visitor', () => {
  it('when /nft opens, then it says what NFT mode is, compares Knack with NFT marketplaces and offers a sign-in, with no form', async () => {
    setViewport(1280, 800);
    mockMemberCalls(makeUser());
    renderApp('/nft');
    expect(await screen.findByRole('heading', { level: 1, name: 'NFT mode' })).toBeTruthy();
    const comparison = screen.getByRole('region', { name: 'Knack compared with NFT marketplaces' });
    for (const point of ['No percentage taken on NFT sales.', 'A non-custodial wallet', 'Pinned to IPFS', 'Fixed for ever', 'Your own wallet signs']) {
      expect(within(comparison).getByText(point, { exact: false })).toBeTruthy();
    }
    expect(screen.getByRole('button', { name: 'Log in to mint a piece' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /Step 1 of 4/ })).toBeNull();
    expect(window.location.pathname).toBe('/nft');
  });
});

describe('a member, step 1: the details', () => {
  it('when the page opens, then the NFT sidebar shows the comparison and the linked wallet, and the side menu entry leads here', async () => {
    await openNftPage();
    const sidebar = screen.getByRole('complementary', { name: 'About NFT mode' });
    expect(within(sidebar).getByText('No percentage taken on NFT sales.')).toBeTruthy();
    expect(await within(sidebar).findByText('GDVE…ZA57')).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'NFT' })).toHaveProperty('checked', true);
  });

  it('when Next is pressed on an empty form, then the classic upload messages show, and with Music also "Should input audio"', async () => {
    await openNftPage();
    next();
    for (const message of ['Title should not be empty', 'Description should not be empty', 'Tags should not be empty', 'Should input photo']) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    await chooseMainTag('Music');
    next();
    expect(await screen.findByText('Should input audio')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Step 1 of 4 · Details' })).toBeTruthy();
    expect(startNftMint).not.toHaveBeenCalled();
  });
});

describe('steps 2 and 3: the token page and the token', () => {
  it('when the TOML image is not https, then it is refused; Back goes one step with what was entered kept', async () => {
    await openNftPage();
    await fillDetails();
    type('Token name', 'Sunset');
    type('Image URL', 'http://example.com/a.png');
    next();
    expect(await screen.findByText('The image must be an https:// address.')).toBeTruthy();
    type('Image URL', 'https://example.com/a.png');
    next();
    await stepHeading('Step 3 of 4 · Token');
    press('Back');
    await stepHeading('Step 2 of 4 · Token page (optional)');
    expect(screen.getByLabelText<HTMLInputElement>('Token name').value).toBe('Sunset');
    press('Back');
    await stepHeading('Step 1 of 4 · Details');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Lisbon at dawn');
  });

  it('when the token code is empty or not A–Z and 0–9, then its message; typed in lower case, it is upper-cased; 1 unit = 0.0000001', async () => {
    await openNftPage();
    await toTokenStep();
    expect(screen.getByLabelText<HTMLInputElement>('Amount (units)').value).toBe('1');
    expect(screen.getByText(/1 unit = 0\.0000001/)).toBeTruthy();
    next();
    expect(await screen.findByText('Token Code should not be empty')).toBeTruthy();
    type('Token Code', 'sun-set');
    expect(await screen.findByText('Token Code must be 1 to 12 letters A–Z and digits 0–9.')).toBeTruthy();
    type('Token Code', 'sunset01');
    expect(screen.getByLabelText<HTMLInputElement>('Token Code').value).toBe('SUNSET01');
    expect(startNftMint).not.toHaveBeenCalled();
  });

  it.each([
    ['Link a Stellar wallet first.', true],
    ['Insufficient account balance', false],
  ])('when the server refuses the mint with "%s", then the step shows it (with a way to link a wallet: %s)', async (message, offersLink) => {
    jest.mocked(startNftMint).mockRejectedValue(new ApiError(message, 400, 'bad_request'));
    await openNftPage();
    await toTokenStep();
    type('Token Code', 'SUNSET01');
    next();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(message)).toBeTruthy();
    const link = within(alert).queryByRole('link', { name: 'Link a wallet in Settings' });
    expect(link?.getAttribute('href') ?? null).toBe(offersLink ? '/user-setting#stellar-wallet' : null);
    expect(screen.getByRole('heading', { name: 'Step 3 of 4 · Token' })).toBeTruthy();
    expect(prepareNftMint).not.toHaveBeenCalled();
  });
});

describe('step 4: sign and save', () => {
  it('when the token is accepted, then the file is pinned and the transaction shown; signing and saving publishes the piece', async () => {
    await openNftPage();
    await fillDetails();
    type('Token name', 'Sunset');
    next();
    await stepHeading('Step 3 of 4 · Token');
    type('Token Code', 'sunset01');
    next();
    await screen.findByRole('button', { name: 'Sign and save' });

    expect(startNftMint).toHaveBeenCalledWith({ body: { tokenCode: 'SUNSET01', tokenAmount: 1 } }, QUIET_FLOW_CALL);
    expect(prepareNftMint).toHaveBeenCalledWith(
      { path: { id: '64e000000000000000000001' }, body: { photoPath: 'images/2026/11/cover.jpg', audioPath: undefined, toml: { name: 'Sunset' } } },
      QUIET_FLOW_CALL,
    );
    const summary = screen.getByLabelText('The token');
    expect(within(summary).getByText('SUNSET01')).toBeTruthy();
    expect(within(summary).getByText('GBBD…FLA5')).toBeTruthy();
    expect(within(summary).getByRole('link', { name: 'bafkre…ku' }).getAttribute('href')).toBe(`http://localhost/ipfs/${CID}`);
    expect(within(summary).getByText(/sends 2 XLM to open the issuer account/)).toBeTruthy();
    expect(screen.getByTestId('nft-expiry').textContent).toMatch(/5 minutes from now/);

    press('Sign and save');
    expect(await screen.findByText('Published as an NFT')).toBeTruthy();
    expect(signWithFreighter).toHaveBeenCalledWith('AAAAissuer-signed', PASSPHRASE, OWNER);
    expect(submitNftMint).toHaveBeenCalledWith(
      {
        path: { id: '64e000000000000000000001' },
        body: {
          transaction: 'AAAAsigned-by-both',
          title: 'Lisbon at dawn',
          description: 'Tram 28 before the crowds',
          tags: [{ name: 'Photos' }],
          subTag: 'Travel',
          photoPath: 'images/2026/11/cover.jpg',
          audioPath: undefined,
        },
      },
      QUIET_FLOW_CALL,
    );
    await waitFor(() => expect(toastTexts()).toContain('Content saved'));
    // The new piece opens, with its NFT block.
    const nft = await screen.findByRole('region', { name: 'NFT' });
    expect(within(nft).getByRole('link', { name: 'aaaaaa…aaaaaaaa' }).getAttribute('href')).toBe(`https://stellar.expert/explorer/testnet/tx/${HASH}`);
  });

  it('when the wallet declines, then its plain message shows and nothing is submitted', async () => {
    jest.mocked(signWithFreighter).mockRejectedValue(new WalletError('Freighter did not sign. Please try again.'));
    await openNftPage();
    await toSignStep();
    press('Sign and save');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Freighter did not sign. Please try again.')).toBeTruthy();
    expect(submitNftMint).not.toHaveBeenCalled();
  });

  it('when the transaction expired, then "Prepare again" builds a new one to sign; Back from step 4 keeps the mint started', async () => {
    jest.mocked(submitNftMint).mockRejectedValueOnce(new ApiError('This transaction has expired. Go back a step and sign it again.', 400, 'bad_request'));
    await openNftPage();
    await toSignStep();
    press('Sign and save');
    expect(await screen.findByText('This transaction has expired. Go back a step and sign it again.')).toBeTruthy();
    press('Prepare again');
    await screen.findByRole('button', { name: 'Sign and save' });
    expect(prepareNftMint).toHaveBeenCalledTimes(2);

    press('Back');
    await stepHeading('Step 3 of 4 · Token');
    expect(screen.getByTestId('nft-issuer').textContent).toContain('GBBD…FLA5');
    next();
    await screen.findByRole('button', { name: 'Sign and save' });
    expect(startNftMint).toHaveBeenCalledTimes(1);
  });
});

describe('starting again', () => {
  it('when the save mode switches to Classic, then the classic upload modal opens and NFT mode is back at step 1, empty', async () => {
    const { store } = await openNftPage();
    await fillDetails();
    fireEvent.click(screen.getByRole('radio', { name: 'Classic' }));
    const dialog = await findDialog('Upload content');
    expect(dialog.getByText('Classic')).toBeTruthy();
    act(() => {
      store.dispatch(modalClosed());
    });
    await stepHeading('Step 1 of 4 · Details');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('');
  });

  it('when the page is left and opened again, then the form starts empty at step 1', async () => {
    await openNftPage();
    await fillDetails();
    fireEvent.click(within(document.querySelector<HTMLElement>('.kn-topnav')!).getByRole('link', { name: 'Explore' }));
    await waitFor(() => expect(window.location.pathname).toBe('/explore'));
    act(() => {
      window.history.back();
    });
    await stepHeading('Step 1 of 4 · Details');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('');
  });

  it('at 390 px, then the NFT sidebar comes after the form', async () => {
    await openNftPage([390, 844]);
    const form = screen.getByRole('form', { name: 'Step 1 of 4 · Details' });
    const sidebar = screen.getByRole('complementary', { name: 'About NFT mode' });
    expect(form.compareDocumentPosition(sidebar) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
