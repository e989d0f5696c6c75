/**
 * Pricing and subscribing on the client: the plans with their server-set prices and monthly credits, the
 * listing fees and the per-play comparison; a visitor's Subscribe going through sign-up first; a member's
 * subscription modal sending the browser to the provider's checkout; the member's own plan (renewal date,
 * cancel, credits and where they came from); and the return page asking the server what the webhook decided
 * ('Subscription approved!' with the plan loaded again, or 'Subscription payment failed'). The generated
 * operations are mocked; the store, sagas, router and toasts are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  createSubscription,
  getAllPlans,
  getCreditMovements,
  getSubscription,
  getSubscriptionStatus,
  getUserExt,
  updateSubscription,
} from '../../client/src/api/generated/operations';
import type { components } from '../../generated/openapi';
import { findDialog, mockMemberCalls } from './upload-fixtures';
import { renderAt, toastTexts } from './profile-fixtures';
import { bea, catchCheckout } from './wallet-fixtures';
import { storeAccount } from './auth-fixtures';
import { mockPublicCalls } from './auth-app';
import { plansAnswer, subscriptionOf } from './subscription-fixtures';

jest.mock('../../client/src/api/generated/operations');

type Subscription = components['schemas']['Subscription'];

/** The SPA at `path`, signed in as `member` with the plans offered and `subscription` (none by default). */
async function renderMember(path: string, member = bea(), subscription: Subscription | null = null, credits = { sCredit: 0, pCredit: 0 }) {
  storeAccount('stored-token', member);
  mockMemberCalls(member);
  jest.mocked(getAllPlans).mockResolvedValue(plansAnswer());
  jest.mocked(getSubscription).mockResolvedValue({ subscription });
  jest.mocked(getUserExt).mockResolvedValue({ userExt: { country: null, city: '', state: '', timezone: null, ...credits } });
  const app = renderAt(path);
  await waitFor(() => expect(app.store.getState().auth.session).toBe('active'));
  return app;
}

const planCard = async (name: string) => within((await screen.findByRole('heading', { name })).closest('li') as HTMLElement);

beforeEach(() => {
  jest.mocked(getCreditMovements).mockResolvedValue({ credits: { sCredit: 0, pCredit: 0 }, movements: [] });
});

