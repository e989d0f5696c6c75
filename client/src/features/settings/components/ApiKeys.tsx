import { useState, type FormEvent } from 'react';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import CopyOutlined from '@ant-design/icons/es/icons/CopyOutlined';
import { useCreateApiKeyMutation, useListApiKeysQuery, useRevokeApiKeyMutation } from '../../../api/generated/endpoints';
import type { components } from '../../../../../generated/openapi';
import { MESSAGES } from '../../../../../generated/validation';
import { copyText } from '../../../components/copyText';
import { formatTimeAgo } from '../../../components/format';
import { ResponsiveModal, WarningTitle } from '../../../components/modal';
import { notify } from '../../../components/notify';
import { SHOWN_UNDER_THE_FIELDS, useGroupSave } from '../hooks/useGroupSave';
import { FieldError } from './FieldError';
import './api-keys.css';

type ApiKey = components['schemas']['ApiKey'];
type Scope = components['schemas']['ApiKeyScope'];

/** The scopes a key may have, in words a member reads. */
export const SCOPES: { scope: Scope; label: string; hint: string }[] = [
  { scope: 'catalogue:read', label: 'Read the public catalogue', hint: 'pieces, feeds, search, artists and tags' },
  { scope: 'earnings:read', label: 'Read my earnings', hint: 'your earnings analytics and history' },
  { scope: 'upload', label: 'Upload', hint: 'upload files and publish pieces as you' },
];
const labelOf = (scope: Scope) => SCOPES.find((entry) => entry.scope === scope)?.label ?? scope;

/** Why the list's read is quiet: the group shows its own line when the keys cannot be read. */
const SHOWN_IN_THE_GROUP = 'the API keys group says so in place of the list';

/**
 * The "API keys" group: make a key with a name and what it may do, see it once to copy it, and the list of keys with
 * when each was last used, each revoked after a question. Keys are for the member's own programs (see /api/docs).
 */
export function ApiKeys() {
  const keys = useListApiKeysQuery({ quiet: SHOWN_IN_THE_GROUP });
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['catalogue:read']);
  const [made, setMade] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const { errors, setErrors, saving, save } = useGroupSave();
  const [createKey] = useCreateApiKeyMutation();
  const [revokeKey, revocation] = useRevokeApiKeyMutation();

  const toggle = (scope: Scope, on: boolean) => {
    setScopes((current) => (on ? SCOPES.map((entry) => entry.scope).filter((s) => s === scope || current.includes(s)) : current.filter((s) => s !== scope)));
    setErrors({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setErrors({ name: MESSAGES.apiKeyNameRequired });
    if (!scopes.length) return setErrors({ scopes: MESSAGES.apiKeyScopesRequired });
    void save(async () => {
      const answer = await createKey({ body: { name, scopes }, quiet: SHOWN_UNDER_THE_FIELDS }).unwrap();
      setMade({ name: answer.key.name, secret: answer.secret });
      setName('');
      return answer.message;
    });
  };

  const confirmRevoke = async () => {
    if (!revoking) return;
    try {
      const { message } = await revokeKey({ path: { keyId: revoking.id } }).unwrap();
      notify('success', message);
      setRevoking(null);
    } catch {
      // The HTTP client has shown the server's message; the question stays open.
    }
  };

  const list = keys.data?.keys ?? [];
  const full = keys.data ? list.length >= keys.data.max : false;

  return (
    <section className="kn-settings__group" aria-labelledby="kn-api-keys-title">
      <h2 id="kn-api-keys-title" className="kn-settings__title">
        API keys
      </h2>
      <p className="kn-settings__hint">
        Keys let your own programs call Knack for you, with only what you allow. They never move money or change your account.{' '}
        <a href="/api/docs/integrating">How to use a key</a>
      </p>

      {made ? (
        <div className="kn-api-keys__made" role="status">
          <p className="kn-api-keys__made-title">Copy “{made.name}” now: it is shown only this once.</p>
          <div className="kn-api-keys__secret">
            <code aria-label="Your new API key">{made.secret}</code>
            <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copyText(made.secret, 'The API key')}>
              Copy
            </Button>
          </div>
          <Button type="link" className="kn-api-keys__done" onClick={() => setMade(null)}>
            I have copied it
          </Button>
        </div>
      ) : null}

      <form className="kn-settings__form kn-api-keys__form" onSubmit={submit} noValidate aria-label="Make an API key">
        <label className="kn-settings__field">
          <span>Name</span>
          <Input
            value={name}
            maxLength={60}
            placeholder="What the key is for"
            status={errors.name ? 'error' : undefined}
            onChange={(event) => {
              setName(event.target.value);
              setErrors({});
            }}
          />
          <FieldError message={errors.name} />
        </label>
        <fieldset className="kn-api-keys__scopes">
          <legend>It may</legend>
          {SCOPES.map(({ scope, label, hint }) => (
            <Checkbox key={scope} checked={scopes.includes(scope)} onChange={(event) => toggle(scope, event.target.checked)}>
              {label} <span className="kn-settings__hint">({hint})</span>
            </Checkbox>
          ))}
          <FieldError message={errors.scopes} />
        </fieldset>
        <Button type="primary" htmlType="submit" loading={saving} disabled={full}>
          Make a key
        </Button>
        {full ? <p className="kn-settings__hint">You have {keys.data!.max} keys, the most you may have: revoke one to make another.</p> : null}
      </form>

      {keys.isError ? (
        <p className="kn-settings__hint">Your keys could not be read. Reload the page to try again.</p>
      ) : list.length ? (
        <ul className="kn-api-keys__list" aria-label="Your API keys">
          {list.map((key) => (
            <li key={key.id} className="kn-api-keys__key">
              <div className="kn-api-keys__about">
                <span className="kn-api-keys__name">{key.name}</span>
                <code className="kn-api-keys__start">{key.start}…</code>
                <span className="kn-settings__hint">{key.scopes.map(labelOf).join(' · ')}</span>
                <span className="kn-settings__hint">
                  Made {formatTimeAgo(key.createdAt)} · {key.lastUsedAt ? `last used ${formatTimeAgo(key.lastUsedAt)}` : 'never used'}
                </span>
              </div>
              <Button danger onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name}`}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      ) : keys.data ? (
        <p className="kn-settings__hint">You have no keys yet.</p>
      ) : null}

      <ResponsiveModal
        open={Boolean(revoking)}
        onCancel={revocation.isLoading ? undefined : () => setRevoking(null)}
        title={<WarningTitle className="kn-api-keys__revoke-title">Revoke this key?</WarningTitle>}
        width={460}
        centered
        rootClassName="kn-api-keys-revoke"
        footer={
          <div className="kn-api-keys__revoke-buttons">
            <Button onClick={() => setRevoking(null)} disabled={revocation.isLoading}>
              Keep it
            </Button>
            <Button danger type="primary" loading={revocation.isLoading} onClick={() => void confirmRevoke()}>
              Revoke
            </Button>
          </div>
        }
      >
        <p>“{revoking?.name}” stops working at once: every program that uses it is refused from its next request. It cannot be undone.</p>
      </ResponsiveModal>
    </section>
  );
}
