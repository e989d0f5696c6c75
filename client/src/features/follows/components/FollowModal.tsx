import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Modal from 'antd/es/modal';
import Tabs from 'antd/es/tabs';
import AntButton from 'antd/es/button';
import { useGetFollowersInfiniteQuery, useGetFollowingsInfiniteQuery, useRemoveFollowerMutation } from '../../../api/generated/endpoints';
import type { GetFollowersResult } from '../../../api/generated/operations';
import { usePagedList } from '../../../api/pagedList';
import { PATHS } from '../../../lib/constants';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalClosed, selectIsPhone, selectModalProps } from '../../../lib/ui';
import { ResponsiveModal } from '../../../components/modal';
import { notify } from '../../../components/notify';
import { UserAvatar } from '../../../components/UserAvatar';
import { displayUsername } from '../../../lib/userNames';
import { profilePath } from '../../../lib/links';
import { selectUser } from '../../auth';
import { showFollowerRemoved, useFollowCounts } from '../follows.cache';
import { useFollowAfterSignIn } from '../follows.change';
import { FollowButton } from './FollowButton';
import './follows.css';

type Tab = 'followers' | 'following';
/** A row of a follow list, known by its member's id. */
type Entry = GetFollowersResult['entries'][number] & { id: string };

const rowsOf = (page: GetFollowersResult): Entry[] => page.entries.map((entry) => ({ ...entry, id: entry.user.id }));

/** One tab's list, in pages, while the modal shows it. */
function useFollowList(userId: string, viewerId: string, tab: Tab, open: boolean) {
  const args = { path: { userId, id: viewerId }, quiet: 'the modal shows the failure in place of the list' };
  const followers = useGetFollowersInfiniteQuery(args, { skip: !open || tab !== 'followers' });
  const followings = useGetFollowingsInfiniteQuery(args, { skip: !open || tab !== 'following' });
  return usePagedList(tab === 'followers' ? followers : followings, rowsOf);
}

const removedFollowerToast = (name: string) => `${name} no longer follows you`;

/**
 * Asks the owner of a followers list before taking a member off it: that member's follow ends, and with it what they
 * see of the owner's pieces shown to followers.
 */
function RemoveFollowerConfirm({ ownerId, entry, onClose }: { ownerId: string; entry: Entry | null; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const [removeFollower, removal] = useRemoveFollowerMutation();
  const name = entry ? displayUsername(entry.user.username) : '';
  const remove = async () => {
    if (!entry) return;
    try {
      const answer = await removeFollower({ path: { id: entry.user.id } }).unwrap();
      dispatch(showFollowerRemoved(entry.user.id, ownerId, answer));
      notify('success', removedFollowerToast(name));
      onClose();
    } catch {
      // The one error toast has shown the server's message; the question stays open to try again.
    }
  };
  return (
    <Modal
      open={Boolean(entry)}
      title="Remove this follower?"
      okText="Remove"
      okButtonProps={{ danger: true, loading: removal.isLoading }}
      onOk={() => void remove()}
      onCancel={removal.isLoading ? undefined : onClose}
    >
      <p>{`${name} will no longer follow you, and will not see your pieces shown to followers. They can follow you again.`}</p>
    </Modal>
  );
}

/**
 * The follow modal: a member's followers and the members they follow, in two tabs. Each row has the member's
 * avatar and name (a click goes to their profile, or one's own) and Follow / Unfollow (not on one's own row). In
 * one's own followers, each row also has Remove, which asks first.
 */
export default function FollowModal({ open }: { open: boolean }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const props = useAppSelector(selectModalProps);
  const viewer = useAppSelector(selectUser);
  const isPhone = useAppSelector(selectIsPhone);
  const userId = props.userId ?? '';
  const [tab, setTab] = useState<Tab>(props.followTab ?? 'followers');
  const counts = useFollowCounts(userId, open && Boolean(userId));
  const list = useFollowList(userId, viewer?.id ?? userId, tab, open && Boolean(userId));
  useFollowAfterSignIn();
  const ownLists = Boolean(viewer) && viewer?.id === userId;
  const ownFollowers = ownLists && tab === 'followers';
  const [removing, setRemoving] = useState<Entry | null>(null);

  useEffect(() => {
    if (open) setTab(props.followTab ?? 'followers');
  }, [open, props.followTab]);

  const go = (entry: Entry) => {
    dispatch(modalClosed());
    void navigate(entry.isMe ? PATHS.myProfile : profilePath(entry.user.username));
  };

  const rows = (
    <>
      {list.error ? <p className="kn-follow-modal__empty">{list.error.message}</p> : null}
      {list.status === 'ready' && !list.items.length ? (
        <p className="kn-follow-modal__empty">{tab === 'followers' ? 'No followers yet.' : 'Not following anyone yet.'}</p>
      ) : null}
      <ul className="kn-follow-list">
        {list.items.map((entry) => (
          <li key={entry.user.id} className="kn-follow-row">
            <button type="button" className="kn-follow-row__person" onClick={() => go(entry)}>
              <UserAvatar user={entry.user} size={36} />
              <span className="kn-follow-row__name">{displayUsername(entry.user.username)}</span>
            </button>
            {entry.isMe ? null : (
              <FollowButton
                userId={entry.user.id}
                name={displayUsername(entry.user.username)}
                size="small"
                initiallyFollowing={entry.isFollowing}
                load={false}
              />
            )}
            {ownFollowers && !entry.isMe ? (
              <AntButton
                size="small"
                danger
                aria-label={`Remove ${displayUsername(entry.user.username)} from your followers`}
                onClick={() => setRemoving(entry)}
              >
                Remove
              </AntButton>
            ) : null}
          </li>
        ))}
      </ul>
      {list.hasMore ? (
        <AntButton type="link" loading={list.loadingMore} onClick={list.loadMore}>
          Show more
        </AntButton>
      ) : null}
    </>
  );

  return (
    <ResponsiveModal
      open={open}
      onCancel={() => dispatch(modalClosed())}
      footer={null}
      // One's own followers have Remove beside Follow: wider, on both tabs so the modal keeps its size.
      width={ownLists ? 400 : 300}
      title="Follow"
      styles={isPhone ? undefined : { body: { height: 520, overflowY: 'auto' } }}
    >
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as Tab)}
        items={[
          { key: 'followers', label: `Followers${counts ? ` (${counts.followersCount})` : ''}`, children: tab === 'followers' ? rows : null },
          { key: 'following', label: `Following${counts ? ` (${counts.followingsCount})` : ''}`, children: tab === 'following' ? rows : null },
        ]}
      />
      <RemoveFollowerConfirm ownerId={userId} entry={removing} onClose={() => setRemoving(null)} />
    </ResponsiveModal>
  );
}
