import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened, selectModalProps } from '../../../lib/ui';
import { AUTH_MESSAGES, normalizeUsername } from '../auth.rules';
import { selectAuthForm } from '../auth.selectors';
import { registrationSubmitted } from '../auth.slice';
import { AuthForm } from './AuthForm';
import { AuthHeader } from './AuthHeader';
import { LinkRefusal } from './LinkRefusal';
import { useServerErrors } from './formErrors';
import { NewPasswordFields } from './NewPasswordFields';
import { UsernameField } from './UsernameField';

interface RegisterValues {
  username: string;
  password: string;
  passwordConfirm: string;
}

const FIELDS = ['username', 'password', 'passwordConfirm'] as const;
const MISMATCH = AUTH_MESSAGES.passwordMismatch;

/**
 * The `{name} register` modal, opened by the link mailed after a visitor's Top 50 upload: a username and a password,
 * with the sign-up's rules and messages. The account is registered and signed in, and the song joins the chart.
 */
export function ArtistRegisterForm() {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => selectAuthForm(s, 'register'));
  const { userId, token, artistName } = useAppSelector(selectModalProps);
  const [form] = Form.useForm<RegisterValues>();
  const showMessage = useServerErrors(form, state, FIELDS);
  const sending = state.status === 'sending';
  const chart = artistName ? `${artistName}'s Top 50` : 'the Top 50';

  if (!userId || !token) {
    return (
      <div className="kn-auth">
        <AuthHeader title="Finish your registration" />
        <Alert className="kn-auth__alert" type="warning" showIcon title="This registration link is incomplete. Open the link from the email again." />
        <Button type="primary" size="large" block onClick={() => dispatch(modalOpened('forgot-password'))}>
          Email me the link again
        </Button>
      </div>
    );
  }

  return (
    <div className="kn-auth">
      <AuthHeader title="Finish your registration" subtitle={`Choose a username and a password: your song joins ${chart} as soon as you do.`} />
      {showMessage && state.message ? <LinkRefusal message={state.message} /> : null}
      <AuthForm<RegisterValues>
        form={form}
        sending={sending}
        initialValues={{ username: '', password: '', passwordConfirm: '' }}
        partners={{ password: 'passwordConfirm', passwordConfirm: 'password' }}
        mismatch={MISMATCH}
        onFinish={(values) => dispatch(registrationSubmitted({ userId, token, ...values, username: normalizeUsername(values.username) }))}
      >
        <UsernameField autoFocus />
        <NewPasswordFields
          form={form}
          name="password"
          labels={{ password: 'Password', confirm: 'Confirm password' }}
          required={{ password: AUTH_MESSAGES.password, confirm: AUTH_MESSAGES.passwordConfirm }}
          mismatch={MISMATCH}
        />
        <Button type="primary" htmlType="submit" size="large" block loading={sending}>
          {sending ? 'Registering…' : 'Register and publish my song'}
        </Button>
      </AuthForm>
      <p className="kn-auth__fine">
        By registering you agree to the <a href="/terms-of-use.html">Terms of Use</a> and the <a href="/privacy-policy.html">Privacy Policy</a>.
      </p>
    </div>
  );
}
