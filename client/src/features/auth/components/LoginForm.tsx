import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened, selectModalProps } from '../../../lib/ui';
import { AUTH_MESSAGES } from '../auth.rules';
import { selectAuthForm } from '../auth.selectors';
import { activationEmailResendRequested, loginSubmitted } from '../auth.slice';
import { AuthHeader } from './AuthHeader';
import { useServerErrors } from './formErrors';
import { AuthForm } from './AuthForm';
import { SentPanel } from './SentPanel';
import { SocialButtons } from './SocialButtons';
import { AuthLink } from './AuthLink';

interface LoginValues {
  email: string;
  password: string;
}

const FIELDS = ['email', 'password'] as const;

/** Login: email and password; links to Forgot password and Create account. */
export function LoginForm() {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => selectAuthForm(s, 'login'));
  const props = useAppSelector(selectModalProps);
  const [form] = Form.useForm<LoginValues>();
  const showMessage = useServerErrors(form, state, FIELDS);
  const sending = state.status === 'sending';
  // Another modal keeps the origin and callback of this one.
  const open = (name: 'signup' | 'forgot-password') => dispatch(modalOpened({ name, origin: props.origin, callback: props.callback }));

  if (state.status === 'sent') {
    return (
      <SentPanel
        title={state.message ?? AUTH_MESSAGES.checkEmail}
        more={
          state.email ? (
            <Button type="link" onClick={() => dispatch(activationEmailResendRequested(state.email!))}>
              Send the activation email again
            </Button>
          ) : null
        }
      >
        <p>
          Your account is not activated yet. We sent an activation link to <strong>{state.email}</strong>: open it to activate your account, then log in.
        </p>
      </SentPanel>
    );
  }

  return (
    <div className="kn-auth">
      <AuthHeader title="Log in to Knack" subtitle="Welcome back. Log in to play, upload and earn." />
      {props.notice ? <Alert className="kn-auth__alert" type="success" showIcon title={props.notice} /> : null}
      {showMessage && state.message ? <Alert className="kn-auth__alert" type="error" showIcon title={state.message} /> : null}
      <AuthForm<LoginValues>
        form={form}
        sending={sending}
        initialValues={{ email: props.email ?? '', password: '' }}
        onFinish={(values) => dispatch(loginSubmitted(values))}
      >
        <Form.Item name="email" label="Email" rules={[{ required: true, whitespace: true, message: AUTH_MESSAGES.loginEmail }]}>
          <Input size="large" inputMode="email" autoComplete="email" autoFocus={!props.email} placeholder="you@example.com" />
        </Form.Item>
        <Form.Item name="password" label="Password" rules={[{ required: true, message: AUTH_MESSAGES.loginPassword }]}>
          <Input.Password size="large" autoComplete="current-password" autoFocus={Boolean(props.email)} />
        </Form.Item>
        <div className="kn-auth__forgot">
          <AuthLink onClick={() => open('forgot-password')}>Forgot password?</AuthLink>
        </div>
        <Button type="primary" htmlType="submit" size="large" block loading={sending}>
          {sending ? 'Logging in…' : 'Log in'}
        </Button>
      </AuthForm>
      <SocialButtons />
      <p className="kn-auth__switch">
        New to Knack? <AuthLink onClick={() => open('signup')}>Create account</AuthLink>
      </p>
    </div>
  );
}
