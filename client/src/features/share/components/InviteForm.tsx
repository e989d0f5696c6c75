import { useId, useState, type FormEvent } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { useInviteUserMutation } from '../../../api/generated/endpoints';
import { MESSAGES, PATTERNS } from '../../../../../generated/validation';
import { notify } from '../../../components/notify';
import { selectUser } from '../../auth';
import { modalOpened } from '../../../lib/ui';

/**
 * Invite by email (user/invite-user): 'Invite sent successfully'. A visitor is asked to log in first;
 * the share modal opens again after the login.
 */
export function InviteForm({ contentId }: { contentId: string }) {
  const id = useId();
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [inviteUser, { isLoading: sending }] = useInviteUserMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user) {
      // 'onClickKnack' is the login origin that runs its callback: back to this modal, signed in.
      dispatch(modalOpened({ name: 'login', origin: 'onClickKnack', callback: modalOpened({ name: 'share', contentId }) }));
      return;
    }
    const address = email.trim();
    if (!PATTERNS.email.test(address)) {
      setError(MESSAGES.emailMustBeValid);
      return;
    }
    setError(null);
    try {
      const answer = await inviteUser({ body: { userId: user.id, contentId, email: address } }).unwrap();
      notify('success', answer.message);
      setEmail('');
    } catch {
      // The one error toast has shown the server's message.
    }
  };

  return (
    <form className="kn-share__field kn-share__invite" onSubmit={(event) => void submit(event)} noValidate>
      <label className="kn-share__label" htmlFor={id}>
        Invite by email
      </label>
      <Space.Compact block>
        <Input
          id={id}
          type="email"
          placeholder="friend@example.com"
          value={email}
          status={error ? 'error' : undefined}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button type="primary" htmlType="submit" loading={sending}>
          {user ? 'Send invite' : 'Log in to invite'}
        </Button>
      </Space.Compact>
      {error ? (
        <div id={`${id}-error`} className="kn-share__error" role="alert">
          {error}
        </div>
      ) : null}
    </form>
  );
}
