/**
 * "Your data" on the settings page: "Download my data" saves the JSON the server answers as a file, and "Delete my
 * account" asks for the password and says what happens to the money (from the wallet figures): $10 or more must be
 * cashed out (the wallet is linked) or given up (a checkbox), less is given up, a cash-out waiting for approval
 * must be paid first. Once deleted, the member is signed out and lands home with a toast. The generated operations
 * are mocked; the store, sagas, router and toasts are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  deleteMyAccount,
  downloadMyData,
  getCountries,
  getRegions,
  getUserExt,
  getWalletSummary,
  updateSocial,
} from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import type { components } from '../../generated/openapi';
import { storedAccount } from './auth-fixtures';
import { QUIET_CALL } from './call-options';
import { path, toastTexts } from './profile-fixtures';
import { bea, renderAsMember, walletSummary } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

type DataExport = components['schemas']['DataExport'];

beforeEach(() => {
  jest.mocked(getCountries).mockResolvedValue({ countries: [] });
  jest.mocked(getRegions).mockResolvedValue({ regions: [] });
  jest.mocked(deleteMyAccount).mockReset();
  jest.mocked(downloadMyData).mockReset();
});

/** The settings page's "Your data" group, signed in as Bea with `balance` (and `pendingCashOut`) in her wallet. */
async function yourData(figures: Parameters<typeof walletSummary>[0] = {}) {
  jest.mocked(getWalletSummary).mockResolvedValue(walletSummary(figures));
  const app = await renderAsMember('/user-setting', bea());
  const group = await screen.findByRole('region', { name: 'Your data' });
  return { app, group: within(group) };
}

async function openDelete(figures: Parameters<typeof walletSummary>[0] = {}) {
  const { app, group } = await yourData(figures);
  fireEvent.click(group.getByRole('button', { name: 'Delete my account' }));
  const dialog = await waitFor(() => {
    const found = document.querySelector<HTMLElement>('.kn-delete-account-modal [role="dialog"]');
    if (!found) throw new Error('no delete dialog');
    return found;
  });
  expect(dialog.querySelector('.ant-modal-title')?.textContent?.trim()).toBe('Delete your account?');
  return { app, dialog: within(dialog) };
}

/** A blob's text (jsdom's Blob has no text()). */
const textOf = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blob);
  });

const deleteButton = () => screen.getAllByRole('button', { name: 'Delete my account' }).at(-1)!;
const typePassword = (dialog: ReturnType<typeof within>, value: string) => fireEvent.change(dialog.getByLabelText('Your password'), { target: { value } });

describe('Download my data', () => {
  it('when Bea downloads her data, then the answer is saved as her JSON file and a toast says so', async () => {
    const data = {
      format: 'knack-data-export/1',
      exportedAt: '2026-11-24T10:00:00.000Z',
      account: { user: { id: bea().id, username: 'bea_moon' } },
      pieces: [],
      comments: [],
      messages: [],
      ledgerEntries: [],
    } as unknown as DataExport;
    jest.mocked(downloadMyData).mockResolvedValue(data);
    const saved: { name: string; blob: Blob }[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      saved.push({ name: '', blob });
      return 'blob:knack-data';
    });
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.at(-1)!.name = this.download;
    });
    try {
      const { group } = await yourData();
      fireEvent.click(group.getByRole('button', { name: 'Download my data' }));
      await waitFor(() => expect(toastTexts()).toContain('Your data is downloaded.'));
      expect(downloadMyData).toHaveBeenCalledWith({ path: { id: bea().id } }, expect.anything());
      expect(saved).toHaveLength(1);
      expect(saved[0]!.name).toBe('knack-data-bea_moon-2026-11-24.json');
      expect(JSON.parse(await textOf(saved[0]!.blob))).toEqual(data);
    } finally {
      click.mockRestore();
    }
  });

  it('when a settings group is saved after a download, then the data is not downloaded again in the background', async () => {
    jest.mocked(downloadMyData).mockResolvedValue({
      format: 'knack-data-export/1',
      exportedAt: '2026-11-24T10:00:00.000Z',
      account: { user: { id: bea().id, username: 'bea_moon' } },
    } as unknown as DataExport);
    jest.mocked(updateSocial).mockImplementation(async ({ body }) => body);
    URL.createObjectURL = jest.fn(() => 'blob:knack-data');
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      const { group } = await yourData();
      fireEvent.click(group.getByRole('button', { name: 'Download my data' }));
      await waitFor(() => expect(toastTexts()).toContain('Your data is downloaded.'));
      const extReads = jest.mocked(getUserExt).mock.calls.length;

      const social = within(screen.getByRole('form', { name: 'Social profiles' }));
      fireEvent.change(social.getByLabelText('Instagram'), { target: { value: 'instagram.com/bea' } });
      fireEvent.click(social.getByRole('button', { name: 'Save' }));
      // The save changed the member's settings: the settings read on the page loads again, the export does not.
      await waitFor(() => expect(getUserExt).toHaveBeenCalledTimes(extReads + 1));
      expect(downloadMyData).toHaveBeenCalledTimes(1);
    } finally {
      click.mockRestore();
    }
  });
});

