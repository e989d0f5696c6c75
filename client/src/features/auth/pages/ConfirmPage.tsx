import { useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectAuthForm } from '../auth.selectors';
import { accountConfirmRequested } from '../auth.slice';
import '../components/auth.css';

/**
 * /confirm?token=… — the activation link of the signup mail: activates the account and signs it
 * in (toast 'Successfully created an account.'), then home either way.
 */
export default function ConfirmPage() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const token = params.get('token');
  const state = useAppSelector((s) => selectAuthForm(s, 'confirm'));
  useEffect(() => {
    if (token) dispatch(accountConfirmRequested(token));
  }, [token, dispatch]);
  if (!token) return <Navigate to="/" replace />;
  return (
    <section className="kn-confirm" role="status" aria-live="polite">
      <span className="kn-confirm__spinner" aria-hidden="true" />
      <h1 className="kn-confirm__title">{state.status === 'failed' ? state.message : 'Activating your account…'}</h1>
    </section>
  );
}
