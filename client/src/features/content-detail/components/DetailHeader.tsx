import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import FlagOutlined from '@ant-design/icons/es/icons/FlagOutlined';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';
import { selectIsAdmin, selectUser } from '../../auth';
import { displayUsername } from '../../../lib/userNames';
import type { PublicUser } from '../../../lib/content';
import { profilePath } from '../../../lib/links';
import { UserAvatar } from '../../../components/UserAvatar';
import { FollowButton } from '../../follows';
import { withAntd } from '../../../components/antd/withAntd';

/** The owner's (or an admin's) menu: antd's Dropdown, loaded only for them, so a visitor's detail loads no antd. */
const DetailOwnerMenu = lazy(withAntd(() => import('./DetailOwnerMenu')));

export type DetailOwner = Pick<PublicUser, 'username' | 'fullName'> & Partial<Pick<PublicUser, 'image' | 'firstName' | 'lastName'>>;

/**
 * The uploader: avatar and name, underscores shown as spaces, linking to the profile; then Follow / Unfollow, and
 * for a signed-in member on someone else's piece, Flag; for its owner (or an admin), the owner's menu.
 */
export function DetailHeader({
  owner,
  ownerId,
  contentId,
  title,
  featured = false,
  hidden = false,
}: {
  owner: DetailOwner;
  ownerId: string;
  contentId: string;
  title: string;
  featured?: boolean;
  hidden?: boolean;
}) {
  const dispatch = useAppDispatch();
  const viewer = useAppSelector(selectUser);
  const isAdmin = useAppSelector(selectIsAdmin);
  const name = displayUsername(owner.username);
  return (
    <header className="kn-detail__head">
      <Link className="kn-detail__owner" to={profilePath(owner.username)}>
        <UserAvatar user={owner} size={44} />
        <span className="kn-detail__owner-text">
          <span className="kn-detail__owner-name" title={name}>
            {name}
          </span>
          {owner.fullName && owner.fullName !== name ? <span className="kn-detail__owner-full">{owner.fullName}</span> : null}
        </span>
      </Link>
      <FollowButton userId={ownerId} name={name} size="small" />
      {viewer && viewer.id !== ownerId ? (
        <button type="button" className="kn-detail__flag" onClick={() => dispatch(modalOpened({ name: 'flag', contentId }))}>
          <FlagOutlined aria-hidden /> Flag
        </button>
      ) : null}
      {viewer && (viewer.id === ownerId || isAdmin) ? (
        <Suspense fallback={null}>
          <DetailOwnerMenu contentId={contentId} title={title} ownPiece={viewer.id === ownerId} featured={featured} hidden={hidden} />
        </Suspense>
      ) : null}
    </header>
  );
}
