/**
 * The admin home, `/admin`: admins find their tools (discount codes) and the plans, whose monthly price and
 * credits they change there; a member is sent home. The generated operations are mocked; the store, router,
 * route guard and antd inputs are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { getAllPlans, updatePlan } from '../../client/src/api/generated/operations';
import { makeUser, storeAccount } from './auth-fixtures';
import { path, renderAt, toastTexts } from './profile-fixtures';
import { mockMemberCalls } from './upload-fixtures';
import { PLANS, plansAnswer } from './subscription-fixtures';
import { renderAsMember } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const admin = () => makeUser({ id: '64b0000000000000000000a1', username: 'knack_admin', fullName: 'Knack Admin', email: 'admin@knack.example', role: 'admin' });

beforeEach(() => jest.mocked(updatePlan).mockReset());

describe('/admin', () => {
  it('when an admin opens it, then the tools are listed and a plan’s new price is saved in whole cents', async () => {
    const user = admin();
    storeAccount('stored-token', user);
    mockMemberCalls(user);
    jest.mocked(getAllPlans).mockResolvedValue(plansAnswer());
    jest.mocked(updatePlan).mockResolvedValue({ plan: { ...PLANS[0]!, priceMicros: 2_500_000, price: 2.5 } });
    renderAt('/admin');
    const tool = await screen.findByRole('link', { name: /Discount codes/ });
    expect(tool.getAttribute('href')).toBe('/creat-discount-code');

    const price = await screen.findByRole('spinbutton', { name: 'Plan 1: Standard price' });
    expect((price as HTMLInputElement).value).toBe('1.95');
    fireEvent.change(price, { target: { value: '2.5' } });
    fireEvent.blur(price);
    const row = within(price.closest('tr') as HTMLElement);
    fireEvent.click(row.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTexts()).toContain('Plan 1: Standard saved. New checkouts and renewals use it.'));
    expect(updatePlan).toHaveBeenCalledWith({ body: { planId: 1, priceMicros: 2_500_000, sCredits: 3, pCredits: 0 } }, expect.anything());
  });

  it('when a member opens it, then they are sent home', async () => {
    await renderAsMember('/admin');
    await waitFor(() => expect(path()).toBe('/'));
    expect(updatePlan).not.toHaveBeenCalled();
  });
});
