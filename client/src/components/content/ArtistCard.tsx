import { Link } from 'react-router-dom';
import { PATHS } from '../../lib/constants';
import { compactCount } from '../format';
import { UserAvatar } from '../UserAvatar';
import { displayUsername } from '../../lib/userNames';
import type { UserCard } from '../../lib/content';
import './content.css';

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

/** An artist with their avatar, name and counts of pieces and followers. */
export function ArtistCard({ card, onToggle, selected = false }: ArtistCardProps) {
  const { user, contentsCount, followersCount } = card;
  const body = (
    <>
      <UserAvatar user={user} size={44} className="kn-artist__avatar" />
      <span className="kn-artist__text">
        <span className="kn-artist__name" title={artistName(user)}>
          {artistName(user)}
        </span>
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

/** Artists as a wrapping grid of cards, each linking to the profile (search results, the detail's other artists). */
export function ArtistGrid({ cards, label }: { cards: UserCard[]; label: string }) {
  return (
    <ul className="kn-artist-grid" aria-label={label}>
      {cards.map((card) => (
        <li key={card.user.id}>
          <ArtistCard card={card} />
        </li>
      ))}
    </ul>
  );
}
