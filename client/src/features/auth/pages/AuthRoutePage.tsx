import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened, type ModalName } from '../../../lib/ui';
import { selectIsLoggedIn } from '../auth.selectors';

const TYPES: readonly ModalName[] = ['login', 'signup', 'forgot-password', 'reset-password'];

/**
 * /auth/{type}?token=… — opens the matching modal (login, signup, forgot-password, reset-password; the
 * emailed reset link lands here) over the home page, and drops the token from the address bar.
 */
export default function AuthRoutePage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { type } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token') ?? undefined;
  const loggedIn = useAppSelector(selectIsLoggedIn);
  useEffect(() => {
    const name = TYPES.find((candidate) => candidate === type);
    // Someone signed in has no use for login or signup; a reset link works either way.
    if (name && !(loggedIn && (name === 'login' || name === 'signup'))) dispatch(modalOpened({ name, token }));
    void navigate('/', { replace: true });
    // Once, on arrival: signing in from the opened modal must not open it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}
