import { useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import Tag from 'antd/es/tag';
import type { CachedError } from '../../../api/cache';
import {
  useDeactivateMemberMutation,
  useDeleteMemberMutation,
  useGetCreditMovementsQuery,
  useGetMemberQuery,
  useGetUserHistoryInfiniteQuery,
  useReactivateMemberMutation,
  useUpdatePremiumCreditsMutation,
  useUpdateStandardCreditsMutation,
} from '../../../api/generated/endpoints';
import type { GetUserHistoryResult } from '../../../api/generated/operations';
import { usePagedList } from '../../../api/pagedList';
import { formatUsd } from '../../../components/format';
import { notify } from '../../../components/notify';
import { MemberStatusTag } from './MemberStatusTag';
import { MEMBERS_TEXT } from './members.text';

/** A balance from this much must be given up explicitly to delete the account (what a cash-out can take). */
const GIVE_UP_FROM_MICROS = 10_000_000;
const historyOf = (page: GetUserHistoryResult) => page.items.map((item) => ({ ...item, id: item.historyId }));
const day = (at: string) => new Date(at).toLocaleDateString(undefined, { dateStyle: 'medium' });

type Tier = 'standard' | 'premium';

/** A change of credits with the admin's note: the tier, a signed amount, and why. */
function CreditsForm({ userId }: { userId: string }) {
  const [tier, setTier] = useState<Tier>('standard');
  const [amount, setAmount] = useState<number | null>(null);
  const [note, setNote] = useState('');
  const [updateStandard, standard] = useUpdateStandardCreditsMutation();
  const [updatePremium, premium] = useUpdatePremiumCreditsMutation();
  const saving = standard.isLoading || premium.isLoading;

  const apply = async () => {
    if (!amount) {
      notify('error', 'Enter how many credits to add (or take, with a minus).');
      return;
    }
    const update = tier === 'standard' ? updateStandard : updatePremium;
    try {
      const answer = await update({ body: { userId, amount, note: note.trim() || undefined } }).unwrap();
      notify('success', `Credits changed: ${answer.credits.sCredit} standard, ${answer.credits.pCredit} premium.`);
      setAmount(null);
      setNote('');
    } catch {
      // told by the one error toast
    }
  };

  return (
    <form
      className="kn-members__credits-form"
      aria-label="Change credits"
      onSubmit={(event) => {
        event.preventDefault();
        void apply();
      }}
    >
      <Select<Tier>
        aria-label="Credit tier"
        value={tier}
        onChange={setTier}
        options={[
          { value: 'standard', label: 'Standard' },
          { value: 'premium', label: 'Premium' },
        ]}
      />
      <InputNumber<number> aria-label="Credits to add" placeholder="+3 or -1" value={amount} onChange={setAmount} min={-1000} max={1000} precision={0} />
      <Input aria-label="Note" placeholder="Note: why" value={note} maxLength={500} onChange={(event) => setNote(event.target.value)} />
      <Button htmlType="submit" type="primary" loading={saving}>
        Change credits
      </Button>
    </form>
  );
}

/** Delete, after a question: a balance of $10 or more is given up only when the admin ticks it. */
function DeleteMember({ userId, username, balanceMicros, onDeleted }: { userId: string; username: string; balanceMicros: number; onDeleted: () => void }) {
  const [asking, setAsking] = useState(false);
  const [giveUp, setGiveUp] = useState(false);
  const [remove, { isLoading }] = useDeleteMemberMutation();
  const mustGiveUp = balanceMicros >= GIVE_UP_FROM_MICROS;

  const confirm = async () => {
    try {
      const answer = await remove({ path: { id: userId }, body: { giveUpBalance: giveUp }, quiet: 'the question shows the refusal itself' }).unwrap();
      notify('success', answer.message);
      setAsking(false);
      onDeleted();
    } catch (error) {
      notify('error', (error as CachedError).message);
    }
  };

  return (
    <>
      <Button danger onClick={() => setAsking(true)}>
        Delete account
      </Button>
      <Modal
        open={asking}
        title={`Delete @${username}?`}
        onCancel={() => setAsking(false)}
        okText="Delete for good"
        okButtonProps={{ danger: true, loading: isLoading, disabled: mustGiveUp && !giveUp }}
        onOk={() => void confirm()}
      >
        <p>Their pieces, files, comments, follows and messages are removed, and they can no longer sign in. This cannot be undone.</p>
        {mustGiveUp ? (
          <Checkbox checked={giveUp} onChange={(event) => setGiveUp(event.target.checked)}>
            {MEMBERS_TEXT.giveUpLabel(formatUsd(balanceMicros / 1_000_000))}
          </Checkbox>
        ) : null}
      </Modal>
    </>
  );
}

/**
 * One member as admins see them: account and status, balance and credits (with the credit changes and their notes),
 * their newest pieces with the flags waiting on each, and their history; deactivate or reactivate, change credits with
 * a note, delete.
 */
export function MemberPanel({ userId, onDeleted }: { userId: string; onDeleted: () => void }) {
  const view = useGetMemberQuery({ path: { id: userId } });
  const movements = useGetCreditMovementsQuery({ path: { id: userId } });
  const history = usePagedList(useGetUserHistoryInfiniteQuery(view.data ? { path: { id: userId } } : skipToken), historyOf);
  const [deactivate, deactivating] = useDeactivateMemberMutation();
  const [reactivate, reactivating] = useReactivateMemberMutation();

  if (view.error) return <p role="alert">{(view.error as CachedError).message}</p>;
  if (!view.data) return <Skeleton active paragraph={{ rows: 6 }} />;
  const { member, balanceMicros, credits, pieces, deactivatedAt } = view.data;
  const changeStatus = async (change: { unwrap: () => Promise<{ message: string }> }) => {
    try {
      notify('success', (await change.unwrap()).message);
    } catch {
      // told by the one error toast
    }
  };

  return (
    <div className="kn-members__panel">
      <header className="kn-members__panel-head">
        <h2>{member.fullName || member.username}</h2>
        <p>
          @{member.username} · {member.email}
        </p>
        <p>
          <MemberStatusTag status={member.status} /> {member.role === 'admin' ? <Tag color="purple">Admin</Tag> : null} Joined {day(member.createdAt)}
          {deactivatedAt ? ` · deactivated ${day(deactivatedAt)}` : ''}
        </p>
      </header>

      <dl className="kn-members__figures">
        <div>
          <dt>Balance</dt>
          <dd data-testid="member-balance">{formatUsd(balanceMicros / 1_000_000)}</dd>
        </div>
        <div>
          <dt>Standard credits</dt>
          <dd data-testid="member-scredits">{credits.sCredit}</dd>
        </div>
        <div>
          <dt>Premium credits</dt>
          <dd data-testid="member-pcredits">{credits.pCredit}</dd>
        </div>
        <div>
          <dt>Public pieces</dt>
          <dd>{member.contentsCount}</dd>
        </div>
      </dl>

      <section className="kn-members__actions" aria-label="Actions">
        {member.status === 'deactivated' ? (
          <Button loading={reactivating.isLoading} onClick={() => void changeStatus(reactivate({ path: { id: userId } }))}>
            Reactivate
          </Button>
        ) : (
          <Popconfirm
            title="Deactivate this member?"
            description="They are signed out everywhere at once and cannot sign in until reactivated."
            okText="Deactivate"
            onConfirm={() => void changeStatus(deactivate({ path: { id: userId } }))}
          >
            <Button loading={deactivating.isLoading}>Deactivate</Button>
          </Popconfirm>
        )}
        <DeleteMember userId={userId} username={member.username} balanceMicros={balanceMicros} onDeleted={onDeleted} />
      </section>

      <section aria-labelledby="kn-members-credits">
        <h3 id="kn-members-credits">Credits</h3>
        <CreditsForm userId={userId} />
        <ul className="kn-members__rows">
          {(movements.data?.movements ?? [])
            .filter((movement) => movement.reason === 'admin')
            .slice(0, 5)
            .map((movement) => (
              <li key={movement.id}>
                {movement.standard
                  ? `${movement.standard > 0 ? '+' : ''}${movement.standard} standard`
                  : `${movement.premium > 0 ? '+' : ''}${movement.premium} premium`}
                {movement.note ? ` · “${movement.note}”` : ''} <time dateTime={movement.at}>{day(movement.at)}</time>
              </li>
            ))}
        </ul>
      </section>

      <section aria-labelledby="kn-members-pieces">
        <h3 id="kn-members-pieces">Pieces</h3>
        {pieces.length === 0 ? <p className="kn-members__empty">No pieces.</p> : null}
        <ul className="kn-members__rows">
          {pieces.map((piece) => (
            <li key={piece.id}>
              <a href={piece.link} target="_blank" rel="noreferrer">
                {piece.title}
              </a>{' '}
              {piece.takenDown ? (
                <Tag color="red">Taken down</Tag>
              ) : piece.isHide ? (
                <Tag color="orange">Held</Tag>
              ) : piece.listed ? null : (
                <Tag>Not listed</Tag>
              )}
              {piece.openFlags ? <Tag color="volcano">{piece.openFlags === 1 ? '1 flag' : `${piece.openFlags} flags`}</Tag> : null}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="kn-members-history">
        <h3 id="kn-members-history">History</h3>
        {history.status === 'ready' && history.items.length === 0 ? <p className="kn-members__empty">Nothing yet.</p> : null}
        <ul className="kn-members__rows">
          {history.items.map((item) => (
            <li key={item.id}>
              {item.activity} · {formatUsd(item.activityType === 'Paid1' ? item.changes.earned : item.changes.paid)}
              {item.status ? ` · ${item.status}` : ''} <time dateTime={item.at}>{day(item.at)}</time>
            </li>
          ))}
        </ul>
        {history.hasMore ? (
          <Button loading={history.loadingMore} onClick={history.loadMore}>
            More
          </Button>
        ) : null}
      </section>
    </div>
  );
}
