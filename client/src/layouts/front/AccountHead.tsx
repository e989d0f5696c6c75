import { Link } from 'react-router-dom';
import { PATHS } from '../../app/constants';
import { useAppSelector } from '../../app/hooks';
import { displayUsername, initials, selectLocationLine, selectUser } from '../../features/auth';

/**
 * The signed-in head of the side menu (spec §2): avatar (initials without a picture), the username with
 * underscores shown as spaces, and the location line ('City, State' or 'Where are you from?'). Followers and
 * following counts come with the follow issue.
 */
export function AccountHead({ variant, onNavigate }: { variant: 'rail' | 'list'; onNavigate?: () => void }) {
  const user = useAppSelector(selectUser);
  const location = useAppSelector(selectLocationLine);
  if (!user) return null;
  const name = displayUsername(user.username);
  return (
    <div className={`kn-account kn-account--${variant}`}>
      <Link to={PATHS.myProfile} className="kn-account__avatar" aria-label={`${name}: my profile`} onClick={onNavigate}>
        {user.image ? <img src={user.image} alt="" /> : <span aria-hidden="true">{initials(user)}</span>}
      </Link>
      <div className="kn-account__text">
        <span className="kn-account__name" title={name}>
          {name}
        </span>
        {location ? (
          <span className="kn-account__location" title={location}>
            {location}
          </span>
        ) : (
          <Link to={PATHS.settings} className="kn-account__location kn-account__location--ask" onClick={onNavigate}>
            Where are you from?
          </Link>
        )}
      </div>
    </div>
  );
}
