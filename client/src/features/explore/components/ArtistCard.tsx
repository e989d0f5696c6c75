import { Link } from 'react-router-dom';
import { PATHS } from '../../../app/constants';
import { mediaUrl } from '../../../api/mediaUrl';
import { compactCount } from '../../../components/format';
import { displayUsername, initials } from '../../auth';
import type { UserCard } from '../explore.types';

export interface ArtistCardProps {
  card: UserCard;
  /** With `onToggle`, the card is a toggle button (the artists strip filters by it); else a profile link. */
  onToggle?: (card: UserCard) => void;
  selected?: boolean;
}

/** An artist's name as shown: the full name, else the username with underscores as spaces. */
export function artistName(user: UserCard['user']): string {
  return user.fullName.trim() || displayUsername(user.username);
}

function Avatar({ user }: { user: UserCard['user'] }) {
  return (
    <span className="kn-artist__avatar" aria-hidden="true">
      {user.image ? <img src={mediaUrl(user.image)} alt="" width={56} height={56} loading="lazy" decoding="async" /> : initials(user)}
    </span>
  );
}

/** An artist with their avatar, name and counts of pieces and followers. */
export function ArtistCard({ card, onToggle, selected = false }: ArtistCardProps) {
  const { user, contentsCount, followersCount } = card;
  const body = (
    <>
      <Avatar user={user} />
      <span className="kn-artist__text">
        <span className="kn-artist__name">{artistName(user)}</span>
        <span className="kn-artist__meta">
          {compactCount(contentsCount)} {contentsCount === 1 ? 'piece' : 'pieces'} · {compactCount(followersCount)}{' '}
          {followersCount === 1 ? 'follower' : 'followers'}
        </span>
      </span>
    </>
  );
  if (onToggle) {
    return (
      <button type="button" className={selected ? 'kn-artist is-selected' : 'kn-artist'} aria-pressed={selected} onClick={() => onToggle(card)}>
        {body}
      </button>
    );
  }
  return (
    <Link className="kn-artist" to={PATHS.profile(user.username)}>
      {body}
    </Link>
  );
}
