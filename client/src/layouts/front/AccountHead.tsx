import { Link } from 'react-router-dom';
import { skipToken } from '@reduxjs/toolkit/query/react';
import CameraOutlined from '@ant-design/icons/es/icons/CameraOutlined';
import { PATHS } from '../../lib/constants';
import { useAppDispatch, useAppSelector } from '../../lib/storeHooks';
import { useGetUserExtQuery } from '../../api/generated/endpoints';
import { mediaUrl } from '../../api/mediaUrl';
import { displayUsername, initials } from '../../lib/userNames';
import { selectSessionStatus, selectUser } from '../../features/auth';
import { modalOpened } from '../../lib/ui';
import { FollowCounts } from '../../features/follows';

/** The location line: 'City, State', or null when neither is known. */
function locationLine(ext: { city?: string | null; state?: string | null } | undefined): string | null {
  const parts = [ext?.city, ext?.state].map((part) => part?.trim()).filter(Boolean);
  return parts.length ? parts.join(', ') : null;
}

/**
 * The signed-in head of the side menu: the avatar (click to change the photo), the username with
 * underscores shown as spaces, and the location line ('City, State' or 'Where are you from?'). The header
 * image can be changed from here too ('Header image'), as from the own profile page's header; the phone drawer
 * shows it behind the head. Then the member's followers and following counts, which open the follow modal.
 */
export function AccountHead({ variant, onNavigate }: { variant: 'rail' | 'list'; onNavigate?: () => void }) {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  // The member's extension as the settings read it (one cached read), reloaded when it is saved; asked once the
  // session is confirmed (a stored account is reloaded first).
  const active = useAppSelector(selectSessionStatus) === 'active';
  const location = locationLine(useGetUserExtQuery(user && active ? { path: { id: user.id } } : skipToken).data?.userExt);
  if (!user) return null;
  const name = displayUsername(user.username);
  const header = variant === 'list' && user.headerImage ? mediaUrl(user.headerImage) : null;
  const open = (modal: 'profile-photo' | 'header-image') => {
    dispatch(modalOpened(modal));
    onNavigate?.();
  };
  return (
    <div className={`kn-account kn-account--${variant}${header ? ' kn-account--with-header' : ''}`}>
      {header ? <img className="kn-account__header" src={header} alt="" /> : null}
      <button type="button" className="kn-account__avatar" aria-label="Change profile photo" title="Change profile photo" onClick={() => open('profile-photo')}>
        {user.image ? <img src={mediaUrl(user.image)} alt="" /> : <span aria-hidden="true" data-glyph={initials(user)} />}
        <span className="kn-account__avatar-edit" aria-hidden="true">
          <CameraOutlined />
        </span>
      </button>
      <div className="kn-account__text">
        <Link to={PATHS.myProfile} className="kn-account__name" title={name} onClick={onNavigate}>
          {name}
        </Link>
        {location ? (
          <span className="kn-account__location" title={location}>
            {location}
          </span>
        ) : (
          <Link to={PATHS.settings} className="kn-account__location kn-account__location--ask" onClick={onNavigate}>
            Where are you from?
          </Link>
        )}
        <FollowCounts userId={user.id} load className="kn-account__follows" />
        <button type="button" className="kn-account__header-edit" onClick={() => open('header-image')}>
          Header image
        </button>
      </div>
    </div>
  );
}
