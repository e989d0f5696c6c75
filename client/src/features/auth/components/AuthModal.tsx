import { HostedModal } from '../../../components/modal';
import { selectModalProps, type ModalName } from '../../../lib/ui';
import { useAppSelector } from '../../../lib/storeHooks';
import { ArtistRegisterForm } from './ArtistRegisterForm';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { LoginForm } from './LoginForm';
import { ResetPasswordForm } from './ResetPasswordForm';
import { SignupForm } from './SignupForm';
import './auth.css';

export type AuthModalName = Extract<ModalName, 'login' | 'signup' | 'forgot-password' | 'reset-password' | 'artist-register'>;

/** Widths: login 600, signup 600; the others 500. Phones (below 600 px) get the whole screen. */
const WIDTHS: Record<AuthModalName, number> = { login: 600, signup: 600, 'forgot-password': 500, 'reset-password': 500, 'artist-register': 500 };

const LABELS: Record<AuthModalName, string> = {
  login: 'Log in',
  signup: 'Create account',
  'forgot-password': 'Forgot password',
  'reset-password': 'Reset password',
  'artist-register': 'Register',
};

/** The login, signup, forgot, reset and `{name} register` modals (one at a time), opened from the ui state by the modal host. */
export default function AuthModal({ name, open }: { name: AuthModalName; open: boolean }) {
  const { artistName } = useAppSelector(selectModalProps);
  return (
    <HostedModal
      open={open}
      width={WIDTHS[name]}
      rootClassName="kn-auth-modal"
      // The dialog's accessible name; the header is visually hidden (each form shows its own heading).
      title={name === 'artist-register' && artistName ? `${artistName} register` : LABELS[name]}
      classNames={{ header: 'kn-visually-hidden' }}
    >
      {name === 'login' ? <LoginForm /> : null}
      {name === 'signup' ? <SignupForm /> : null}
      {name === 'forgot-password' ? <ForgotPasswordForm /> : null}
      {name === 'reset-password' ? <ResetPasswordForm /> : null}
      {name === 'artist-register' ? <ArtistRegisterForm /> : null}
    </HostedModal>
  );
}
