import { mediaUrl } from '../api/mediaUrl';
import { initials } from '../lib/userNames';
import './avatar.css';

export interface AvatarUser {
  username: string;
  firstName?: string;
  lastName?: string;
  image?: string | null;
}

export interface UserAvatarProps {
  user: AvatarUser;
  /** Width and height in px; the initials are sized to it. */
  size?: number;
  /** Added to `kn-avatar` (placement, or another tint as on the artist cards). */
  className?: string;
}

/**
 * A round profile photo, or the member's initials on the brand tint. Decorative: the name is shown beside it.
 * Used by the content detail (uploader, profile header) and Explore's artist cards.
 */
export function UserAvatar({ user, size = 40, className = '' }: UserAvatarProps) {
  return (
    <span className={`kn-avatar ${className}`.trim()} style={{ width: size, height: size, fontSize: Math.round(size * 0.38) }} aria-hidden="true">
      {user.image ? <img src={mediaUrl(user.image)} alt="" width={size} height={size} loading="lazy" decoding="async" /> : <span data-glyph={initials(user)} />}
    </span>
  );
}
