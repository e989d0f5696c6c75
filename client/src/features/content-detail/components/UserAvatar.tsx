import { mediaUrl } from '../../../api/mediaUrl';
import { initials } from '../../auth';
import './avatar.css';

export interface AvatarUser {
  username: string;
  firstName?: string;
  lastName?: string;
  image?: string | null;
}

/** A round profile photo, or the member's initials on the brand tint. Decorative: the name is shown beside it. */
export function UserAvatar({ user, size = 40, className = '' }: { user: AvatarUser; size?: number; className?: string }) {
  return (
    <span className={`kn-avatar ${className}`.trim()} style={{ width: size, height: size, fontSize: Math.round(size * 0.38) }} aria-hidden="true">
      {user.image ? <img src={mediaUrl(user.image)} alt="" width={size} height={size} loading="lazy" /> : initials(user)}
    </span>
  );
}
