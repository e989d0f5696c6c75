import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Skeleton from 'antd/es/skeleton';
import { useDeleteMyAccountMutation, useGetWalletSummaryQuery } from '../../../api/generated/endpoints';
import { MESSAGES } from '../../../../../generated/validation';
import { PATHS } from '../../../lib/constants';
import { useAppDispatch } from '../../../lib/storeHooks';
import { ResponsiveModal, WarningTitle } from '../../../components/modal';
import { loggedOut } from '../../auth';
import { SHOWN_UNDER_THE_FIELDS, useGroupSave } from '../hooks/useGroupSave';
import { FieldError } from './FieldError';
import { formatUsd } from '../../../components/format';

export interface DeleteAccountModalProps {
  /** Whose account: the signed-in member's. */
  userId: string;
  onClose: () => void;
}

/**
 * Asks before deleting the account: the password, and what happens to the money Knack still owes (from the wallet
 * figures). A balance a cash-out can take must be cashed out (the wallet is linked) or given up (the checkbox); a
 * smaller one is given up; a cash-out waiting for approval must be paid first. Once deleted, the member is signed
 * out and lands home with a toast.
 */
export default function DeleteAccountModal({ userId, onClose }: DeleteAccountModalProps) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const wallet = useGetWalletSummaryQuery({ path: { id: userId } });
  const [deleteAccount] = useDeleteMyAccountMutation();
  const [password, setPassword] = useState('');
  const [giveUpBalance, setGiveUpBalance] = useState(false);
  const { errors, setErrors, saving, save } = useGroupSave();

  const summary = wallet.data;
  const waiting = Boolean(summary && summary.pendingCashOutMicros > 0);
  const unpaid = Boolean(summary && !waiting && summary.canCashOut);
  const blocked = !summary || waiting || (unpaid && !giveUpBalance);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (blocked) return;
    if (!password) return setErrors({ password: MESSAGES.loginPassword });
    void save(async () => {
      const { message } = await deleteAccount({ path: { id: userId }, body: { password, giveUpBalance }, quiet: SHOWN_UNDER_THE_FIELDS }).unwrap();
      dispatch(loggedOut());
      void navigate(PATHS.home, { replace: true });
      return message;
    });
  };

  const balanceRule = () => {
    if (!summary) return <Skeleton active title={false} paragraph={{ rows: 1 }} />;
    if (waiting) {
      return (
        <p className="kn-delete-account__money" role="alert">
          Your cash-out of {formatUsd(summary.pendingCashOut)} is waiting for approval. You can delete your account once it is paid.
        </p>
      );
    }
    if (unpaid) {
      return (
        <div className="kn-delete-account__money" role="alert">
          <p>
            You have {formatUsd(summary.balance)} not paid out yet. <Link to={PATHS.wallet}>Cash it out from your wallet</Link> first, or give it up.
          </p>
          <Checkbox
            checked={giveUpBalance}
            onChange={(event) => {
              setGiveUpBalance(event.target.checked);
              setErrors({});
            }}
          >
            Give up my {formatUsd(summary.balance)}
          </Checkbox>
          <FieldError message={errors.giveUpBalance} />
        </div>
      );
    }
    if (summary.balanceMicros > 0) {
      return (
        <p className="kn-delete-account__note">
          Your balance of {formatUsd(summary.balance)} is under the {formatUsd(summary.minCashOut)} cash-out minimum, so it is given up with your account.
        </p>
      );
    }
    return null;
  };

  return (
    <ResponsiveModal
      open
      onCancel={saving ? undefined : onClose}
      title={<WarningTitle className="kn-delete-account__title">Delete your account?</WarningTitle>}
      width={520}
      centered
      rootClassName="kn-delete-account-modal"
      footer={
        <div className="kn-delete-account__buttons">
          <Button onClick={onClose} disabled={saving}>
            Keep my account
          </Button>
          <Button danger type="primary" loading={saving} disabled={blocked} onClick={() => submit()}>
            Delete my account
          </Button>
        </div>
      }
    >
      <form className="kn-delete-account" onSubmit={submit} noValidate>
        <p className="kn-delete-account__text">
          Your pieces and their files, your comments and your follows are removed, and nobody can sign in to this account again. This cannot be undone.
        </p>
        {balanceRule()}
        <label className="kn-settings__field">
          <span>Your password</span>
          <Input.Password
            value={password}
            autoComplete="current-password"
            aria-label="Your password"
            status={errors.password ? 'error' : undefined}
            onChange={(event) => {
              setPassword(event.target.value);
              setErrors({});
            }}
          />
          <FieldError message={errors.password} />
        </label>
      </form>
    </ResponsiveModal>
  );
}
