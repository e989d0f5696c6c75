import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import type { RuleObject } from 'antd/es/form';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened, selectModalProps } from '../../../lib/ui';
import { AUTH_MESSAGES, passwordProblem } from '../auth.rules';
import { selectAuthForm } from '../auth.selectors';
import { newPasswordSubmitted } from '../auth.slice';
import { AuthHeader } from './AuthHeader';
import { useServerErrors } from './formErrors';
import { AuthForm } from './AuthForm';

interface ResetValues {
  newPassword: string;
  passwordConfirm: string;
}

const FIELDS = ['newPassword', 'passwordConfirm'] as const;
const MISMATCH = AUTH_MESSAGES.resetMismatch;
const check = (problem: string | null) => (problem ? Promise.reject(new Error(problem)) : Promise.resolve());

/** Reset password, opened by the emailed link: the new password twice. Success opens login. */
export function ResetPasswordForm() {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => selectAuthForm(s, 'reset'));
  const { token } = useAppSelector(selectModalProps);
  const [form] = Form.useForm<ResetValues>();
  const showMessage = useServerErrors(form, state, FIELDS);
  const sending = state.status === 'sending';

  const mismatch = (own: keyof ResetValues) => ({
    validator: (_: RuleObject, value: string) => {
      const other = form.getFieldValue(own === 'newPassword' ? 'passwordConfirm' : 'newPassword') as string | undefined;
      const compare = own === 'passwordConfirm' || form.isFieldTouched('passwordConfirm');
      return check(value && other && compare && value !== other ? MISMATCH : null);
    },
  });

  if (!token) {
    return (
      <div className="kn-auth">
        <AuthHeader title="Reset your password" />
        <Alert className="kn-auth__alert" type="warning" showIcon title="This reset link is incomplete. Ask for a new one." />
        <Button type="primary" size="large" block onClick={() => dispatch(modalOpened('forgot-password'))}>
          Get a new link
        </Button>
      </div>
    );
  }

  return (
    <div className="kn-auth">
      <AuthHeader title="Reset your password" subtitle="Choose a new password for your Knack account." />
      {showMessage && state.message ? (
        <Alert
          className="kn-auth__alert"
          type="error"
          showIcon
          title={state.message}
          action={
            <Button size="small" type="link" onClick={() => dispatch(modalOpened('forgot-password'))}>
              New link
            </Button>
          }
        />
      ) : null}
      <AuthForm<ResetValues>
        form={form}
        sending={sending}
        initialValues={{ newPassword: '', passwordConfirm: '' }}
        partners={{ newPassword: 'passwordConfirm', passwordConfirm: 'newPassword' }}
        mismatch={MISMATCH}
        onFinish={(values) => dispatch(newPasswordSubmitted({ token, ...values }))}
      >
        <Form.Item
          name="newPassword"
          label="New password"
          validateFirst
          rules={[
            { required: true, message: AUTH_MESSAGES.resetPassword },
            { validator: (_: RuleObject, value: string) => check(passwordProblem(value)) },
            mismatch('newPassword'),
          ]}
          extra="8 or more characters with an uppercase and a lowercase letter, a number and one of !@#$%^&*."
        >
          <Input.Password size="large" autoComplete="new-password" autoFocus />
        </Form.Item>
        <Form.Item
          name="passwordConfirm"
          label="Confirm new password"
          validateFirst
          rules={[{ required: true, message: AUTH_MESSAGES.resetPassword }, mismatch('passwordConfirm')]}
        >
          <Input.Password
            size="large"
            autoComplete="new-password"
            onBlur={() => {
              if (form.getFieldValue('newPassword')) void form.validateFields(['newPassword']).catch(() => undefined);
            }}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={sending}>
          {sending ? 'Saving…' : 'Set new password'}
        </Button>
      </AuthForm>
    </div>
  );
}
