import { useEffect, useMemo, useState, type FormEvent } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { useGetCountries, useGetRegions } from '../../../api/generated/hooks';
import { updateRegional } from '../../../api/generated/operations';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { selectUser, selectUserExt, userExtLoaded } from '../../auth';
import { useGroupSave } from '../hooks/useGroupSave';
import { FieldError } from './FieldError';

interface Regional {
  country: string | null;
  state: string;
  city: string;
  timezone: string | null;
}

/** The IANA zones this browser knows, for the time zone list. */
const TIME_ZONES = Intl.supportedValuesOf('timeZone');
const guessedZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const byLabel = (input: string, option?: { label: string }) => (option?.label ?? '').toLowerCase().includes(input.toLowerCase());

/**
 * Regional settings: country, state or region (from the country's list), city and time zone. Saved on its own;
 * the side menu's location line ("city, state") follows at once.
 */
export function RegionalForm() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser)!;
  const ext = useAppSelector(selectUserExt);
  const [value, setValue] = useState<Regional>({ country: null, state: '', city: '', timezone: null });
  const { errors, setErrors, saving, save } = useGroupSave();
  const countries = useGetCountries();
  const regions = useGetRegions({ path: { country: value.country ?? 'AA' } }, { enabled: Boolean(value.country) });

  // The saved values, once the extension has loaded (the time zone guessed from the browser when none is saved).
  useEffect(() => {
    if (ext) setValue({ country: ext.country, state: ext.state, city: ext.city, timezone: ext.timezone ?? guessedZone() });
  }, [ext]);

  const countryOptions = useMemo(() => (countries.data?.countries ?? []).map((country) => ({ value: country.code, label: country.name })), [countries.data]);
  const regionOptions = useMemo(() => (regions.data?.regions ?? []).map((region) => ({ value: region.name, label: region.name })), [regions.data]);
  const zoneOptions = useMemo(() => TIME_ZONES.map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') })), []);

  const change = (patch: Partial<Regional>) => {
    setValue((current) => ({ ...current, ...patch }));
    setErrors({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(async () => {
      const { userExt } = await updateRegional({ path: { id: user.id }, body: value }, { quiet: true });
      dispatch(userExtLoaded(userExt));
    });
  };

  return (
    <form className="kn-settings__form" onSubmit={submit} noValidate aria-labelledby="kn-settings-regional">
      <h2 id="kn-settings-regional" className="kn-settings__title">
        Where you are from
      </h2>
      <label className="kn-settings__field">
        <span>Country</span>
        <Select
          showSearch
          allowClear
          aria-label="Country"
          placeholder="Choose your country"
          options={countryOptions}
          filterOption={byLabel}
          loading={countries.loading}
          value={value.country ?? undefined}
          status={errors.country ? 'error' : undefined}
          onChange={(country?: string) => change({ country: country ?? null, state: '' })}
        />
        <FieldError message={errors.country} />
      </label>
      <label className="kn-settings__field">
        <span>State or region</span>
        <Select
          showSearch
          allowClear
          aria-label="State or region"
          placeholder={value.country ? 'Choose your state or region' : 'Choose a country first'}
          options={regionOptions}
          filterOption={byLabel}
          disabled={!value.country || (regions.data ? regionOptions.length === 0 : false)}
          loading={regions.loading}
          value={value.state || undefined}
          status={errors.state ? 'error' : undefined}
          onChange={(state?: string) => change({ state: state ?? '' })}
        />
        <FieldError message={errors.state} />
      </label>
      <label className="kn-settings__field">
        <span>City</span>
        <Input
          value={value.city}
          maxLength={100}
          aria-label="City"
          status={errors.city ? 'error' : undefined}
          onChange={(event) => change({ city: event.target.value })}
        />
        <FieldError message={errors.city} />
      </label>
      <label className="kn-settings__field">
        <span>Time zone</span>
        <Select
          showSearch
          aria-label="Time zone"
          options={zoneOptions}
          filterOption={byLabel}
          value={value.timezone ?? undefined}
          status={errors.timezone ? 'error' : undefined}
          onChange={(timezone: string) => change({ timezone })}
        />
        <FieldError message={errors.timezone} />
      </label>
      <Button type="primary" htmlType="submit" loading={saving}>
        Save
      </Button>
    </form>
  );
}
