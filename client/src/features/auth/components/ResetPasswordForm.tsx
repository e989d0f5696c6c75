import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened, selectModalProps } from '../../../lib/ui';
import { AUTH_MESSAGES } from '../auth.rules';
import { selectAuthForm } from '../auth.selectors';
import { newPasswordSubmitted } from '../auth.slice';
import { AuthHeader } from './AuthHeader';
import { LinkRefusal } from './LinkRefusal';
import { useServerErrors } from './formErrors';
import { NewPasswordFields } from './NewPasswordFields';
import { AuthForm } from './AuthForm';

interface ResetValues {
  newPassword: string;
  passwordConfirm: string;
}

const FIELDS = ['newPassword', 'passwordConfirm'] as const;
const MISMATCH = AUTH_MESSAGES.resetMismatch;

/** Reset password, opened by the emailed link: the new password twice. Success opens login. */
export function ResetPasswordForm() {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => selectAuthForm(s, 'reset'));
  const { token } = useAppSelector(selectModalProps);
  const [form] = Form.useForm<ResetValues>();
  const showMessage = useServerErrors(form, state, FIELDS);
  const sending = state.status === 'sending';

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
      {showMessage && state.message ? <LinkRefusal message={state.message} /> : null}
      <AuthForm<ResetValues>
        form={form}
        sending={sending}
        initialValues={{ newPassword: '', passwordConfirm: '' }}
        partners={{ newPassword: 'passwordConfirm', passwordConfirm: 'newPassword' }}
        mismatch={MISMATCH}
        onFinish={(values) => dispatch(newPasswordSubmitted({ token, ...values }))}
      >
        <NewPasswordFields
          form={form}
          name="newPassword"
          labels={{ password: 'New password', confirm: 'Confirm new password' }}
          required={{ password: AUTH_MESSAGES.resetPassword, confirm: AUTH_MESSAGES.resetPassword }}
          mismatch={MISMATCH}
          autoFocus
        />
        <Button type="primary" htmlType="submit" size="large" block loading={sending}>
          {sending ? 'Saving…' : 'Set new password'}
        </Button>
      </AuthForm>
    </div>
  );
}
