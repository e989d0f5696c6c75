import UserAddOutlined from '@ant-design/icons/es/icons/UserAddOutlined';
import CheckOutlined from '@ant-design/icons/es/icons/CheckOutlined';
import { useAppSelector } from '../../../lib/storeHooks';
import { Button } from '../../../components/button';
import { selectUser } from '../../auth';
import { useFollowCounts } from '../follows.cache';
import { useFollowChange } from '../follows.change';

export interface FollowButtonProps {
  userId: string;
  /** The name the button's label and the toast use. */
  name: string;
  size?: 'small' | 'middle';
  /** Whether the viewer follows them, as a list said (the member's counts, once read on this screen, win). */
  initiallyFollowing?: boolean;
  /** Reads the member's counts and whether the viewer follows them (off in lists, which say it themselves). */
  load?: boolean;
}

/** Follow / Unfollow for another member; hidden on one's own name. A visitor is asked to log in first. */
export function FollowButton({ userId, name, size = 'middle', initiallyFollowing, load = true }: FollowButtonProps) {
  const viewer = useAppSelector(selectUser);
  const counts = useFollowCounts(userId, load);
  const { busy, change } = useFollowChange(userId, name);
  const following = counts?.isFollowing ?? initiallyFollowing ?? false;

  if (viewer?.id === userId) return null;
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
        change(!following);
      }}
    >
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
