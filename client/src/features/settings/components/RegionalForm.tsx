import { useEffect, useMemo, useState, type FormEvent } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useGetCountriesQuery, useGetRegionsQuery, useGetUserExtQuery, useUpdateRegionalMutation } from '../../../api/generated/endpoints';
import { useAppSelector } from '../../../lib/storeHooks';
import { selectUser } from '../../auth';
import { SHOWN_UNDER_THE_FIELDS, useGroupSave } from '../hooks/useGroupSave';
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
  const user = useAppSelector(selectUser)!;
  const ext = useGetUserExtQuery({ path: { id: user.id } }).data?.userExt;
  const [value, setValue] = useState<Regional>({ country: null, state: '', city: '', timezone: null });
  const { errors, setErrors, saving, save } = useGroupSave();
  const [updateRegional] = useUpdateRegionalMutation();
  const countries = useGetCountriesQuery();
  // The regions of the country chosen now only (never the list of the one chosen before, while it loads).
  const regions = useGetRegionsQuery(value.country ? { path: { country: value.country } } : skipToken);
  const regionList = regions.currentData?.regions;

  // The saved values, once the extension has loaded (the time zone guessed from the browser when none is saved).
  useEffect(() => {
    if (ext) setValue({ country: ext.country, state: ext.state, city: ext.city, timezone: ext.timezone ?? guessedZone() });
  }, [ext]);

  const countryOptions = useMemo(() => (countries.data?.countries ?? []).map((country) => ({ value: country.code, label: country.name })), [countries.data]);
  const regionOptions = useMemo(() => (regionList ?? []).map((region) => ({ value: region.name, label: region.name })), [regionList]);
  const zoneOptions = useMemo(() => TIME_ZONES.map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') })), []);

  const change = (patch: Partial<Regional>) => {
    setValue((current) => ({ ...current, ...patch }));
    setErrors({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(async () => {
      // The side menu's location line reads the extension too: the change reloads it there.
      await updateRegional({ path: { id: user.id }, body: value, quiet: SHOWN_UNDER_THE_FIELDS }).unwrap();
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
          loading={countries.isLoading}
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
          disabled={!value.country || (regionList ? regionOptions.length === 0 : false)}
          loading={regions.isFetching}
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
