import { Link } from 'react-router-dom';
import { displayUsername } from '../../../lib/userNames';
import type { PublicUser } from '../../../lib/content';
import { profilePath } from '../../../lib/links';
import { UserAvatar } from '../../../components/UserAvatar';
import { FollowButton } from '../../follows';

export type DetailOwner = Pick<PublicUser, 'username' | 'fullName'> & Partial<Pick<PublicUser, 'image' | 'firstName' | 'lastName'>>;

/** The uploader: avatar and name, underscores shown as spaces, linking to the profile; then Follow / Unfollow. */
export function DetailHeader({ owner, ownerId }: { owner: DetailOwner; ownerId: string }) {
  const name = displayUsername(owner.username);
  return (
    <header className="kn-detail__head">
      <Link className="kn-detail__owner" to={profilePath(owner.username)}>
        <UserAvatar user={owner} size={44} />
        <span className="kn-detail__owner-text">
          <span className="kn-detail__owner-name">{name}</span>
          {owner.fullName && owner.fullName !== name ? <span className="kn-detail__owner-full">{owner.fullName}</span> : null}
        </span>
      </Link>
      <FollowButton userId={ownerId} name={name} size="small" />
    </header>
  );
}
