import { useEffect, useState, type FormEvent } from 'react';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import { useRequestEmailChangeMutation, useUpdatePersonalMutation, useUpdateUsernameMutation } from '../../../api/generated/endpoints';
import type { UpdatePersonalArgs } from '../../../api/generated/operations';
import { MESSAGES } from '../../../../../generated/validation';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { emailProblem, normalizeEmail, normalizeUsername, selectUser, userUpdated, usernameProblem, type User } from '../../auth';
import { SHOWN_UNDER_THE_FIELDS, useGroupSave } from '../hooks/useGroupSave';
import { FieldError } from './FieldError';

type Personal = UpdatePersonalArgs['body'];
/** How the member is known: each saved by a call of its own, under the sign-up's rules. */
type Identity = { username: string; email: string };
type IdentityField = keyof Identity;

const fromUser = (user: User): Personal => ({
  sex: user.sex,
  birthday: user.birthday,
  bio: user.bio,
  willReceiveNews: user.willReceiveNews ?? true,
  willReceivePromotes: user.willReceivePromotes ?? false,
  willReceiveDigest: user.willReceiveDigest ?? true,
  willReceiveStatements: user.willReceiveStatements ?? true,
  willReceivePayoutNotices: user.willReceivePayoutNotices ?? true,
});

const identityOf = (user: User): Identity => ({ username: user.username, email: user.email });

/** The sign-up's rule a changed field breaks (a field left as it is was accepted already), or null. */
function identityProblem(field: IdentityField, identity: Identity, user: User): string | null {
  if (field === 'username') return normalizeUsername(identity.username) === user.username ? null : usernameProblem(identity.username);
  return normalizeEmail(identity.email) === user.email ? null : emailProblem(identity.email);
}

/**
 * The personal group: username and email, sex, birthday, bio (shown on the public profile) and which mails the
 * member wants. A new username applies at once (links with the old one keep leading here); a new email asks for
 * the current password (whoever has the email can reset the password) and applies only once the link mailed to
 * it is opened, and until then the form says where the link went.
 */
