/**
 * "API keys" on the settings page: a key is made with a name and what it may do, shown once with a Copy button, and
 * listed with when it was last used; Revoke asks first, and only then revokes. The generated operations are mocked;
 * the store, router, cache and toasts are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createApiKey, getCountries, getRegions, getWalletSummary, listApiKeys, revokeApiKey } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import type { components } from '../../generated/openapi';
import { QUIET_CALL } from './call-options';
import { toastTexts } from './profile-fixtures';
import { bea, renderAsMember, walletSummary } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

type ApiKey = components['schemas']['ApiKey'];

const SECRET = `knk_${'A'.repeat(43)}`;
const MINUTES_AGO = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const dashboard: ApiKey = {
  id: 'AbCdEfGhIjKlMnOp',
  name: 'Sales dashboard',
  scopes: ['catalogue:read', 'earnings:read'],
  start: 'knk_QwEr',
  createdAt: MINUTES_AGO(3 * 24 * 60),
  lastUsedAt: MINUTES_AGO(5),
};

let keys: ApiKey[];

beforeEach(() => {
  keys = [dashboard];
  jest.mocked(getCountries).mockResolvedValue({ countries: [] });
  jest.mocked(getRegions).mockResolvedValue({ regions: [] });
  jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({}));
  jest.mocked(listApiKeys).mockImplementation(async () => ({ keys, max: 10 }));
  jest.mocked(createApiKey).mockReset();
  jest.mocked(revokeApiKey).mockReset();
});

async function apiKeysGroup() {
  await renderAsMember('/user-setting', bea());
  return within(await screen.findByRole('region', { name: 'API keys' }));
}

describe('API keys in the settings', () => {
  it('when the settings open, then each key shows its name, start, scopes and when it was last used, and a link says how to use one', async () => {
    const group = await apiKeysGroup();
    const row = within(await group.findByRole('listitem'));
    expect(row.getByText('Sales dashboard')).toBeTruthy();
    expect(row.getByText('knk_QwEr…')).toBeTruthy();
    expect(row.getByText('Read the public catalogue · Read my earnings')).toBeTruthy();
    expect(row.getByText('Made 3 days ago · last used 5 minutes ago')).toBeTruthy();
    expect(group.getByRole('link', { name: 'How to use a key' }).getAttribute('href')).toBe('/api/docs/integrating');
  });

  it('when a key is made, then it is sent with its name and scopes, shown once with Copy, and the list is read again', async () => {
    const made: ApiKey = {
      ...dashboard,
      id: 'ZyXwVuTsRqPoNmLk',
      name: 'Uploader',
      scopes: ['catalogue:read', 'upload'],
      start: SECRET.slice(0, 8),
      lastUsedAt: null,
    };
    jest.mocked(createApiKey).mockImplementation(async () => {
      keys = [dashboard, made];
      return { key: made, secret: SECRET, message: 'Your API key is made. Copy it now: it is shown only this once.' };
    });
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    const group = await apiKeysGroup();
    fireEvent.change(group.getByPlaceholderText('What the key is for'), { target: { value: 'Uploader' } });
    fireEvent.click(group.getByRole('checkbox', { name: /Upload/ }));
    fireEvent.click(group.getByRole('button', { name: 'Make a key' }));

    expect((await group.findByLabelText('Your new API key')).textContent).toBe(SECRET);
    expect(createApiKey).toHaveBeenCalledWith({ body: { name: 'Uploader', scopes: ['catalogue:read', 'upload'] } }, QUIET_CALL);
    expect(group.getByText('Copy “Uploader” now: it is shown only this once.')).toBeTruthy();
    await waitFor(() => expect(toastTexts()).toContain('Your API key is made. Copy it now: it is shown only this once.'));
    await waitFor(() => expect(group.getAllByRole('listitem')).toHaveLength(2));
    expect(within(group.getAllByRole('listitem')[1]!).getByText(/never used/)).toBeTruthy();

    fireEvent.click(group.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));
    fireEvent.click(group.getByRole('button', { name: 'I have copied it' }));
    expect(group.queryByLabelText('Your new API key')).toBeNull();
  });

  it('when a key has no name or nothing it may do, then the form says so and nothing is sent; the server’s refusal shows too', async () => {
    const group = await apiKeysGroup();
    fireEvent.click(group.getByRole('button', { name: 'Make a key' }));
    expect((await group.findByRole('alert')).textContent).toBe('Give the key a name, so that you know later what uses it.');
    fireEvent.change(group.getByPlaceholderText('What the key is for'), { target: { value: 'Reader' } });
    fireEvent.click(group.getByRole('checkbox', { name: /Read the public catalogue/ }));
    fireEvent.click(group.getByRole('button', { name: 'Make a key' }));
    expect((await group.findByRole('alert')).textContent).toBe('Choose at least one thing the key may do.');
    expect(createApiKey).not.toHaveBeenCalled();

    jest.mocked(createApiKey).mockRejectedValue(new ApiError('You have 10 API keys, the most a member may have. Revoke one to make another.', 409, 'conflict'));
    fireEvent.click(group.getByRole('checkbox', { name: /Read my earnings/ }));
    fireEvent.click(group.getByRole('button', { name: 'Make a key' }));
    await waitFor(() => expect(toastTexts()).toContain('You have 10 API keys, the most a member may have. Revoke one to make another.'));
    expect(group.queryByLabelText('Your new API key')).toBeNull();
  });

  it('when Revoke is pressed, then it asks first; Keep it changes nothing, and Revoke revokes and the key leaves the list', async () => {
    jest.mocked(revokeApiKey).mockImplementation(async () => {
      keys = [];
      return { message: 'The API key is revoked.' };
    });
    const group = await apiKeysGroup();
    fireEvent.click(await group.findByRole('button', { name: 'Revoke Sales dashboard' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/“Sales dashboard” stops working at once/)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Keep it' }));
    expect(revokeApiKey).not.toHaveBeenCalled();

    fireEvent.click(group.getByRole('button', { name: 'Revoke Sales dashboard' }));
    const again = within(await screen.findByRole('dialog'));
    fireEvent.click(again.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(toastTexts()).toContain('The API key is revoked.'));
    expect(jest.mocked(revokeApiKey).mock.calls[0]![0]).toEqual({ path: { keyId: dashboard.id } });
    expect(await group.findByText('You have no keys yet.')).toBeTruthy();
  });
});
