/**
 * `/analytics`: a member on a known plan sees the value of what they uploaded and collected, and each of their
 * pieces with its knacks (a count they hide is theirs to see), embed plays, knack and whether it is listed; a
 * member without a plan is told that analytics come with one, and where the plans are. The generated operations
 * are mocked; the store, router and route guard are real.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { getAllPlans, getContentsByUsername, getSubscription, getWalletSummary } from '../../client/src/api/generated/operations';
import { renderAt, useJaneWorld } from './profile-fixtures';
import { storeAccount } from './auth-fixtures';
import { mockMemberCalls } from './upload-fixtures';
import { plansAnswer, subscriptionOf } from './subscription-fixtures';
import { jane, walletSummary } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();

async function renderJane(onPlan: boolean) {
  const user = jane();
  storeAccount('stored-token', user);
  mockMemberCalls(user);
  jest.mocked(getAllPlans).mockResolvedValue(plansAnswer());
  jest.mocked(getSubscription).mockResolvedValue({ subscription: onPlan ? subscriptionOf(user.id, 2) : null });
  jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ uploads: 12.5, collections: 0.65 }));
  jest.mocked(getContentsByUsername).mockResolvedValue({ contents: world.pieces.slice(0, 2), nextCursor: null });
  const app = renderAt('/analytics');
  await waitFor(() => expect(app.store.getState().auth.session).toBe('active'));
  return app;
}

describe('/analytics', () => {
  it('when a member on a plan opens it, then the value figures and a row per piece with its knacks show, and the totals add up', async () => {
    await renderJane(true);
    const value = within(await screen.findByLabelText('Value'));
    await waitFor(() => expect(value.getByText('$12.50')).toBeTruthy());
    expect(value.getByText('$0.65')).toBeTruthy();
    expect(value.getByText('$13.15')).toBeTruthy();
    const table = within(await screen.findByRole('table', { name: 'Your pieces' }));
    const [first, second] = world.pieces;
    const rows = table.getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[1]!).getByRole('link', { name: first!.title }).getAttribute('href')).toBe(first!.link);
    expect(within(rows[2]!).getByRole('link', { name: second!.title })).toBeTruthy();
    const total = (first!.reactedCount ?? 0) + (second!.reactedCount ?? 0);
    expect(within(rows[3]!).getAllByRole('cell')[0]!.textContent).toBe(total.toLocaleString());
    expect(getContentsByUsername).toHaveBeenCalledWith({ path: { username: 'jane_doe' }, query: { limit: 50 } }, expect.anything());
  });

  it('when a member without a plan opens it, then it says analytics come with a plan and links to Pricing', async () => {
    await renderJane(false);
    const link = await screen.findByRole('link', { name: 'See the plans' });
    expect(link.getAttribute('href')).toBe('/pricing');
    expect(screen.queryByRole('table')).toBeNull();
    expect(getContentsByUsername).not.toHaveBeenCalled();
  });
});
