import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import type { RuleObject } from 'antd/es/form';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened, selectModalProps } from '../../../lib/ui';
import { AUTH_MESSAGES, isEmail, normalizeEmail } from '../auth.rules';
import { selectAuthForm } from '../auth.selectors';
import { passwordResetRequested } from '../auth.slice';
import { AuthHeader } from './AuthHeader';
import { useServerErrors } from './formErrors';
import { AuthForm } from './AuthForm';
import { SentPanel } from './SentPanel';
import { AuthLink } from './AuthLink';

const FIELDS = ['email'] as const;

/** Forgot password: the email; the answer is always 'Email Sent'. */
export function ForgotPasswordForm() {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => selectAuthForm(s, 'forgot'));
  const props = useAppSelector(selectModalProps);
  const [form] = Form.useForm<{ email: string }>();
  const showMessage = useServerErrors(form, state, FIELDS);
  const sending = state.status === 'sending';

  if (state.status === 'sent') {
    return (
      <SentPanel
        title={state.message ?? AUTH_MESSAGES.emailSent}
        more={
          <Button type="link" onClick={() => dispatch(modalOpened('login'))}>
            Back to log in
          </Button>
        }
      >
        <p>
          If an account uses <strong>{state.email}</strong>, we sent it a link to reset the password. The link works for one hour.
        </p>
      </SentPanel>
    );
  }

  return (
    <div className="kn-auth">
      <AuthHeader title="Forgot password?" subtitle="Enter the email of your account and we will mail you a link to set a new password." />
      {showMessage && state.message ? <Alert className="kn-auth__alert" type="error" showIcon title={state.message} /> : null}
      <AuthForm<{ email: string }>
        form={form}
        sending={sending}
        initialValues={{ email: props.email ?? '' }}
        onFinish={(values) => dispatch(passwordResetRequested(normalizeEmail(values.email)))}
      >
        <Form.Item
          name="email"
          label="Email"
          validateFirst
          rules={[
            { required: true, whitespace: true, message: AUTH_MESSAGES.loginEmail },
            { validator: (_: RuleObject, value: string) => (isEmail(value) ? Promise.resolve() : Promise.reject(new Error(AUTH_MESSAGES.emailInvalid))) },
          ]}
        >
          <Input size="large" inputMode="email" autoComplete="email" autoFocus placeholder="you@example.com" />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={sending}>
          Send reset link
        </Button>
      </AuthForm>
      <p className="kn-auth__switch">
        Remembered it? <AuthLink onClick={() => dispatch(modalOpened('login'))}>Log in</AuthLink>
      </p>
    </div>
  );
}
