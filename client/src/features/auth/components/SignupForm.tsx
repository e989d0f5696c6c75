import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import type { RuleObject } from 'antd/es/form';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened, selectModalProps } from '../../../lib/ui';
import { AUTH_MESSAGES, emailProblem, normalizeEmail, normalizeUsername } from '../auth.rules';
import { selectAuthForm, selectSignupStep } from '../auth.selectors';
import { activationEmailResendRequested, signupBackToEmail, signupEmailSubmitted, signupSubmitted } from '../auth.slice';
import type { SignupValues } from '../auth.types';
import { AuthHeader } from './AuthHeader';
import { refuseWith, useServerErrors } from './formErrors';
import { NewPasswordFields } from './NewPasswordFields';
import { AuthForm } from './AuthForm';
import { SentPanel } from './SentPanel';
import { SocialButtons } from './SocialButtons';
import { UsernameField } from './UsernameField';
import { AuthLink } from './AuthLink';

const DETAIL_FIELDS = ['firstName', 'lastName', 'username', 'password', 'passwordConfirm'] as const;
const EMAIL_FIELDS = ['email'] as const;
const MISMATCH = AUTH_MESSAGES.passwordMismatch;

/** Step 1: the email only. An email with an account opens login instead (the saga decides). */
function EmailStep() {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => selectAuthForm(s, 'signup'));
  const { email } = useAppSelector(selectSignupStep);
  const props = useAppSelector(selectModalProps);
  const [form] = Form.useForm<{ email: string }>();
  const showMessage = useServerErrors(form, state, EMAIL_FIELDS);
  const sending = state.status === 'sending';
  return (
    <div className="kn-auth">
      <AuthHeader step="Step 1 of 2" title="Create your account" subtitle="Join for free: upload music, art and photos and earn on every play and view." />
      {showMessage && state.message ? <Alert className="kn-auth__alert" type="error" showIcon title={state.message} /> : null}
      <AuthForm<{ email: string }>
        form={form}
        sending={sending}
        initialValues={{ email }}
        onFinish={(values) => dispatch(signupEmailSubmitted(normalizeEmail(values.email)))}
      >
        <Form.Item name="email" label="Email" rules={[{ validator: (_: RuleObject, value: string) => refuseWith(emailProblem(value)) }]}>
          <Input size="large" inputMode="email" autoComplete="email" autoFocus placeholder="you@example.com" />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={sending}>
          Continue
        </Button>
      </AuthForm>
      <SocialButtons />
      <p className="kn-auth__switch">
        Already have an account?{' '}
        <AuthLink onClick={() => dispatch(modalOpened({ name: 'login', origin: props.origin, callback: props.callback }))}>Log in</AuthLink>
      </p>
    </div>
  );
}

/** Step 2: first name, last name, username (checked on blur and submit), password and its confirmation. */
function DetailsStep() {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => selectAuthForm(s, 'signup'));
  const { email } = useAppSelector(selectSignupStep);
  const [form] = Form.useForm<SignupValues>();
  const showMessage = useServerErrors(form, state, DETAIL_FIELDS);
  const sending = state.status === 'sending';

  return (
    <div className="kn-auth">
      <AuthHeader
        compact
        step="Step 2 of 2"
        title="Tell us about you"
        subtitle={
          <>
            Signing up as <strong>{email}</strong>{' '}
            <AuthLink onClick={() => dispatch(signupBackToEmail())} disabled={sending}>
              Change
            </AuthLink>
          </>
        }
      />
      {showMessage && state.message ? <Alert className="kn-auth__alert" type="error" showIcon title={state.message} /> : null}
      <AuthForm<SignupValues>
        form={form}
        sending={sending}
        initialValues={{ firstName: '', lastName: '', username: '', password: '', passwordConfirm: '' }}
        partners={{ password: 'passwordConfirm', passwordConfirm: 'password' }}
        mismatch={MISMATCH}
        onFinish={(values) => dispatch(signupSubmitted({ ...values, username: normalizeUsername(values.username) }))}
      >
        <div className="kn-auth__row">
          <Form.Item name="firstName" label="First name" rules={[{ required: true, whitespace: true, message: AUTH_MESSAGES.firstName }]}>
            <Input size="large" autoComplete="given-name" autoFocus />
          </Form.Item>
          <Form.Item name="lastName" label="Last name" rules={[{ required: true, whitespace: true, message: AUTH_MESSAGES.lastName }]}>
            <Input size="large" autoComplete="family-name" />
          </Form.Item>
        </div>
        <UsernameField checkTaken />
        <NewPasswordFields
          form={form}
          name="password"
          labels={{ password: 'Password', confirm: 'Confirm password' }}
          required={{ password: AUTH_MESSAGES.password, confirm: AUTH_MESSAGES.passwordConfirm }}
          mismatch={MISMATCH}
        />
        <Button type="primary" htmlType="submit" size="large" block loading={sending}>
          {sending ? 'Creating your account…' : 'Create account'}
        </Button>
      </AuthForm>
      <p className="kn-auth__fine">
        By creating an account you agree to the <a href="/terms-of-use.html">Terms of Use</a> and the <a href="/privacy-policy.html">Privacy Policy</a>.
      </p>
    </div>
  );
}

/** Signup in two steps (the email, then the details); on success 'Check Your Email'. */
export function SignupForm() {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => selectAuthForm(s, 'signup'));
  const { step, email } = useAppSelector(selectSignupStep);
  if (state.status === 'sent') {
    return (
      <SentPanel
        title={state.message ?? AUTH_MESSAGES.checkEmail}
        more={
          <Button type="link" onClick={() => dispatch(activationEmailResendRequested(state.email ?? email))}>
            Send the activation email again
          </Button>
        }
      >
        <p>
          We sent an activation link to <strong>{state.email ?? email}</strong>. Open it to activate your account and you are in.
        </p>
      </SentPanel>
    );
  }
  return step === 1 ? <EmailStep /> : <DetailsStep />;
}
