/**
 * Sessions in the whole SPA: the stored account and its reload at start (then userExt,
 * subscription and plans), a failed reload signing out quietly to '/', logout, the activation link, the
 * route guard, and the member's navigation (top nav and side menu head). Generated operations are mocked.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { runSaga } from 'redux-saga';
import { checkLoggedIn, confirmAccount, getAllPlans, getAuthProviders, getSubscription, getUserExt, logout } from '../../client/src/api/generated/operations';
import { knackApi } from '../../client/src/api/generated/endpoints';
import { sentEventNames } from './event-fixtures';
import { ApiError } from '../../client/src/api/http';
import { afterSignIn } from '../../client/src/features/auth/testing';
import { initialAuthState, type AuthState } from '../../client/src/features/auth';
import { initialUiState, type UiState } from '../../client/src/lib/ui';
import { loggedInSideMenu } from '../../client/src/layouts/front/navItems';
import { PRICING_HINT } from '../../client/src/layouts/front/TopNav';
import { authAnswer, makeUser, setViewport, storeAccount, storedAccount, unauthorized } from './auth-fixtures';
import { homeHeading, mockPublicCalls, renderApp } from './auth-app';
import { PLANS, plansAnswer, subscriptionOf } from './subscription-fixtures';
import { QUIET_FLOW_CALL } from './call-options';

jest.mock('../../client/src/api/generated/operations');

/** The options of a call whose failure the one error toast tells. */
const TOASTED = expect.objectContaining({ quiet: undefined });

beforeEach(() => {
  jest.resetAllMocks();
  setViewport(1280, 800);
  mockPublicCalls();
  jest.mocked(getAuthProviders).mockResolvedValue({ google: null, facebook: null });
  jest
    .mocked(getUserExt)
    .mockResolvedValue({ userExt: { country: 'US', city: 'Austin', state: 'Texas', timezone: 'America/Chicago', pCredit: 0, sCredit: 3 } });
  jest.mocked(getSubscription).mockResolvedValue({ subscription: null });
  jest.mocked(getAllPlans).mockResolvedValue(plansAnswer());
  jest.mocked(logout).mockResolvedValue({ message: 'You are logged out.' });
});

describe('session reload at start', () => {
  it('when an account is stored, then it is reloaded (new token, reacted contents) and userExt, subscription and plans load', async () => {
    storeAccount('stale-token');
    jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('fresh-token'));
    jest.mocked(getSubscription).mockResolvedValue({
      subscription: subscriptionOf(makeUser().id, 2),
    });
    const { store } = renderApp('/');
    // Signed in from the stored account at once (no flash of the visitor's navigation).
    expect(store.getState().auth.isLoggedIn).toBe(true);
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
    await waitFor(() => expect(store.getState().auth.session).toBe('active'));
    expect(checkLoggedIn).toHaveBeenCalledWith({ body: { token: 'stale-token' } }, QUIET_FLOW_CALL);
    expect(store.getState().auth.token).toBe('fresh-token');
    expect(store.getState().auth.reactedContents).toHaveLength(2);
    expect(store.getState().auth.reactedCount).toBe(2);
    expect(storedAccount()?.token).toBe('fresh-token');
    await waitFor(() => expect(store.getState().auth.plans).toEqual(PLANS));
    // The side menu's location line, from the member's extension.
    expect(await within(screen.getByRole('navigation', { name: 'Side menu' })).findByText('Austin, Texas')).toBeTruthy();
    expect(getUserExt).toHaveBeenCalledWith({ path: { id: makeUser().id } }, TOASTED);
    expect(getSubscription).toHaveBeenCalledWith({ path: { id: makeUser().id } }, TOASTED);
    await waitFor(() => expect(store.getState().auth.subscription?.planId).toBe(2));
    // A known plan shows Analytics in the side menu.
    expect(await within(screen.getByRole('navigation', { name: 'Side menu' })).findByRole('link', { name: 'Analytics' })).toBeTruthy();
  });

  it('when the reload fails, then the account is signed out quietly (no toast) and the visitor goes to /', async () => {
    storeAccount('stale-token');
    jest.mocked(checkLoggedIn).mockRejectedValue(unauthorized());
    const { store } = renderApp('/members-test');
    await waitFor(() => expect(store.getState().auth.isLoggedIn).toBe(false));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    await homeHeading();
    expect(storedAccount()).toBeNull();
    expect(store.getState().auth.user).toBeNull();
    expect(screen.queryByText('Your session has expired. Please log in again.')).toBeNull();
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
    expect(getUserExt).not.toHaveBeenCalled();
  });

  it('when nothing is stored, then no reload is attempted', async () => {
    const { store } = renderApp('/');
    await homeHeading();
    expect(checkLoggedIn).not.toHaveBeenCalled();
    expect(store.getState().auth.session).toBe('guest');
  });
});

