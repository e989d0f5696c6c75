/**
 * Following from the client: a member's Follow on a profile moves the button and both members' counts at once, says so
 * in a toast, and the counts are read again; a visitor who presses Follow in the follow modal is asked to log in, and
 * once signed in the follow goes on by itself (the row they pressed is gone by then, with the modal).
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { getFollowCount, getFollowers, makeFollowing, signin } from '../../client/src/api/generated/operations';
import { modalOpened } from '../../client/src/lib/ui';
import { homeHeading } from './auth-app';
import { authAnswer, makeUser, storeAccount } from './auth-fixtures';
import { makeArtist } from './explore-fixtures';
import { JANE_ID, janeCard, mockReads, renderAt, toastTexts, useJaneWorld } from './profile-fixtures';
import { findDialog, mockMemberCalls, type } from './upload-fixtures';
import { sentEventNames } from './event-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();
const bea = makeUser({ id: '64b0000000000000000000b2', username: 'bea_moon', email: 'bea@example.com' });
const cleo = makeArtist('cleo_wu').user;

beforeEach(() => {
  window.localStorage.clear();
  world.cards = [{ ...janeCard(), followersCount: 12 }];
  mockReads(world);
  mockMemberCalls(bea);
});

const countReadsOf = (userId: string) => jest.mocked(getFollowCount).mock.calls.filter(([args]) => args.path.id === userId).length;

it('when Bea follows Jane on her profile, then the button and both counts move at once, a toast says so, and the counts are read again', async () => {
  storeAccount('stored-token', bea);
  jest.mocked(makeFollowing).mockImplementation(async () => {
    // From now on the server counts Bea's follow.
    jest
      .mocked(getFollowCount)
      .mockImplementation(async ({ path }) =>
        path.id === JANE_ID ? { followersCount: 13, followingsCount: 7, isFollowing: true } : { followersCount: 0, followingsCount: 1, isFollowing: false },
      );
    return { isFollowing: true, subjector: { followersCount: 13, followingsCount: 7 }, me: { followersCount: 0, followingsCount: 1 } };
  });
  await sentEventNames();
  const { store } = renderAt('/jane_doe');
  await waitFor(() => expect(store.getState().auth.session).toBe('active'));
  fireEvent.click(await screen.findByRole('button', { name: 'Follow Jane Doe' }, { timeout: 15_000 }));
  const janeReads = countReadsOf(JANE_ID);

  await waitFor(() => expect(toastTexts()).toContain('You are following Jane Doe now'));
  expect(jest.mocked(makeFollowing)).toHaveBeenCalledWith(
    { body: { subjectorId: JANE_ID, myuserId: bea.id, set: true } },
    expect.objectContaining({ quiet: undefined }),
  );
  expect(screen.getByRole('button', { name: 'Unfollow Jane Doe' }).getAttribute('aria-pressed')).toBe('true');
  expect(screen.getByRole('button', { name: '13 followers' })).toBeTruthy();
  // The reads the follow changed load again: Jane's counts, and Bea's own in the side menu.
  await waitFor(() => expect(countReadsOf(JANE_ID)).toBeGreaterThan(janeReads));
  expect(await screen.findByRole('button', { name: '1 following' })).toBeTruthy();
  expect(screen.getByRole('button', { name: '13 followers' })).toBeTruthy();
  // A product event, which does not name the member followed.
  expect(await sentEventNames()).toEqual([{ name: 'follow' }]);
});

it('when a visitor presses Follow in the follow modal, then she is asked to log in, and once she has, the follow is sent and a toast says so', async () => {
  jest.mocked(getFollowers).mockResolvedValue({ entries: [{ user: cleo, isFollowing: false, isMe: false }], nextCursor: null });
  jest.mocked(signin).mockResolvedValue(authAnswer('access-1', bea));
  jest
    .mocked(makeFollowing)
    .mockResolvedValue({ isFollowing: true, subjector: { followersCount: 1, followingsCount: 0 }, me: { followersCount: 0, followingsCount: 1 } });
  // Opened over the home page: no other Follow button is on screen.
  const { store } = renderAt('/');
  await homeHeading();
  act(() => void store.dispatch(modalOpened({ name: 'follow', userId: JANE_ID, followTab: 'followers' })));
  const follow = await findDialog('Follow');
  fireEvent.click(await follow.findByRole('button', { name: 'Follow cleo wu' }));

  const login = within((await screen.findByRole('heading', { name: 'Log in to Knack' })).closest<HTMLElement>('[role="dialog"]')!);
  expect(store.getState().ui.modalProps.origin).toBe('onClickKnack');
  expect(jest.mocked(makeFollowing)).not.toHaveBeenCalled();
  type('Email', 'bea@example.com');
  type('Password', 'Str0ng!pass');
  fireEvent.click(login.getByRole('button', { name: 'Log in' }));

  await waitFor(() => expect(toastTexts()).toContain('You are following cleo wu now'));
  expect(store.getState().ui.modal).toBeNull();
  expect(jest.mocked(makeFollowing)).toHaveBeenCalledTimes(1);
  expect(jest.mocked(makeFollowing)).toHaveBeenCalledWith({ body: { subjectorId: cleo.id, myuserId: bea.id, set: true } }, expect.anything());
});
