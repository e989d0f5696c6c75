import { HostedModal } from '../../../components/modal';
import type { ModalName } from '../../../lib/ui';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { LoginForm } from './LoginForm';
import { ResetPasswordForm } from './ResetPasswordForm';
import { SignupForm } from './SignupForm';
import './auth.css';

export type AuthModalName = Extract<ModalName, 'login' | 'signup' | 'forgot-password' | 'reset-password'>;

/** Widths: login 600, signup 600; the others 500. Phones (below 600 px) get the whole screen. */
const WIDTHS: Record<AuthModalName, number> = { login: 600, signup: 600, 'forgot-password': 500, 'reset-password': 500 };

const LABELS: Record<AuthModalName, string> = {
  login: 'Log in',
  signup: 'Create account',
  'forgot-password': 'Forgot password',
  'reset-password': 'Reset password',
};

/** The login, signup, forgot and reset modals (one at a time), opened from the ui state by the modal host. */
export default function AuthModal({ name, open }: { name: AuthModalName; open: boolean }) {
  return (
    <HostedModal
      open={open}
      width={WIDTHS[name]}
      rootClassName="kn-auth-modal"
      // The dialog's accessible name; the header is visually hidden (each form shows its own heading).
      title={LABELS[name]}
      classNames={{ header: 'kn-visually-hidden' }}
    >
      {name === 'login' ? <LoginForm /> : null}
      {name === 'signup' ? <SignupForm /> : null}
      {name === 'forgot-password' ? <ForgotPasswordForm /> : null}
      {name === 'reset-password' ? <ResetPasswordForm /> : null}
    </HostedModal>
  );
}
