/**
 * `/analytics` and the earnings analytics modal: a member on a known plan sees the value of what they uploaded and
 * collected, the earnings charts (a donut by tag and a line by day, each with its table view) for the category and
 * period they choose, and each of their pieces with its knacks (a count they hide is theirs to see), embed plays,
 * knack and whether it is listed, and where their embeds earn (in the wallet too); a member without a plan is told that
 * analytics come with one, and where the plans are. The generated operations are mocked; the store, router and route guard are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  getAllPlans,
  getContentsByUsername,
  getEarningsAnalytics,
  getEmbedHostEarnings,
  getListingForecast,
  getPaidHistory,
  getSubscription,
  getUserHistory,
  getWalletSummary,
  type GetEarningsAnalyticsArgs,
  type GetEarningsAnalyticsResult,
  type GetEmbedHostEarningsArgs,
  type GetEmbedHostEarningsResult,
} from '../../client/src/api/generated/operations';
import { modalTitled } from './dialogs';
import { renderAt, useJaneWorld } from './profile-fixtures';
import { storeAccount } from './auth-fixtures';
import { mockMemberCalls } from './upload-fixtures';
import { plansAnswer, subscriptionOf } from './subscription-fixtures';
import { forecastFor, jane, walletSummary } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();

const tag = (id: string, label: string, knackPrice = 0.05, rate = 0) => ({ id, label, price: knackPrice * 12.5, knackPrice, rate, totalReactedCount: 10 });
const JAZZ = tag('64c0000000000000000000a1', 'Jazz', 0.05, 4.76);
const ROCK = tag('64c0000000000000000000a2', 'Rock');
const TRAVEL = tag('64c0000000000000000000b1', 'Travel', 0.06, -1.5);

/** What the server answers for a period and category: Music has Jazz and Rock earnings, Photos has Travel's. */
function figuresFor({ query }: GetEarningsAnalyticsArgs): GetEarningsAnalyticsResult {
  const period = query?.period ?? 'week';
  const type = query?.type ?? 'music';
  const length = period === 'week' ? 7 : 30;
  const days = Array.from({ length }, (_, i) => {
    const day = new Date(Date.UTC(2026, 10, 27 - length + 1 + i)).toISOString().slice(0, 10);
    return { day, earned: i === length - 1 ? 0.27 : 0, earnedMicros: i === length - 1 ? 270_000 : 0, knacks: i === length - 1 ? 6 : 0, tagPrice: 0.625 };
  });
  const music = [
    { tagId: JAZZ.id, label: 'Jazz', earned: 0.18, earnedMicros: 180_000, knacks: 4, share: 66.67 },
    { tagId: ROCK.id, label: 'Rock', earned: 0.09, earnedMicros: 90_000, knacks: 2, share: 33.33 },
  ];
  const photos = [{ tagId: TRAVEL.id, label: 'Travel', earned: 0.27, earnedMicros: 270_000, knacks: 6, share: 100 }];
  return {
    userId: jane().id,
    period,
    type,
    from: days[0]!.day,
    to: days[length - 1]!.day,
    countedAt: '2026-11-27T10:00:00.000Z',
    earned: 0.27,
    earnedMicros: 270_000,
    knacks: 6,
    days,
    byTag: type === 'photos' ? photos : music,
    tag: type === 'photos' ? TRAVEL : JAZZ,
    topTags: type === 'photos' ? [TRAVEL] : [JAZZ, ROCK],
  };
}

/** What the server answers of Jane's plays and earnings by site: a fan's blog and Knack itself; the month adds a forum. */
function hostsFor({ query }: GetEmbedHostEarningsArgs): GetEmbedHostEarningsResult {
  const period = query?.period ?? 'week';
  const row = (host: string | null, plays: number, knacks: number, earnedMicros: number) => ({ host, plays, knacks, earned: earnedMicros / 1e6, earnedMicros });
  const hosts = [row('fans.example', 12, 3, 135_000), row(null, 0, 2, 90_000), ...(period === 'month' ? [row('forum.example', 4, 0, 0)] : [])];
  return {
    userId: jane().id,
    period,
    from: '2026-11-21',
    to: '2026-11-27',
    countedAt: '2026-11-27T10:00:00.000Z',
    plays: hosts.reduce((sum, one) => sum + one.plays, 0),
    knacks: 5,
    earned: 0.225,
    earnedMicros: 225_000,
    hostsCount: hosts.length,
    hosts,
  };
}

