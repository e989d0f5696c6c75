import { useEffect, useId, useState, type FormEvent } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import type { CachedError } from '../../../api/cache';
import { useAddKnackMutation, useRequestKnackCodeMutation } from '../../../api/generated/endpoints';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { selectUser } from '../../auth';
import { modalClosed, selectModalProps } from '../../../lib/ui';
import { HostedModal } from '../../../components/modal';
import { knackRegistered } from '../../../lib/contentEvents';
import { VERIFICATION_MESSAGES } from '../knack.messages';

type Mail = { state: 'sending' } | { state: 'sent'; message: string } | { state: 'failed'; message: string };

/**
 * The verification modal: after 9 knacks in the last 24 hours, the next needs the 4-digit code mailed by
 * `knack/over-knack`; the knack that asked for it is sent again with the code. A wrong, expired or used-up
 * code says 'Invalid verification code.'; a new code can be asked for.
 */
export default function VerificationModal({ open }: { open: boolean }) {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const { contentId, playId } = useAppSelector(selectModalProps);
  const [mail, setMail] = useState<Mail>({ state: 'sending' });
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [requestKnackCode] = useRequestKnackCodeMutation();
  const [addKnack, { isLoading: sending }] = useAddKnackMutation();
  const fieldId = useId();

  const sendCode = async () => {
    if (!user) return;
    setMail({ state: 'sending' });
    try {
      const answer = await requestKnackCode({ body: { userId: user.id }, quiet: 'the modal says whether the code was mailed' }).unwrap();
      setMail({ state: 'sent', message: answer.message });
    } catch (failure) {
      setMail({ state: 'failed', message: (failure as CachedError).message });
    }
  };

  // One mail per opening.
  useEffect(() => {
    if (open) {
      setCode('');
      setError(null);
      void sendCode();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user || !contentId) return;
    if (!/^\d{4}$/.test(code)) {
      setError(VERIFICATION_MESSAGES.invalidCode);
      return;
    }
    setError(null);
    try {
      const result = await addKnack({
        body: { contentId, userId: user.id, code, ...(playId ? { playId } : {}) },
        quiet: 'the code field shows the refusal under it',
      }).unwrap();
      dispatch(knackRegistered({ contentId, ...result }));
      dispatch(modalClosed());
    } catch (failure) {
      setError((failure as CachedError).message);
    }
  };

  return (
    <HostedModal open={open} centered width={440} title="Verification" rootClassName="kn-verification-modal">
      <form className="kn-verification" onSubmit={(event) => void submit(event)} noValidate>
        <p>{VERIFICATION_MESSAGES.intro}</p>
        <p className="kn-verification__mail" role="status">
          {mail.state === 'sending' ? 'Sending the code…' : mail.message}
        </p>
        <label htmlFor={fieldId}>Verification code</label>
        <Input
          id={fieldId}
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 4))}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={4}
          placeholder="0000"
          status={error ? 'error' : undefined}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${fieldId}-error` : undefined}
        />
        {error ? (
          <p id={`${fieldId}-error`} className="kn-verification__error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="kn-verification__actions">
          <Button onClick={() => void sendCode()} disabled={mail.state === 'sending'}>
            Send a new code
          </Button>
          <Button type="primary" htmlType="submit" loading={sending}>
            Verify
          </Button>
        </div>
      </form>
    </HostedModal>
  );
}