describe('route guard', () => {
  it('when a visitor without a stored account opens a members-only route, then it redirects to /', async () => {
    renderApp('/members-test');
    await homeHeading();
    expect(window.location.pathname).toBe('/');
    expect(screen.queryByRole('heading', { name: 'Members page' })).toBeNull();
  });

  it('when an account is stored, then the members-only route opens', async () => {
    storeAccount();
    jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('fresh'));
    renderApp('/members-test');
    expect(await screen.findByRole('heading', { name: 'Members page' })).toBeTruthy();
    expect(window.location.pathname).toBe('/members-test');
  });

  it('when a guest opens the activation link, then it stays open (/confirm)', async () => {
    jest.mocked(confirmAccount).mockImplementation(() => new Promise(() => undefined));
    renderApp('/confirm?token=abc');
    expect(await screen.findByRole('heading', { name: 'Activating your account…' })).toBeTruthy();
    expect(window.location.pathname).toBe('/confirm');
  });
});

describe('logout', () => {
  it('when Logout is pressed, then the store, reacted list and storage are cleared and the visitor goes home', async () => {
    storeAccount('t1');
    jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('t2'));
    const { store } = renderApp('/members-test');
    await screen.findByRole('heading', { name: 'Members page' });
    await waitFor(() => expect(store.getState().auth.reactedCount).toBe(2));
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    await homeHeading();
    const auth = store.getState().auth;
    expect(auth).toMatchObject({ isLoggedIn: false, user: null, token: null, subscription: null, reactedContents: [], reactedCount: 0 });
    // The member's extension read for the side menu is forgotten with every other cached read.
    expect(knackApi.endpoints.getUserExt.select({ path: { id: makeUser().id } })(store.getState()).data).toBeUndefined();
    expect(storedAccount()).toBeNull();
    expect(logout).toHaveBeenCalledWith({}, QUIET_FLOW_CALL);
    expect(within(screen.getByRole('banner')).getByRole('button', { name: 'Login' })).toBeTruthy();
  });

  it('when already home, then logging out stays there', async () => {
    storeAccount('t1');
    jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('t2'));
    const push = jest.spyOn(window.history, 'pushState');
    const replace = jest.spyOn(window.history, 'replaceState');
    const { store } = renderApp('/');
    await homeHeading();
    push.mockClear();
    replace.mockClear();
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(store.getState().auth.isLoggedIn).toBe(false));
    expect(push).not.toHaveBeenCalled();
    expect(replace).not.toHaveBeenCalled();
    push.mockRestore();
    replace.mockRestore();
  });
});

describe('activation link (/confirm)', () => {
  it('when the token is valid, then the account is signed in, the success toast shows and the visitor lands home', async () => {
    jest.mocked(confirmAccount).mockResolvedValue(authAnswer('fresh', makeUser(), 'Successfully created an account.'));
    const { store } = renderApp('/confirm?token=activation-1');
    expect(await screen.findByText('Successfully created an account.')).toBeTruthy();
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(store.getState().auth.isLoggedIn).toBe(true);
    expect(storedAccount()?.token).toBe('fresh');
    // React strict mode mounts the page twice: the token is still sent once.
    expect(confirmAccount).toHaveBeenCalledTimes(1);
    expect(confirmAccount).toHaveBeenCalledWith({ body: { token: 'activation-1' } }, QUIET_FLOW_CALL);
    // The activation is the member's first sign-in.
    expect(await sentEventNames()).toEqual([{ name: 'login' }]);
  });

  it('when the token is invalid or expired, then the message shows and the visitor lands home signed out', async () => {
    jest.mocked(confirmAccount).mockRejectedValue(new ApiError('This activation link is invalid or has expired.', 400, 'bad_request'));
    const { store } = renderApp('/confirm?token=bad');
    expect(await screen.findByText('This activation link is invalid or has expired.')).toBeTruthy();
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(store.getState().auth.isLoggedIn).toBe(false);
  });
});

