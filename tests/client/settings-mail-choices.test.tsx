/**
 * The mails a member chooses in the settings' personal group: the weekly digest, the monthly statement and the payout
 * notice, each on its own (one a mail's unsubscribe link turned off is turned on again here), the digest only with
 * news mail on. The generated operations are mocked; the store, router and toasts are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { getCountries, getRegions, getWalletSummary, updatePersonal } from '../../client/src/api/generated/operations';
import { QUIET_CALL } from './call-options';
import { JANE_ID, toastTexts, useJaneWorld } from './profile-fixtures';
import { jane, renderAsMember, walletSummary } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

useJaneWorld();

beforeEach(() => {
  jest.mocked(getCountries).mockResolvedValue({ countries: [] });
  jest.mocked(getRegions).mockResolvedValue({ regions: [] });
  jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 0 }));
  jest.mocked(updatePersonal).mockImplementation(async ({ body }) => ({ message: 'Success', user: { ...jane(), ...body } }));
});

const DIGEST = 'Email me a weekly digest of new pieces from the artists I follow';
const STATEMENT = 'Email me a monthly statement of what my pieces earned';
const PAYOUTS = 'Email me when a payout or cash-out is sent';
const NEWS = 'Email me news from Knack and about my messages';

async function personalGroup() {
  const form = within(await screen.findByRole('form', { name: 'About you' }));
  const box = (name: string) => form.getByRole('checkbox', { name }) as HTMLInputElement;
  return { form, box, save: () => fireEvent.click(form.getByRole('button', { name: 'Save' })) };
}

describe('the mails a member chooses in the settings', () => {
  it('when Jane turns the digest she unsubscribed from on again and the payout notices off, then both are saved, the statement left on', async () => {
    await renderAsMember('/user-setting', { ...jane(), willReceiveDigest: false });
    const { box, save } = await personalGroup();
    expect([box(DIGEST).checked, box(STATEMENT).checked, box(PAYOUTS).checked]).toEqual([false, true, true]);

    fireEvent.click(box(DIGEST));
    fireEvent.click(box(PAYOUTS));
    save();

    await waitFor(() => expect(toastTexts()).toContain('Success'));
    expect(updatePersonal).toHaveBeenCalledWith(
      {
        path: { id: JANE_ID },
        body: expect.objectContaining({ willReceiveNews: true, willReceiveDigest: true, willReceiveStatements: true, willReceivePayoutNotices: false }),
      },
      QUIET_CALL,
    );
  }, 30_000);

  it('when news mail is off, then the digest cannot be chosen and shows off', async () => {
    await renderAsMember('/user-setting');
    const { box } = await personalGroup();
    expect(box(DIGEST).checked).toBe(true);
    fireEvent.click(box(NEWS));
    expect(box(DIGEST).checked).toBe(false);
    expect(box(DIGEST).disabled).toBe(true);
  }, 30_000);
});