export function PersonalForm() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser)!;
  const [value, setValue] = useState<Personal>(() => fromUser(user));
  const [identity, setIdentity] = useState<Identity>(() => identityOf(user));
  const [password, setPassword] = useState('');
  const { errors, setErrors, saving, save } = useGroupSave();
  const [updatePersonal] = useUpdatePersonalMutation();
  const [updateUsername] = useUpdateUsernameMutation();
  const [requestEmailChange] = useRequestEmailChangeMutation();
  const emailChanging = normalizeEmail(identity.email) !== user.email;

  useEffect(() => {
    setValue(fromUser(user));
    setIdentity(identityOf(user));
  }, [user]);

  const change = (patch: Partial<Personal>) => {
    setValue((current) => ({ ...current, ...patch }));
    setErrors({});
  };

  const changeIdentity = (patch: Partial<Identity>) => {
    setIdentity((current) => ({ ...current, ...patch }));
    setErrors({});
  };

  /** Checked when the field is left, as sign-up does. */
  const checkField = (field: IdentityField) => {
    const problem = identityProblem(field, identity, user);
    if (problem) setErrors((current) => ({ ...current, [field]: problem }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: Record<string, string> = Object.fromEntries(
      (['username', 'email'] as const).flatMap((field) => {
        const problem = identityProblem(field, identity, user);
        return problem ? [[field, problem]] : [];
      }),
    );
    if (emailChanging && !problems.email && !password) problems.password = MESSAGES.loginPassword;
    if (Object.keys(problems).length) {
      setErrors(problems);
      return;
    }
    const username = normalizeUsername(identity.username);
    const email = normalizeEmail(identity.email);
    void save(async () => {
      // One call per part, the email last as it sends mail. When a later call is refused, the form keeps what
      // was typed with the message; saving again repeats the calls that worked, which changes nothing more.
      const quiet = SHOWN_UNDER_THE_FIELDS;
      let saved = (await updatePersonal({ path: { id: user.id }, body: value, quiet }).unwrap()).user;
      if (username !== user.username) saved = (await updateUsername({ path: { id: user.id }, body: { username }, quiet }).unwrap()).user;
      let message: string | undefined;
      if (email !== user.email) {
        ({ user: saved, message } = await requestEmailChange({ path: { id: user.id }, body: { email, password }, quiet }).unwrap());
        setPassword('');
      }
      dispatch(userUpdated(saved));
      return message;
    });
  };

  return (
    <form className="kn-settings__form" onSubmit={submit} noValidate aria-labelledby="kn-settings-personal">
      <h2 id="kn-settings-personal" className="kn-settings__title">
        About you
      </h2>
      <label className="kn-settings__field">
        <span>Username</span>
        <Input
          aria-label="Username"
          autoComplete="username"
          value={identity.username}
          status={errors.username ? 'error' : undefined}
          onChange={(event) => changeIdentity({ username: event.target.value })}
          onBlur={() => checkField('username')}
        />
        <FieldError message={errors.username} />
        <span className="kn-settings__hint">Links with a username you had before keep leading to you.</span>
      </label>
      <label className="kn-settings__field">
        <span>Email</span>
        <Input
          type="email"
          aria-label="Email"
          autoComplete="email"
          value={identity.email}
          status={errors.email ? 'error' : undefined}
          onChange={(event) => changeIdentity({ email: event.target.value })}
          onBlur={() => checkField('email')}
        />
        <FieldError message={errors.email} />
        {user.pendingEmail ? (
          <span className="kn-settings__notice" role="status" data-testid="pending-email">
            {MESSAGES.emailChangeSent.replace('{email}', user.pendingEmail)}
          </span>
        ) : (
          <span className="kn-settings__hint">A new email takes effect when you open the link we send to it.</span>
        )}
      </label>
      {emailChanging ? (
        <label className="kn-settings__field">
          <span>Current password</span>
          <Input.Password
            aria-label="Current password"
            autoComplete="current-password"
            value={password}
            status={errors.password ? 'error' : undefined}
            onChange={(event) => {
              setPassword(event.target.value);
              setErrors({});
            }}
          />
          <FieldError message={errors.password} />
          <span className="kn-settings__hint">Changing your email asks for your password: the email is where a forgotten password is reset.</span>
        </label>
      ) : null}
      <div className="kn-settings__field" role="group" aria-label="Sex">
        <span>Sex</span>
        <Radio.Group value={value.sex ?? ''} onChange={(event) => change({ sex: (event.target.value as 'M' | 'W' | '') || null })}>
          <Radio value="W">Woman</Radio>
          <Radio value="M">Man</Radio>
          <Radio value="">Rather not say</Radio>
        </Radio.Group>
      </div>
      <label className="kn-settings__field">
        <span>Birthday</span>
        <Input
          type="date"
          aria-label="Birthday"
          value={value.birthday ?? ''}
          status={errors.birthday ? 'error' : undefined}
          onChange={(event) => change({ birthday: event.target.value || null })}
        />
        <FieldError message={errors.birthday} />
      </label>
      <label className="kn-settings__field">
        <span>Bio</span>
        <Input.TextArea
          aria-label="Bio"
          value={value.bio}
          autoSize={{ minRows: 3, maxRows: 8 }}
          status={errors.bio ? 'error' : undefined}
          onChange={(event) => change({ bio: event.target.value })}
        />
        <FieldError message={errors.bio} />
      </label>
      <Checkbox checked={value.willReceiveNews} onChange={(event) => change({ willReceiveNews: event.target.checked })}>
        Email me news from Knack and about my messages
      </Checkbox>
      {/* The digest is news mail: it goes out only with news on, so it cannot be chosen without it. */}
      <Checkbox
        checked={value.willReceiveNews && value.willReceiveDigest}
        disabled={!value.willReceiveNews}
        onChange={(event) => change({ willReceiveDigest: event.target.checked })}
      >
        Email me a weekly digest of new pieces from the artists I follow
      </Checkbox>
      <Checkbox checked={value.willReceiveStatements} onChange={(event) => change({ willReceiveStatements: event.target.checked })}>
        Email me a monthly statement of what my pieces earned
      </Checkbox>
      <Checkbox checked={value.willReceivePayoutNotices} onChange={(event) => change({ willReceivePayoutNotices: event.target.checked })}>
        Email me when a payout or cash-out is sent
      </Checkbox>
      <Checkbox checked={value.willReceivePromotes} onChange={(event) => change({ willReceivePromotes: event.target.checked })}>
        Email me offers
      </Checkbox>
      <Button type="primary" htmlType="submit" loading={saving}>
        Save
      </Button>
    </form>
  );
}
