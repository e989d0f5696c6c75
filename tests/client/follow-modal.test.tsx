/**
 * The follow modal's followers list: on one's own list each follower has Remove, which asks first and then takes
 * them off (the row goes, the count moves, a toast says so); Cancel changes nothing; on another member's list
 * there is no Remove.
 */
import { fireEvent, waitFor, within } from '@testing-library/react';
import { getFollowCount, getFollowers, removeFollower } from '../../client/src/api/generated/operations';
import { modalOpened } from '../../client/src/lib/ui';
import { makeUser, storeAccount } from './auth-fixtures';
import { makeArtist } from './explore-fixtures';
import { JANE_ID, renderAt, toastTexts, useJaneWorld } from './profile-fixtures';
import { findDialog, mockMemberCalls } from './upload-fixtures';

jest.mock('../../client/src/api/generated/operations');

useJaneWorld();

const bob = makeArtist('bob_ray').user;
const cleo = makeArtist('cleo_wu').user;

/** The SPA signed in as Jane, with the follow modal opened on `userId`'s followers. */
async function openFollowers(userId: string) {
  const jane = makeUser({ id: JANE_ID, username: 'jane_doe' });
  storeAccount('stored-token', jane);
  mockMemberCalls(jane);
  jest.mocked(getFollowers).mockResolvedValue({
    entries: [
      { user: bob, isFollowing: false, isMe: false },
      { user: cleo, isFollowing: true, isMe: false },
    ],
    nextCursor: null,
  });
  const app = renderAt('/');
  await waitFor(() => expect(app.store.getState().auth.session).toBe('active'));
  app.store.dispatch(modalOpened({ name: 'follow', userId, followTab: 'followers' }));
  const dialog = await findDialog('Follow');
  await dialog.findByText('bob ray');
  return { dialog, store: app.store };
}

/** The question, while it shows (antd hides a closed modal's wrap). Found by its title: in tests every antd id is the same. */
const shownConfirm = () =>
  [...document.querySelectorAll('.ant-modal-title')]
    .find(
      (title) => title.textContent === 'Remove this follower?' && title.closest('.ant-modal-wrap')?.getAttribute('style')?.includes('display: none') !== true,
    )
    ?.closest<HTMLElement>('[role="dialog"]');
const confirmDialog = async () => within(await waitFor(() => shownConfirm() ?? Promise.reject(new Error('no question shown'))));
const confirmShown = () => Boolean(shownConfirm());

describe('removing a follower', () => {
  it('when Jane removes Bob from her followers and confirms, then his row goes, her count moves and a toast says so', async () => {
    jest.mocked(removeFollower).mockImplementation(async () => {
      // From now on the server's lists and counts are without Bob's follow.
      jest.mocked(getFollowers).mockResolvedValue({ entries: [{ user: cleo, isFollowing: true, isMe: false }], nextCursor: null });
      jest.mocked(getFollowCount).mockResolvedValue({ followersCount: 1199, followingsCount: 7, isFollowing: false });
      return { isFollower: false, follower: { followersCount: 0, followingsCount: 4 }, me: { followersCount: 1199, followingsCount: 7 } };
    });
    const { dialog } = await openFollowers(JANE_ID);
    const listReads = jest.mocked(getFollowers).mock.calls.length;
    fireEvent.click(dialog.getByRole('button', { name: 'Remove bob ray from your followers' }));
    const confirm = await confirmDialog();
    expect(confirm.getByText('bob ray will no longer follow you, and will not see your pieces shown to followers. They can follow you again.')).toBeTruthy();
    fireEvent.click(confirm.getByRole('button', { name: 'Remove' }));

    await waitFor(() => expect(toastTexts()).toContain('bob ray no longer follows you'));
    expect(jest.mocked(removeFollower)).toHaveBeenCalledWith({ path: { id: bob.id } }, expect.objectContaining({ quiet: undefined }));
    await waitFor(() => expect(dialog.queryByText('bob ray')).toBeNull());
    expect(dialog.getByText('cleo wu')).toBeTruthy();
    expect(dialog.getByRole('tab', { name: 'Followers (1199)' })).toBeTruthy();
    // The list it changed is read again, and says the same.
    await waitFor(() => expect(jest.mocked(getFollowers).mock.calls.length).toBe(listReads + 1));
    expect(dialog.queryByText('bob ray')).toBeNull();
    expect(dialog.getByRole('tab', { name: 'Followers (1199)' })).toBeTruthy();
  });

  it('when Jane cancels the question, then nothing is sent and Bob stays', async () => {
    const { dialog } = await openFollowers(JANE_ID);
    fireEvent.click(dialog.getByRole('button', { name: 'Remove bob ray from your followers' }));
    fireEvent.click((await confirmDialog()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(confirmShown()).toBe(false));
    expect(jest.mocked(removeFollower)).not.toHaveBeenCalled();
    expect(dialog.getByText('bob ray')).toBeTruthy();
  });

  it('when Jane looks at another member’s followers, or at whom she follows, then there is no Remove', async () => {
    const { dialog } = await openFollowers(bob.id);
    expect(dialog.queryByRole('button', { name: /from your followers/ })).toBeNull();
    expect(dialog.getAllByRole('button', { name: /Follow|Unfollow/ }).length).toBeGreaterThan(0);
  });
});
