import { useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { selectAuthForm } from '../auth.selectors';
import { accountConfirmRequested, emailChangeLinkOpened } from '../auth.slice';
import type { EmailChangeLink } from '../auth.types';
import '../components/auth.css';

/** What the page says while a link is being opened, by the link's `action`. */
const WORKING: Record<EmailChangeLink | 'activate', string> = {
  activate: 'Activating your account…',
  email: 'Changing your email…',
  'cancel-email': 'Cancelling the email change…',
};

const isEmailChangeLink = (action: string | null): action is EmailChangeLink => action === 'email' || action === 'cancel-email';

/**
 * /confirm?token=… — the emailed links: the activation link of the signup mail activates the account and signs it
 * in (toast 'Successfully created an account.'), then home either way. With `action=email` it is the link mailed to
 * a new address, which makes the email change; with `action=cancel-email`, the notice's link that cancels it.
 */
export default function ConfirmPage() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const token = params.get('token');
  const action = params.get('action');
  const state = useAppSelector((s) => selectAuthForm(s, 'confirm'));
  useEffect(() => {
    if (!token) return;
    dispatch(isEmailChangeLink(action) ? emailChangeLinkOpened({ token, kind: action }) : accountConfirmRequested(token));
  }, [token, action, dispatch]);
  if (!token) return <Navigate to="/" replace />;
  return (
    <section className="kn-confirm" role="status" aria-live="polite">
      <span className="kn-confirm__spinner" aria-hidden="true" />
      <h1 className="kn-confirm__title">{state.status === 'failed' ? state.message : WORKING[isEmailChangeLink(action) ? action : 'activate']}</h1>
    </section>
  );
}