describe('/pricing', () => {
  it('when a visitor opens Pricing, then the plans show their monthly price and credits, the fee tiers and the per-play rates; Subscribe asks to sign up first', async () => {
    mockPublicCalls();
    jest.mocked(getAllPlans).mockResolvedValue(plansAnswer());
    const { store } = renderAt('/pricing');
    const premium = await planCard('Plan 2: Premium');
    expect(premium.getByText('$13.05')).toBeTruthy();
    expect(premium.getByText('1 standard listing credit a month')).toBeTruthy();
    expect(premium.getByText('1 premium listing credit a month')).toBeTruthy();
    const standard = await planCard('Plan 1: Standard');
    expect(standard.getByText('$1.95')).toBeTruthy();
    expect(standard.getByText('3 standard listing credits a month')).toBeTruthy();
    expect(screen.getByText('$0.65').closest('li')!.textContent).toBe('$0.65 standard listing, for a piece whose knack is under $0.99');
    expect(screen.getByText('$12.40').closest('li')!.textContent).toBe('$12.40 premium listing, for a piece whose knack is $0.99 or more');

    const rates = within(screen.getByRole('table', { name: 'What one play pays the artist' }));
    expect(rates.getAllByRole('row').map((row) => row.textContent)).toEqual([
      'WherePer play or view',
      'Knack$0.05 and up',
      'YouTube Music$0.0010',
      'Spotify$0.0032',
      'Apple Music$0.0080',
      'Amazon Music$0.0032',
    ]);
    expect(screen.queryByRole('region', { name: 'Your plan' })).toBeNull();

    fireEvent.click(premium.getByRole('button', { name: 'Subscribe to Premium' }));
    await waitFor(() => expect(store.getState().ui.modal).toBe('signup'));
    expect(store.getState().ui.modalProps).toMatchObject({
      origin: 'pricing',
      callback: { type: 'ui/modalOpened', payload: { name: 'subscription', planId: 2 } },
    });
  });

  it('when a member without a plan subscribes to Premium, then the modal shows the price and credits and Continue sends the browser to the checkout', async () => {
    const go = catchCheckout();
    const checkoutUrl = 'https://pay.example/checkout/cs_1';
    jest.mocked(createSubscription).mockResolvedValue({ status: 'checkout', subscriptionId: 'sub_0123456789abcdef0123', checkoutUrl });
    await renderMember('/pricing');
    const premium = await planCard('Plan 2: Premium');
    expect(await screen.findByText('You have no plan. Listing fees are paid one piece at a time, or choose a plan below.')).toBeTruthy();
    fireEvent.click(premium.getByRole('button', { name: 'Subscribe to Premium' }));
    const dialog = await findDialog('Subscribe to Premium');
    expect(dialog.getByText('$13.05').parentElement!.textContent).toBe('$13.05 a month');
    expect(dialog.getByText(/Every month you get 1 standard and 1 premium listing credits/)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Continue to payment' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith(checkoutUrl));
    expect(createSubscription).toHaveBeenCalledWith({ body: { planId: 2 } }, expect.anything());
  });

  it('when a member on Premium opens Pricing, then it says when the plan renews, other plans wait for a cancel, and Cancel renewal says the plan stays to the month’s end', async () => {
    const member = bea();
    jest.mocked(getCreditMovements).mockResolvedValue({
      credits: { sCredit: 1, pCredit: 1 },
      movements: [{ id: 'plan:sub_1:2026-11-24', standard: 1, premium: 1, reason: 'plan', ref: 'sub_1', note: null, at: '2026-11-24T10:00:00.000Z' }],
    });
    await renderMember('/pricing', member, subscriptionOf(member.id, 2), { sCredit: 1, pCredit: 1 });

    const mine = await planCard('Plan 2: Premium');
    await waitFor(() => expect(mine.getByRole('button', { name: 'Your plan' })).toHaveProperty('disabled', true));
    expect((await planCard('Plan 1: Standard')).getByRole('button', { name: 'Cancel the renewal of your plan first' })).toHaveProperty('disabled', true);
    const yours = within(screen.getByRole('region', { name: 'Your plan' }));
    expect(yours.getByText(/Renews on/)).toBeTruthy();
    expect(yours.getByTestId('credits-left').textContent).toBe('Credits left: 1 standard, 1 premium');
    fireEvent.click(yours.getByText('Where your credits came from and went'));
    expect(yours.getByRole('cell', { name: 'Plan month' })).toBeTruthy();

    jest.mocked(updateSubscription).mockResolvedValue({ subscription: subscriptionOf(member.id, 2, { cancelAtPeriodEnd: true }) });
    jest.mocked(getSubscription).mockResolvedValue({ subscription: subscriptionOf(member.id, 2, { cancelAtPeriodEnd: true }) });
    fireEvent.click(yours.getByRole('button', { name: 'Cancel renewal' }));
    await waitFor(() => expect(toastTexts()).toContain('Your plan will not renew. It stays until the end of the month you paid for.'));
    expect(updateSubscription).toHaveBeenCalledWith({ body: { subscriptionId: 'sub_0123456789abcdef0123', cancelAtPeriodEnd: true } }, expect.anything());
    expect(await yours.findByText(/Does not renew\. The plan ends on/)).toBeTruthy();
    expect(mine.getByRole('button', { name: 'Subscribe to Premium' })).toBeTruthy();
  });
});

describe('back from the subscription checkout', () => {
  it('when the webhook approved it, then "Subscription approved!", the plan loads again, and Pricing shows it', async () => {
    const member = bea();
    jest.mocked(getSubscriptionStatus).mockResolvedValue({ subscription: subscriptionOf(member.id, 2), message: 'Subscription approved!' });
    const { store } = await renderMember('/approve?subscription=sub_0123456789abcdef0123', member);
    // The webhook has made the plan active: the member's subscription, asked again, answers it.
    jest.mocked(getSubscription).mockResolvedValue({ subscription: subscriptionOf(member.id, 2) });
    await waitFor(() => expect(toastTexts()).toContain('Subscription approved!'));
    expect(getSubscriptionStatus).toHaveBeenCalledWith({ path: { id: 'sub_0123456789abcdef0123' } }, expect.anything());
    await waitFor(() => expect(store.getState().auth.subscription?.planId).toBe(2));
    await waitFor(() => expect(window.location.pathname).toBe('/pricing'));
  });

  it('when the checkout ended unpaid, then "Subscription payment failed" and no plan', async () => {
    const member = bea();
    jest.mocked(getSubscriptionStatus).mockResolvedValue({
      subscription: subscriptionOf(member.id, 2, { status: 'failed', currentPeriodEnd: null }),
      message: 'Subscription payment failed',
    });
    const { store } = await renderMember('/cancel?subscription=sub_0123456789abcdef0123', member);
    await waitFor(() => expect(toastTexts()).toContain('Subscription payment failed'));
    await waitFor(() => expect(window.location.pathname).toBe('/pricing'));
    expect(store.getState().auth.subscription).toBeNull();
  });
});
