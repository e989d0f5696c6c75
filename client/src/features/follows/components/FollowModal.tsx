import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Modal from 'antd/es/modal';
import Tabs from 'antd/es/tabs';
import AntButton from 'antd/es/button';
import { getFollowers, getFollowings, type GetFollowersResult } from '../../../api/generated/operations';
import { toApiError } from '../../../api/http';
import { PATHS } from '../../../app/constants';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { modalClosed, selectIsPhone, selectModalProps } from '../../../app/ui';
import { UserAvatar } from '../../../components/UserAvatar';
import { displayUsername } from '../../../lib/userNames';
import { profilePath } from '../../../lib/links';
import { selectUser } from '../../auth';
import { selectFollowCounts } from '../follows.selectors';
import { countsRequested, followingSeen } from '../follows.slice';
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

  return { ...state, more: () => void load(state.nextCursor) };
}

/**
 * The follow modal: a member's followers and the members they follow, in two tabs. Each row has the member's
 * avatar and name (a click goes to their profile, or one's own) and Follow / Unfollow (not on one's own row).
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
      width={isPhone ? '100%' : 300}
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
    </Modal>
  );
}
