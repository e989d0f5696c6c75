/**
 * The profile summary panel, opened from the avatar at the end of the top navigation: the member's name linking
 * to their profile, 'Connect a wallet' (no Stellar wallet is linked), SETTINGS to the settings page,
 * MESSAGES to the inbox, the wallet's figures (loaded when the panel opens, never before), and the
 * Stellar wallet list (its linking is tested in stellar-wallet.test.tsx). The generated operations are mocked; the store,
 * router and layout are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { getCountries, getProjectsOfUser, getRegions, getWalletLink, getWalletSummary } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { homeHeading, mockPublicCalls, renderApp } from './auth-app';
import { path } from './profile-fixtures';
import { renderSignedIn } from './upload-fixtures';
import { jane, walletSummary } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const openPanel = async () => {
  fireEvent.click(await screen.findByRole('button', { name: 'Profile summary' }));
  return within(await screen.findByRole('dialog', { name: 'Profile summary' }));
};
const projectOf = (id: string) => ({ id, projectName: id });
const figure = (panel: ReturnType<typeof within>, testId: string) => panel.getByTestId(testId).textContent;

beforeEach(() => {
  jest
    .mocked(getWalletSummary)
    .mockReset()
    .mockResolvedValue(walletSummary({ uploads: 3.2, collections: 1.24, totalValue: 4.44, balance: 2 }));
  // The settings page, which SETTINGS opens, lists the countries.
  jest.mocked(getCountries).mockResolvedValue({ countries: [] });
  jest.mocked(getRegions).mockResolvedValue({ regions: [] });
  jest.mocked(getWalletLink).mockResolvedValue({ linked: false });
  // Two projects: the panel counts them.
  jest.mocked(getProjectsOfUser).mockResolvedValue({ projects: [projectOf('p1'), projectOf('p2')] as never });
});

describe('the profile summary panel', () => {
  it('when Jane opens it from her avatar, then she sees her name, the wallet figures, MESSAGES leading to the inbox and the Stellar wallets', async () => {
    await renderSignedIn(jane());
    // The figures are asked for when the panel opens, not with the page.
    expect(getWalletSummary).not.toHaveBeenCalled();
    const panel = await openPanel();
    expect(panel.getByRole('link', { name: 'Jane Doe' }).getAttribute('href')).toBe('/profile/default');
    expect(await panel.findByText('Connect a wallet')).toBeTruthy();
    await waitFor(() => expect(figure(panel, 'summary-uploads')).toBe('$3.20'));
    expect(getWalletSummary).toHaveBeenCalledWith({ path: { id: jane().id } }, expect.anything());
    await waitFor(() => expect(figure(panel, 'summary-projects')).toBe('2'));
    expect(getProjectsOfUser).toHaveBeenCalledWith({ path: { userId: jane().id } }, expect.anything());
    expect(figure(panel, 'summary-collections')).toBe('$1.24');
    expect(figure(panel, 'summary-total')).toBe('$4.44');
    expect(panel.getByText('Projects')).toBeTruthy();
    expect(panel.getByText('Total value')).toBeTruthy();

    expect(panel.getByRole('link', { name: 'MESSAGES' }).getAttribute('href')).toBe('/inbox');

    expect(panel.getByText('Link the Stellar wallet you use on Knack. Its signature proves the address is yours.')).toBeTruthy();
    const wallets = within(panel.getByRole('list', { name: 'Wallets' }))
      .getAllByRole('listitem')
      .map((row) => row.textContent);
    expect(wallets).toEqual(['FreighterConnect', 'LedgerNot available', 'TrezorNot available', 'External WalletConnect']);
  });

  it('when she chooses SETTINGS, then the settings page opens and the panel closes', async () => {
    await renderSignedIn(jane());
    const panel = await openPanel();
    const settings = panel.getByRole('link', { name: 'SETTINGS' });
    expect(settings.getAttribute('href')).toBe('/user-setting');
    fireEvent.click(settings);
    await waitFor(() => expect(path()).toBe('/user-setting'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Profile summary' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Profile summary' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('when she presses Escape, then the panel closes and the avatar has the focus; opened again, the figures load again', async () => {
    await renderSignedIn(jane());
    const panel = await openPanel();
    await waitFor(() => expect(figure(panel, 'summary-total')).toBe('$4.44'));
    fireEvent.keyDown(document, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Profile summary' })).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Profile summary' }));

    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ uploads: 5, collections: 1 }));
    const again = await openPanel();
    await waitFor(() => expect(figure(again, 'summary-total')).toBe('$6.00'));
    expect(getWalletSummary).toHaveBeenCalledTimes(2);
  });

  it('when she clicks outside it, then it closes', async () => {
    await renderSignedIn(jane());
    await openPanel();
    fireEvent.pointerDown(screen.getByRole('main'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Profile summary' })).toBeNull());
  });

  it('when the figures cannot be loaded, then the panel says so and Try again loads them', async () => {
    jest.mocked(getWalletSummary).mockRejectedValueOnce(new ApiError('Something went wrong', 500, 'internal'));
    await renderSignedIn(jane());
    const panel = await openPanel();
    expect((await panel.findByRole('alert')).textContent).toContain('Your figures could not be loaded.');
    fireEvent.click(panel.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(figure(panel, 'summary-uploads')).toBe('$3.20'));
    expect(panel.queryByRole('alert')).toBeNull();
  });

  it('when on a phone (390 px), then the avatar is in the top bar and opens the same panel', async () => {
    await renderSignedIn(jane(), [390, 844]);
    const panel = await openPanel();
    await waitFor(() => expect(figure(panel, 'summary-collections')).toBe('$1.24'));
    expect(panel.getByRole('link', { name: 'SETTINGS' })).toBeTruthy();
  });

  it('when nobody is signed in, then the top navigation has no profile summary', async () => {
    mockPublicCalls();
    renderApp('/');
    await homeHeading();
    expect(screen.queryByRole('button', { name: 'Profile summary' })).toBeNull();
  });
});
