import type { ReactNode } from 'react';
import CameraOutlined from '@ant-design/icons/es/icons/CameraOutlined';
import FacebookFilled from '@ant-design/icons/es/icons/FacebookFilled';
import InstagramOutlined from '@ant-design/icons/es/icons/InstagramOutlined';
import LinkedinFilled from '@ant-design/icons/es/icons/LinkedinFilled';
import XOutlined from '@ant-design/icons/es/icons/XOutlined';
import { mediaUrl } from '../../../api/mediaUrl';
import { compactCount } from '../../../components/format';
import { UserAvatar } from '../../../components/UserAvatar';
import { artistName } from '../../../components/content/ArtistCard';
import type { UserCard } from '../../../lib/content';
import { FollowCount } from '../../follows';

export interface ProfileHeaderProps {
  card: UserCard;
  /** Buttons at the end of the header (Upload, …). */
  actions?: ReactNode;
  /** The member's own header: the avatar changes the photo, a button the header image. */
  onChangePhoto?: () => void;
  onChangeHeader?: () => void;
  /** A line above the name ('Top 50'). */
  eyebrow?: ReactNode;
}

const SOCIAL_SITES = [
  { key: 'facebook', label: 'Facebook', Icon: FacebookFilled },
  { key: 'twitter', label: 'X', Icon: XOutlined },
  { key: 'linkedin', label: 'LinkedIn', Icon: LinkedinFilled },
  { key: 'instagram', label: 'Instagram', Icon: InstagramOutlined },
] as const;

/** The member's social profiles, as links that open in a new tab. */
function SocialLinks({ user }: { user: UserCard['user'] }) {
  const links = SOCIAL_SITES.filter((site) => user.social?.[site.key]);
  if (!links.length) return null;
  return (
    <ul className="kn-profile-head__social" aria-label="Social profiles">
      {links.map(({ key, label, Icon }) => (
        <li key={key}>
          <a href={user.social![key]} target="_blank" rel="noopener noreferrer nofollow" aria-label={`${label} profile`} title={label}>
            <Icon aria-hidden />
          </a>
        </li>
      ))}
    </ul>
  );
}

function plural(count: number, one: string, many: string): string {
  return `${compactCount(count)} ${count === 1 ? one : many}`;
}

/**
 * A member's profile header: the header image (or a neutral gradient), avatar, full name,
 * @username, bio, and the counts of pieces, followers and following (which open the follow modal).
 */
export function ProfileHeader({ card, actions, onChangePhoto, onChangeHeader, eyebrow }: ProfileHeaderProps) {
  const { user } = card;
  const avatar = <UserAvatar user={user} size={112} className="kn-profile-head__avatar" />;
  return (
    <section className="kn-profile-head" aria-labelledby="kn-profile-name">
      <div className="kn-profile-head__banner">
        {user.headerImage ? <img src={mediaUrl(user.headerImage)} alt="" /> : null}
        {onChangeHeader ? (
          <button type="button" className="kn-profile-head__banner-edit" onClick={onChangeHeader}>
            <CameraOutlined aria-hidden /> Header image
          </button>
        ) : null}
      </div>
      <div className="kn-profile-head__body">
        {onChangePhoto ? (
          <button type="button" className="kn-profile-head__avatar-edit" aria-label="Change profile photo" title="Change profile photo" onClick={onChangePhoto}>
            {avatar}
            <span className="kn-profile-head__camera" aria-hidden="true">
              <CameraOutlined />
            </span>
          </button>
        ) : (
          avatar
        )}
        <div className="kn-profile-head__text">
          {eyebrow ? <p className="kn-profile-head__eyebrow">{eyebrow}</p> : null}
          <h1 id="kn-profile-name" className="kn-profile-head__name" title={artistName(user)}>
            {artistName(user)}
          </h1>
          <p className="kn-profile-head__username" title={`@${user.username}`}>
            @{user.username}
          </p>
          {user.bio ? <p className="kn-profile-head__bio">{user.bio}</p> : null}
          <SocialLinks user={user} />
          <ul className="kn-profile-head__counts" aria-label="Counts">
            <li>{plural(card.contentsCount, 'piece', 'pieces')}</li>
            <li>
              <FollowCount userId={user.id} side="followers" initial={card} />
            </li>
            <li>
              <FollowCount userId={user.id} side="following" initial={card} />
            </li>
          </ul>
        </div>
        {actions ? <div className="kn-profile-head__actions">{actions}</div> : null}
      </div>
    </section>
  );
}