describe("the member's navigation", () => {
  it('when signed in on desktop, then the top nav is Pricing (with its hint), Explore, Collection, My Profile, How It Works, Logout, Upload', async () => {
    storeAccount();
    jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('fresh'));
    renderApp('/');
    await homeHeading();
    const top = screen.getByRole('banner');
    const main = within(top).getByRole('navigation', { name: 'Main' });
    expect(
      within(main)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Pricing', '/pricing'],
      ['Explore', '/explore'],
      ['Collection', '/profile/supported'],
      ['My Profile', '/profile/default'],
      ['How It Works', '/become/all'],
    ]);
    const pricing = within(main).getByRole('link', { name: 'Pricing' });
    expect(document.getElementById(pricing.getAttribute('aria-describedby')!)?.textContent).toBe(PRICING_HINT);
    expect(PRICING_HINT).toMatch(/money tab/);
    expect(PRICING_HINT).toMatch(/listing fee/);
    expect(within(top).getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(within(top).getByRole('button', { name: 'Upload' })).toBeTruthy();
    expect(within(top).queryByRole('button', { name: 'Login' })).toBeNull();
  });

  it('when signed in, then the side menu head shows initials, the username with spaces and the location line', async () => {
    storeAccount('t', makeUser({ username: 'jane_the_maker' }));
    jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('fresh', makeUser({ username: 'jane_the_maker' })));
    jest.mocked(getUserExt).mockResolvedValue({ userExt: { country: null, city: '', state: '', timezone: null, pCredit: 0, sCredit: 0 } });
    const { store } = renderApp('/');
    await homeHeading();
    const side = screen.getByRole('navigation', { name: 'Side menu' });
    expect(within(side).getByText('jane the maker')).toBeTruthy();
    // The initials are drawn (CSS content), so that they are no text of the avatar button's name.
    expect(side.querySelector('[data-glyph="JD"]')).toBeTruthy();
    // Before the extension loads (or without a city): the question.
    expect(within(side).getByRole('link', { name: 'Where are you from?' })).toBeTruthy();
    const extension = () => knackApi.endpoints.getUserExt.select({ path: { id: makeUser().id } })(store.getState());
    await waitFor(() => expect(extension().isSuccess).toBe(true));
    expect(within(side).getByRole('link', { name: 'Where are you from?' })).toBeTruthy();
    // Once the member has told their city (the settings save it, which reloads the extension): the line.
    jest.mocked(getUserExt).mockResolvedValue({ userExt: { country: 'US', city: 'Austin', state: 'TX', timezone: null, pCredit: 0, sCredit: 0 } });
    act(() => void store.dispatch(knackApi.util.invalidateTags(['Settings'])));
    expect(await within(side).findByText('Austin, TX')).toBeTruthy();
    const labels = within(side)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(labels).toEqual(['Wallet', 'Inbox', 'Your Info', 'Collection', 'Pricing', 'Explore', 'FAQ & Support', 'User Guide', 'Upload']);
    expect(labels).not.toContain('Admin');
    expect(labels).not.toContain('Log out'); // phones only
  });

  it('when the member is an admin, then Admin shows, except on the admin page', () => {
    const base = { isAdmin: true, showAnalytics: false, isPhone: false };
    expect(loggedInSideMenu({ ...base, pathname: '/' }).map((item) => item.key)).toContain('admin');
    expect(loggedInSideMenu({ ...base, pathname: '/admin' }).map((item) => item.key)).not.toContain('admin');
    expect(loggedInSideMenu({ ...base, isAdmin: false, pathname: '/' }).map((item) => item.key)).not.toContain('admin');
    expect(loggedInSideMenu({ ...base, pathname: '/wallet' }).map((item) => item.key)).not.toContain('wallet');
    expect(loggedInSideMenu({ ...base, isPhone: true, pathname: '/' }).at(-1)?.key).toBe('logout');
  });

  it('when on a phone, then the drawer lists the groups and Log out signs out', async () => {
    setViewport(390, 844);
    storeAccount('t', makeUser({ role: 'admin' }));
    jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('fresh', makeUser({ role: 'admin' })));
    const { store } = renderApp('/');
    await homeHeading();
    expect(within(screen.getByRole('banner')).queryByRole('button', { name: 'Logout' })?.className).toContain('kn-topnav__logout');
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByRole('navigation', { name: 'Side menu' });
    expect(within(drawer).getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/admin');
    const info = within(drawer).getByRole('group', { name: 'Your Information' });
    expect(within(info).getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/user-setting');
    expect(within(info).getByRole('link', { name: 'Activity History' }).getAttribute('href')).toBe('/activity-history');
    const support = within(drawer).getByRole('group', { name: 'FAQ & Support' });
    expect(
      within(support)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['FAQ', 'Comparison with NFT', 'How It Works', 'Terms', 'Privacy']);
    fireEvent.click(within(drawer).getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(store.getState().auth.isLoggedIn).toBe(false));
    expect(storedAccount()).toBeNull();
  });
});

describe('after a sign-in, by origin', () => {
  function run(origin: string | undefined, kind: 'login' | 'signup') {
    const dispatched: { type: string }[] = [];
    const state: { ui: UiState; auth: AuthState } = {
      ui: { ...initialUiState(), modal: 'login', modalProps: { origin, callback: { type: 'content/knackRequested', payload: 'c1' } } },
      auth: initialAuthState(null),
    };
    const push = jest.spyOn(window.history, 'pushState');
    runSaga({ dispatch: (action: { type: string }) => dispatched.push(action), getState: () => state }, afterSignIn, kind);
    const paths = push.mock.calls.map((call) => call[2]);
    push.mockRestore();
    return { types: dispatched.map((action) => action.type), paths };
  }

  it('when the origin is onClickKnack or comments, then the modal closes and the callback runs', () => {
    expect(run('onClickKnack', 'login').types).toEqual(['ui/modalClosed', 'content/knackRequested']);
    expect(run('comments', 'login').types).toEqual(['ui/modalClosed', 'content/knackRequested']);
    expect(run('pricing', 'signup').types).toEqual(['ui/modalClosed', 'content/knackRequested']);
    // A visitor asked to sign up from the comment box comes back to it.
    expect(run('comments', 'signup').types).toEqual(['ui/modalClosed', 'content/knackRequested']);
  });

  it('when the origin is anything else, then the callback does not run', () => {
    expect(run('userProfile', 'login').types).toEqual(['ui/modalClosed']);
    expect(run(undefined, 'login').types).toEqual(['ui/modalClosed']);
    expect(run('pricing', 'login').types).toEqual(['ui/modalClosed']);
  });
});
