import { useEffect, useState, type FormEvent } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import { useUpdateSocialMutation } from '../../../api/generated/endpoints';
import type { UpdateSocialArgs } from '../../../api/generated/operations';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { selectUser, userUpdated } from '../../auth';
import { SHOWN_UNDER_THE_FIELDS, useGroupSave } from '../hooks/useGroupSave';
import { FieldError } from './FieldError';

type Social = UpdateSocialArgs['body'];
const EMPTY: Social = { facebook: '', twitter: '', linkedin: '', instagram: '' };
const SITES: { key: keyof Social; label: string; placeholder: string }[] = [
  { key: 'facebook', label: 'Facebook', placeholder: 'facebook.com/yourname' },
  { key: 'twitter', label: 'X (Twitter)', placeholder: '@yourname' },
  { key: 'linkedin', label: 'LinkedIn', placeholder: 'linkedin.com/in/yourname' },
  { key: 'instagram', label: 'Instagram', placeholder: 'instagram.com/yourname' },
];

/** The social group: a profile address or name per site, shown on the public profile once saved. */
export function SocialForm() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser)!;
  const [value, setValue] = useState<Social>(user.social ?? EMPTY);
  const { errors, setErrors, saving, save } = useGroupSave();
  const [updateSocial] = useUpdateSocialMutation();

  useEffect(() => {
    if (user.social) setValue(user.social);
  }, [user.social]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(async () => {
      const social = await updateSocial({ path: { id: user.id }, body: value, quiet: SHOWN_UNDER_THE_FIELDS }).unwrap();
      dispatch(userUpdated({ ...user, social }));
      setValue(social);
    });
  };

  return (
    <form className="kn-settings__form" onSubmit={submit} noValidate aria-labelledby="kn-settings-social">
      <h2 id="kn-settings-social" className="kn-settings__title">
        Social profiles
      </h2>
      {SITES.map((site) => (
        <label key={site.key} className="kn-settings__field">
          <span>{site.label}</span>
          <Input
            value={value[site.key]}
            maxLength={200}
            placeholder={site.placeholder}
            aria-label={site.label}
            status={errors[site.key] ? 'error' : undefined}
            onChange={(event) => {
              setValue((current) => ({ ...current, [site.key]: event.target.value }));
              setErrors({});
            }}
          />
          <FieldError message={errors[site.key]} />
        </label>
      ))}
      <Button type="primary" htmlType="submit" loading={saving}>
        Save
      </Button>
    </form>
  );
}
