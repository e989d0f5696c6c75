import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Modal from 'antd/es/modal';
import Tabs from 'antd/es/tabs';
import AntButton from 'antd/es/button';
import { useRemoveFollower } from '../../../api/generated/hooks';
import { getFollowers, getFollowings, type GetFollowersResult } from '../../../api/generated/operations';
import { toApiError } from '../../../api/http';
import { PATHS } from '../../../lib/constants';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalClosed, selectIsPhone, selectModalProps } from '../../../lib/ui';
import { notify } from '../../../components/notify';
import { UserAvatar } from '../../../components/UserAvatar';
import { displayUsername } from '../../../lib/userNames';
import { profilePath } from '../../../lib/links';
import { selectUser } from '../../auth';
import { selectFollowCounts } from '../follows.selectors';
import { countsLoaded, countsRequested, followingSeen } from '../follows.slice';
import { FollowButton } from './FollowButton';
import './follows.css';

type Tab = 'followers' | 'following';
type Entry = GetFollowersResult['entries'][number];

/** One tab's list, read from its first page each time the tab shows (a follow made meanwhile is in it). */
function useFollowList(userId: string, viewerId: string, tab: Tab, open: boolean) {
  const dispatch = useAppDispatch();
  const [state, setState] = useState<{ entries: Entry[]; nextCursor: string | null; loading: boolean; error: string | null }>({
    entries: [],
    nextCursor: null,
    loading: true,
    error: null,
  });

  const load = async (cursor: string | null, signal?: AbortSignal) => {
    setState((s) => ({ ...s, loading: true, error: null }));
    const read = tab === 'followers' ? getFollowers : getFollowings;
    try {
      const page = await read({ path: { userId, id: viewerId }, query: cursor ? { cursor } : {} }, { signal, quiet: true });
      dispatch(followingSeen(Object.fromEntries(page.entries.map((entry) => [entry.user.id, entry.isFollowing]))));
      setState((s) => ({ entries: cursor ? [...s.entries, ...page.entries] : page.entries, nextCursor: page.nextCursor, loading: false, error: null }));
    } catch (error) {
      if (!signal?.aborted) setState((s) => ({ ...s, loading: false, error: toApiError(error).message }));
    }
  };

  useEffect(() => {
    if (!open) return undefined;
    const controller = new AbortController();
    void load(null, controller.signal);
    return () => controller.abort();
    // `load` reads the props of this render; the list is read again when they change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId, viewerId, tab, open]);

  return {
    ...state,
    more: () => void load(state.nextCursor),
    /** Takes a member off the list shown (the server has ended their follow). */
    drop: (memberId: string) => setState((s) => ({ ...s, entries: s.entries.filter((entry) => entry.user.id !== memberId) })),
  };
}

const removedFollowerToast = (name: string) => `${name} no longer follows you`;

/**
 * Asks the owner of a followers list before taking a member off it: that member's follow ends, and with it what they
 * see of the owner's pieces shown to followers.
 */
function RemoveFollowerConfirm({
  ownerId,
  entry,
  onClose,
  onRemoved,
}: {
  ownerId: string;
  entry: Entry | null;
  onClose: () => void;
  onRemoved: (entry: Entry) => void;
}) {
  const dispatch = useAppDispatch();
  const removal = useRemoveFollower();
  const name = entry ? displayUsername(entry.user.username) : '';
  const remove = async () => {
    if (!entry) return;
    try {
      const result = await removal.run({ path: { id: entry.user.id } });
      dispatch(countsLoaded({ userId: ownerId, ...result.me }));
      dispatch(countsLoaded({ userId: entry.user.id, ...result.follower }));
      onRemoved(entry);
      notify('success', removedFollowerToast(name));
      onClose();
    } catch {
      // The HTTP client has shown the server's message; the question stays open to try again.
    }
  };
  return (
    <Modal
      open={Boolean(entry)}
      title="Remove this follower?"
      okText="Remove"
      okButtonProps={{ danger: true, loading: removal.loading }}
      onOk={() => void remove()}
      onCancel={removal.loading ? undefined : onClose}
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
  const counts = useAppSelector((state) => selectFollowCounts(state, userId));
  const list = useFollowList(userId, viewer?.id ?? userId, tab, open && Boolean(userId));
  const ownLists = Boolean(viewer) && viewer?.id === userId;
  const ownFollowers = ownLists && tab === 'followers';
  const [removing, setRemoving] = useState<Entry | null>(null);

  useEffect(() => {
    if (open) setTab(props.followTab ?? 'followers');
  }, [open, props.followTab]);

  useEffect(() => {
    if (open && userId) dispatch(countsRequested({ userId }));
  }, [dispatch, open, userId]);

  const go = (entry: Entry) => {
    dispatch(modalClosed());
    void navigate(entry.isMe ? PATHS.myProfile : profilePath(entry.user.username));
  };

  const rows = (
    <>
      {list.error ? <p className="kn-follow-modal__empty">{list.error}</p> : null}
      {!list.loading && !list.error && !list.entries.length ? (
        <p className="kn-follow-modal__empty">{tab === 'followers' ? 'No followers yet.' : 'Not following anyone yet.'}</p>
      ) : null}
      <ul className="kn-follow-list">
        {list.entries.map((entry) => (
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
      {list.nextCursor ? (
        <AntButton type="link" loading={list.loading} onClick={list.more}>
          Show more
        </AntButton>
      ) : null}
    </>
  );

  return (
    <Modal
      open={open}
      onCancel={() => dispatch(modalClosed())}
      footer={null}
      // One's own followers have Remove beside Follow: wider, on both tabs so the modal keeps its size.
      width={isPhone ? '100%' : ownLists ? 400 : 300}
      title="Follow"
      rootClassName={isPhone ? 'kn-phone-modal' : undefined}
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
      <RemoveFollowerConfirm ownerId={userId} entry={removing} onClose={() => setRemoving(null)} onRemoved={(entry) => list.drop(entry.user.id)} />
    </Modal>
  );
}