describe('Delete my account', () => {
  it('when $12.34 is not paid out, then the modal says so with a link to the wallet, and deleting waits for “give it up”', async () => {
    const { dialog } = await openDelete({ balance: 12.34 });
    expect(await dialog.findByText(/You have \$12\.34 not paid out yet\./)).toBeTruthy();
    expect(dialog.getByRole('link', { name: 'Cash it out from your wallet' }).getAttribute('href')).toBe('/wallet');
    typePassword(dialog, 'Str0ng!pass');
    expect(deleteButton().hasAttribute('disabled')).toBe(true);
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Give up my $12.34' }));
    expect(deleteButton().hasAttribute('disabled')).toBe(false);
  });

  it('when the password is wrong, then the server’s message shows under it and she stays signed in; the right one deletes, signs out and goes home', async () => {
    jest
      .mocked(deleteMyAccount)
      .mockRejectedValueOnce(new ApiError('Incorrect password.', 400, 'bad_request', [{ path: 'password', message: 'Incorrect password.' }]))
      .mockResolvedValueOnce({ message: 'Your account is deleted.' });
    const { app, dialog } = await openDelete({ balance: 12.34 });
    fireEvent.click(await dialog.findByRole('checkbox', { name: 'Give up my $12.34' }));
    typePassword(dialog, 'wrong');
    fireEvent.click(deleteButton());
    expect(await dialog.findByText('Incorrect password.')).toBeTruthy();
    expect(app.store.getState().auth.isLoggedIn).toBe(true);

    typePassword(dialog, 'Str0ng!pass');
    fireEvent.click(deleteButton());
    await waitFor(() => expect(path()).toBe('/'));
    expect(deleteMyAccount).toHaveBeenLastCalledWith({ path: { id: bea().id }, body: { password: 'Str0ng!pass', giveUpBalance: true } }, QUIET_CALL);
    expect(app.store.getState().auth.isLoggedIn).toBe(false);
    expect(storedAccount()).toBeNull();
    await waitFor(() => expect(toastTexts()).toContain('Your account is deleted.'));
  });

  it('when the balance is under $10, then it says it is given up, and an empty password is asked for before any call', async () => {
    jest.mocked(deleteMyAccount).mockResolvedValue({ message: 'Your account is deleted.' });
    const { dialog } = await openDelete({ balance: 3.5 });
    expect(await dialog.findByText('Your balance of $3.50 is under the $10.00 cash-out minimum, so it is given up with your account.')).toBeTruthy();
    expect(dialog.queryByRole('checkbox')).toBeNull();
    fireEvent.click(deleteButton());
    expect(await dialog.findByText('Please input password')).toBeTruthy();
    expect(deleteMyAccount).not.toHaveBeenCalled();
    typePassword(dialog, 'Str0ng!pass');
    fireEvent.click(deleteButton());
    await waitFor(() =>
      expect(deleteMyAccount).toHaveBeenCalledWith({ path: { id: bea().id }, body: { password: 'Str0ng!pass', giveUpBalance: false } }, QUIET_CALL),
    );
  });

  it('when a cash-out waits for approval, then the modal says to wait for it and Delete stays off; Keep my account closes it', async () => {
    const { dialog } = await openDelete({ balance: 0.2, pendingCashOut: 25 });
    expect(await dialog.findByText('Your cash-out of $25.00 is waiting for approval. You can delete your account once it is paid.')).toBeTruthy();
    typePassword(dialog, 'Str0ng!pass');
    expect(deleteButton().hasAttribute('disabled')).toBe(true);
    fireEvent.click(dialog.getByRole('button', { name: 'Keep my account' }));
    await waitFor(() => expect(document.querySelector('.kn-delete-account')).toBeNull());
    expect(deleteMyAccount).not.toHaveBeenCalled();
  });
});
