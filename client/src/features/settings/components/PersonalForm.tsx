import { useEffect, useState, type FormEvent } from 'react';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import { updatePersonal, type UpdatePersonalArgs } from '../../../api/generated/operations';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectUser, userUpdated, type User } from '../../auth';
import { useGroupSave } from '../hooks/useGroupSave';
import { FieldError } from './FieldError';

type Personal = UpdatePersonalArgs['body'];

const fromUser = (user: User): Personal => ({
  sex: user.sex,
  birthday: user.birthday,
  bio: user.bio,
  willReceiveNews: user.willReceiveNews ?? true,
  willReceivePromotes: user.willReceivePromotes ?? false,
});

/** The personal group: sex, birthday, bio (shown on the public profile) and which mails the member wants. */
export function PersonalForm() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser)!;
  const [value, setValue] = useState<Personal>(() => fromUser(user));
  const { errors, setErrors, saving, save } = useGroupSave();

  useEffect(() => setValue(fromUser(user)), [user]);

  const change = (patch: Partial<Personal>) => {
    setValue((current) => ({ ...current, ...patch }));
    setErrors({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(async () => {
      const result = await updatePersonal({ path: { id: user.id }, body: value }, { quiet: true });
      dispatch(userUpdated(result.user));
    });
  };

  return (
    <form className="kn-settings__form" onSubmit={submit} noValidate aria-labelledby="kn-settings-personal">
      <h2 id="kn-settings-personal" className="kn-settings__title">
        About you
      </h2>
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
      <Checkbox checked={value.willReceivePromotes} onChange={(event) => change({ willReceivePromotes: event.target.checked })}>
        Email me offers
      </Checkbox>
      <Button type="primary" htmlType="submit" loading={saving}>
        Save
      </Button>
    </form>
  );
}