/** Chooses an option of one of the panel's dropdowns (an antd Select named `name`). */
async function choose(name: string, option: string, where: Pick<typeof screen, 'getByRole'> = screen) {
  fireEvent.mouseDown(where.getByRole('combobox', { name }));
  fireEvent.click(await screen.findByText(option, { selector: '.ant-select-item-option-content' }));
}

/** The rows of a chart's table view, as text. */
const tableRows = (caption: string, where: Pick<typeof screen, 'getByRole'> = screen) =>
  within(where.getByRole('table', { name: caption }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.textContent);

async function renderJane(onPlan: boolean, path = '/analytics') {
  const user = jane();
  storeAccount('stored-token', user);
  mockMemberCalls(user);
  jest.mocked(getAllPlans).mockResolvedValue(plansAnswer());
  jest.mocked(getSubscription).mockResolvedValue({ subscription: onPlan ? subscriptionOf(user.id, 2) : null });
  jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ uploads: 12.5, collections: 0.65 }));
  jest.mocked(getContentsByUsername).mockResolvedValue({ contents: world.pieces.slice(0, 2), nextCursor: null });
  jest.mocked(getUserHistory).mockResolvedValue({ items: [], nextCursor: null });
  jest.mocked(getPaidHistory).mockResolvedValue({ items: [], nextCursor: null });
  jest
    .mocked(getEarningsAnalytics)
    .mockReset()
    .mockImplementation(async (args: GetEarningsAnalyticsArgs) => figuresFor(args));
  jest
    .mocked(getEmbedHostEarnings)
    .mockReset()
    .mockImplementation(async (args: GetEmbedHostEarningsArgs) => hostsFor(args));
  const app = renderAt(path);
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

  it('when a member on a plan switches to PAST MONTH and Photos, then the charts ask for those figures and show them, with their table views', async () => {
    await renderJane(true);
    await screen.findByRole('img', { name: /^Music earnings by tag: Jazz \$0\.18 \(66\.67%\), Rock \$0\.09 \(33\.33%\)\.$/ });
    expect(tableRows('Music earnings by tag')).toEqual(['Jazz$0.18466.67%', 'Rock$0.09233.33%']);
    expect(tableRows('Music earnings and Jazz price by day')).toHaveLength(7);
    expect(screen.getByRole('button', { name: /^Jazz/ }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: /^Jazz/ }).textContent).toContain('$0.05 a knack');
    expect(screen.getByLabelText('up 4.76% today')).toBeTruthy();
    expect(getEarningsAnalytics).toHaveBeenLastCalledWith({ path: { id: jane().id }, query: { period: 'week', type: 'music' } }, expect.anything());

    await choose('Period', 'PAST MONTH');
    await waitFor(() => expect(tableRows('Music earnings and Jazz price by day')).toHaveLength(30));
    await choose('Category', 'Photos');
    await waitFor(() => expect(tableRows('Photos earnings by tag')).toEqual(['Travel$0.276100%']));
    expect(getEarningsAnalytics).toHaveBeenLastCalledWith({ path: { id: jane().id }, query: { period: 'month', type: 'photos' } }, expect.anything());
    expect(tableRows('Photos earnings and Travel price by day')).toHaveLength(30);
    expect(screen.getByLabelText('down 1.50% today')).toBeTruthy();

    // A tag of the list is chosen for the line.
    jest.mocked(getEarningsAnalytics).mockClear();
    fireEvent.click(screen.getByRole('button', { name: /^Travel/ }));
    await waitFor(() =>
      expect(getEarningsAnalytics).toHaveBeenLastCalledWith(
        { path: { id: jane().id }, query: { period: 'month', type: 'photos', tagId: TRAVEL.id } },
        expect.anything(),
      ),
    );
  });

  it('when a member searches a tag and picks a suggestion, then its category and the tag are asked for, whatever the category was', async () => {
    await renderJane(true);
    await screen.findByRole('table', { name: 'Music earnings by tag' });
    const search = screen.getByRole('combobox', { name: 'Search a tag' });
    fireEvent.mouseDown(search);
    fireEvent.change(search, { target: { value: 'trav' } });
    fireEvent.click(await screen.findByText('Travel · Photos', { selector: '.ant-select-item-option-content' }));
    await waitFor(() =>
      expect(getEarningsAnalytics).toHaveBeenLastCalledWith(
        { path: { id: jane().id }, query: { period: 'week', type: 'photos', tagId: expect.stringMatching(/^[0-9a-f]{24}$/) } },
        expect.anything(),
      ),
    );
    await screen.findByRole('table', { name: 'Photos earnings by tag' });
    expect((search as HTMLInputElement).value).toBe('Travel');
  });

  it('when a member on a plan opens Earnings analytics from the wallet, then the modal shows the charts', async () => {
    await renderJane(true, '/wallet');
    fireEvent.click(await screen.findByRole('button', { name: 'Earnings analytics' }));
    const modal = await modalTitled('Earnings analytics');
    await waitFor(() => expect(modal.getByRole('table', { name: 'Music earnings by tag' })).toBeTruthy());
    expect(modal.getByRole('combobox', { name: 'Search a tag' })).toBeTruthy();
  });

  it('when a member opens the wallet, then it shows where their embeds earn, by site with the total, for the period they choose; the modal shows them for its own', async () => {
    await renderJane(true, '/wallet');
    const embeds = 'Where your embeds earn';
    await waitFor(() => expect(tableRows(embeds)).toEqual(['fans.example123$0.13', 'Knack itself02$0.09', 'Total125$0.22']));
    expect(getEmbedHostEarnings).toHaveBeenLastCalledWith({ path: { id: jane().id }, query: { period: 'week' } }, expect.anything());
    fireEvent.click(screen.getByText('Past month'));
    await waitFor(() => expect(tableRows(embeds)).toEqual(['fans.example123$0.13', 'Knack itself02$0.09', 'forum.example40$0.00', 'Total165$0.22']));
    expect(getEmbedHostEarnings).toHaveBeenLastCalledWith({ path: { id: jane().id }, query: { period: 'month' } }, expect.anything());

    fireEvent.click(screen.getByRole('button', { name: 'Earnings analytics' }));
    const modal = await modalTitled('Earnings analytics');
    await waitFor(() => expect(tableRows(embeds, modal)).toHaveLength(3));
    expect(modal.queryByText('Past month')).toBeNull(); // the modal's own Period decides
    // The wallet's statement has a Period of its own: the modal's is chosen.
    await choose('Period', 'PAST MONTH', modal);
    await waitFor(() => expect(tableRows(embeds, modal)).toHaveLength(4));
  });

  it('when a member asks when an unlisted piece would pay back, then the forecast is asked for that piece only and its sentence shows in the row', async () => {
    // The page lists the first two pieces: one listed, one not.
    const [listed, unlisted] = world.pieces;
    world.pieces[0] = { ...listed!, isPaidOut: true };
    world.pieces[1] = { ...unlisted!, isPaidOut: false };
    const forecast = forecastFor(unlisted!.id);
    jest.mocked(getListingForecast).mockResolvedValue(forecast);
    await renderJane(true);
    const table = within(await screen.findByRole('table', { name: 'Your pieces' }));
    expect(getListingForecast).not.toHaveBeenCalled();
    expect(table.queryByRole('button', { name: `When would listing “${listed!.title}” pay back?` })).toBeNull();
    fireEvent.click(table.getByRole('button', { name: `When would listing “${unlisted!.title}” pay back?` }));
    await table.findByText(`No. ${forecast.message}`);
    expect(getListingForecast).toHaveBeenCalledTimes(1);
    expect(getListingForecast).toHaveBeenCalledWith({ path: { id: unlisted!.id } }, expect.anything());
  });

  it('when a member without a plan opens it, then it says analytics come with a plan and links to Pricing', async () => {
    await renderJane(false);
    const link = await screen.findByRole('link', { name: 'See the plans' });
    expect(link.getAttribute('href')).toBe('/pricing');
    expect(screen.queryByRole('table')).toBeNull();
    expect(getContentsByUsername).not.toHaveBeenCalled();
  });
});
