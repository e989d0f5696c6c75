import { useEffect } from 'react';
import UserAddOutlined from '@ant-design/icons/es/icons/UserAddOutlined';
import CheckOutlined from '@ant-design/icons/es/icons/CheckOutlined';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { Button } from '../../../components/button';
import { selectUser } from '../../auth';
import { selectFollowBusy, selectIsFollowing } from '../follows.selectors';
import { countsRequested, followToggled } from '../follows.slice';

export interface FollowButtonProps {
  userId: string;
  /** The name the button's label and the toast use. */
  name: string;
  size?: 'small' | 'middle';
  /** Whether the viewer follows them, as a list said (the store's knowledge wins once it has any). */
  initiallyFollowing?: boolean;
  /** Reads the member's counts and whether the viewer follows them (off in lists, which say it themselves). */
  load?: boolean;
}

/** Follow / Unfollow for another member; hidden on one's own name. A visitor is asked to log in first. */
export function FollowButton({ userId, name, size = 'middle', initiallyFollowing, load = true }: FollowButtonProps) {
  const dispatch = useAppDispatch();
  const viewer = useAppSelector(selectUser);
  const known = useAppSelector((state) => selectIsFollowing(state, userId));
  const busy = useAppSelector((state) => selectFollowBusy(state, userId));
  const following = known ?? initiallyFollowing ?? false;
  const viewerId = viewer?.id;

  useEffect(() => {
    if (load) dispatch(countsRequested({ userId }));
  }, [dispatch, load, userId, viewerId]);

  if (viewerId === userId) return null;
  return (
    <Button
      kind={following ? 'default' : 'primary'}
      size={size}
      icon={following ? <CheckOutlined /> : <UserAddOutlined />}
      loading={busy}
      aria-pressed={following}
      aria-label={`${following ? 'Unfollow' : 'Follow'} ${name}`}
      onClick={(event) => {
        event.stopPropagation();
        dispatch(followToggled({ userId, name, set: !following }));
      }}
    >
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
