import { lazy, Suspense, useState, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Segmented from 'antd/es/segmented';
import Skeleton from 'antd/es/skeleton';
import Table, { type ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import DollarOutlined from '@ant-design/icons/es/icons/DollarOutlined';
import {
  useApproveCashOutMutation,
  useDeclineCashOutMutation,
  useListCashOutsInfiniteQuery,
  useRestoreCashOutMutation,
} from '../../../api/generated/endpoints';
import type { ListCashOutsResult } from '../../../api/generated/operations';
import { usePagedList } from '../../../api/pagedList';
import { PageHead } from '../../../components/PageHead';
import { formatUsd } from '../../../components/format';
import { ResponsiveModal } from '../../../components/modal';
import { useToastedCall } from '../../../lib/useToastedCall';
import { loadMemberHistory } from '../../wallet';
import '../admin.css';

const MemberHistory = lazy(loadMemberHistory);

type CashOut = ListCashOutsResult['cashOuts'][number];
type Row = CashOut & { id: string };
type Filter = 'all' | CashOut['status'];

const PAGE = 20;
/** The same words the server answers a blank reason with, said before asking it. */
const REASON_REQUIRED = 'Please tell the member why the cash-out is declined.';

const FILTERS: { label: string; value: Filter }[] = [
  { label: 'All', value: 'all' },
  { label: 'Waiting', value: 'waiting' },
  { label: 'Paid', value: 'paid' },
  { label: 'Declined', value: 'declined' },
  { label: 'Cancelled', value: 'cancelled' },
];

const STATE_TAGS: Record<CashOut['status'], { color: string; text: string }> = {
  waiting: { color: 'gold', text: 'Waiting' },
  paid: { color: 'green', text: 'Paid' },
  declined: { color: 'red', text: 'Declined' },
  cancelled: { color: 'default', text: 'Cancelled' },
};

const rowsOf = (page: ListCashOutsResult): Row[] => page.cashOuts.map((cashOut) => ({ ...cashOut, id: cashOut.historyId }));
const day = (at: string) => new Date(at).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const memberName = (row: CashOut) => row.member?.username ?? 'A deleted member';

function PayoutAccount({ row }: { row: CashOut }) {
  if (!row.payoutAccount) return <span className="kn-cash-outs__muted">No PayPal email</span>;
  return (
    <span className="kn-cash-outs__account">
      {row.payoutAccount.paypal}
      {row.payoutAccount.held ? <Tag color="orange">On hold</Tag> : null}
    </span>
  );
}

function State({ row }: { row: CashOut }) {
  const tag = STATE_TAGS[row.status];
  return (
    <span className="kn-cash-outs__state">
      <Tag color={tag.color}>{tag.text}</Tag>
      {row.paidBy === 'monthlyPayout' ? <span className="kn-cash-outs__muted">by the monthly payout</span> : null}
      {row.reason ? <span className="kn-cash-outs__muted">{row.reason}</span> : null}
    </span>
  );
}

/**
 * A decision that asks first (approve, restore): the question says what happens to whose money, and the server's
 * answer shows as a toast.
 */
function DecisionQuestion({
  row,
  title,
  okText,
  says,
  decide,
  onClose,
}: {
  row: CashOut | null;
  title: string;
  okText: string;
  says: (row: CashOut) => ReactNode;
  decide: (row: CashOut) => Promise<string>;
  onClose: () => void;
}) {
  const { busy, run } = useToastedCall();
  const send = async () => {
    if (!row) return;
    if (await run(() => decide(row))) onClose();
  };
  return (
    <Modal
      open={Boolean(row)}
      title={title}
      okText={okText}
      cancelText="Not now"
      okButtonProps={{ loading: busy }}
      onOk={() => void send()}
      onCancel={busy ? undefined : onClose}
    >
      {row ? <p>{says(row)}</p> : null}
    </Modal>
  );
}

/** Approve says what is sent where. */
function ApproveQuestion({ row, onClose }: { row: CashOut | null; onClose: () => void }) {
  const [approve] = useApproveCashOutMutation();
  return (
    <DecisionQuestion
      row={row}
      title="Approve this cash-out?"
      okText="Approve and send"
      onClose={onClose}
      decide={async (asked) => (await approve({ body: { historyId: asked.historyId }, quiet: 'the question toasts the outcome itself' }).unwrap()).message}
      says={(asked) => (
        <>
          {`${formatUsd(asked.amount)} leaves ${memberName(asked)}'s balance (${formatUsd(asked.balance)} now) and is sent, less the payout provider's fee, to `}
          <strong>{asked.payoutAccount?.paypal ?? 'their PayPal email'}</strong>.
        </>
      )}
    />
  );
}

/** Restore undoes a decline or a cancel made by mistake: the request waits again, and the member is mailed. */
function RestoreQuestion({ row, onClose }: { row: CashOut | null; onClose: () => void }) {
  const [restore] = useRestoreCashOutMutation();
  return (
    <DecisionQuestion
      row={row}
      title="Restore this cash-out request?"
      okText="Restore"
      onClose={onClose}
      decide={async (asked) => (await restore({ path: { id: asked.historyId }, quiet: 'the question toasts the outcome itself' }).unwrap()).message}
      says={(asked) =>
        `${memberName(asked)}'s request to cash out ${formatUsd(asked.amount)} waits for approval again, and they are mailed that it does. ` +
        'The monthly payout pays it if nobody decides first.'
      }
    />
  );
}

/** Decline asks for the reason the member reads (in their history and a mail); a blank one is refused on the spot. */
function DeclineModal({ row, onClose }: { row: CashOut | null; onClose: () => void }) {
  const [decline] = useDeclineCashOutMutation();
  const { busy, run } = useToastedCall();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };
  const send = async () => {
    if (!row) return;
    if (!reason.trim()) {
      setError(REASON_REQUIRED);
      return;
    }
    const done = await run(
      async () =>
        (await decline({ path: { id: row.historyId }, body: { reason: reason.trim() }, quiet: 'the modal toasts the outcome itself' }).unwrap()).message,
    );
    if (done) close();
  };
  return (
    <ResponsiveModal
      width={480}
      rootClassName="kn-decline-modal"
      open={Boolean(row)}
      title="Decline this cash-out"
      okText="Decline"
      cancelText="Not now"
      okButtonProps={{ danger: true, loading: busy }}
      onOk={() => void send()}
      onCancel={busy ? undefined : close}
    >
      {row ? <p>{`${memberName(row)} asked to cash out ${formatUsd(row.amount)}. Nothing is paid, and they are mailed your reason.`}</p> : null}
      <label className="kn-cash-outs__reason">
        <span>Reason (the member reads it)</span>
        <Input.TextArea
          aria-label="Reason"
          value={reason}
          maxLength={200}
          rows={3}
          status={error ? 'error' : undefined}
          onChange={(event) => {
            setReason(event.target.value);
            setError(null);
          }}
        />
      </label>
      {error ? (
        <p className="kn-cash-outs__error" role="alert">
          {error}
        </p>
      ) : null}
    </ResponsiveModal>
  );
}

/**
 * The admins' cash-outs: members' requests, the waiting ones first and the oldest first (a wait over 7 days is
 * flagged), filtered by state or searched by member. Each row shows the member's balance now, their payout account
 * and their history; a waiting request is approved (paid through the payout provider) or declined with a reason, and a
 * declined or cancelled one can be restored to waiting.
 */
export default function AdminCashOutsPage() {
  const [filter, setFilter] = useState<Filter>('all');
  const [search, setSearch] = useState('');
  const [approving, setApproving] = useState<CashOut | null>(null);
  const [declining, setDeclining] = useState<CashOut | null>(null);
  const [restoring, setRestoring] = useState<CashOut | null>(null);
  const [historyOf, setHistoryOf] = useState<CashOut | null>(null);
  const query = { limit: PAGE, ...(filter !== 'all' && { status: filter }), ...(search && { q: search }) };
  const list = usePagedList(useListCashOutsInfiniteQuery({ query }), rowsOf);

  const columns: ColumnsType<Row> = [
    {
      title: 'Member',
      key: 'member',
      render: (_, row) => (
        <div className="kn-cash-outs__member">
          <strong>{memberName(row)}</strong>
          {row.member ? <span className="kn-cash-outs__muted">{row.member.email}</span> : null}
          {/* What the hidden columns say, on a phone. */}
          <span className="kn-cash-outs__phone-only">
            {`${formatUsd(row.amount)} · asked ${day(row.requestedAt)} · balance ${formatUsd(row.balance)}`}
            {row.overdue ? <Tag color="red">Waiting over 7 days</Tag> : null}
          </span>
        </div>
      ),
    },
    { title: 'Amount', key: 'amount', responsive: ['md'], render: (_, row) => formatUsd(row.amount) },
    {
      title: 'Requested',
      key: 'requestedAt',
      responsive: ['md'],
      render: (_, row) => (
        <span className="kn-cash-outs__state">
          <time dateTime={row.requestedAt}>{day(row.requestedAt)}</time>
          {row.overdue ? <Tag color="red">Waiting over 7 days</Tag> : null}
        </span>
      ),
    },
    { title: 'State', key: 'status', responsive: ['sm'], render: (_, row) => <State row={row} /> },
    { title: 'Balance now', key: 'balance', responsive: ['lg'], render: (_, row) => formatUsd(row.balance) },
    { title: 'Payout account', key: 'payoutAccount', responsive: ['lg'], render: (_, row) => <PayoutAccount row={row} /> },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, row) => (
        <div className="kn-cash-outs__actions">
          {row.status === 'waiting' ? (
            <>
              <Button type="primary" size="small" onClick={() => setApproving(row)}>
                Approve
              </Button>
              <Button danger size="small" onClick={() => setDeclining(row)}>
                Decline
              </Button>
            </>
          ) : null}
          {(row.status === 'declined' || row.status === 'cancelled') && row.member ? (
            <Button size="small" onClick={() => setRestoring(row)}>
              Restore
            </Button>
          ) : null}
          {row.member ? (
            <Button type="link" size="small" onClick={() => setHistoryOf(row)}>
              History
            </Button>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <div className="kn-admin kn-cash-outs">
      <PageHead
        icon={<DollarOutlined aria-hidden />}
        title="Cash-outs"
        sub="Members' requests to cash out, the longest waiting first. The monthly payout pays a waiting request's balance and closes it."
      />
      <div className="kn-cash-outs__filters">
        <Segmented<Filter> aria-label="State" options={FILTERS} value={filter} onChange={setFilter} />
        <Input.Search aria-label="Search members" placeholder="Username or email" allowClear maxLength={100} onSearch={(text) => setSearch(text.trim())} />
      </div>
      {list.error && !list.items.length ? (
        <p className="kn-cash-outs__error" role="alert">
          {list.error.message}{' '}
          <button type="button" className="kn-retry" onClick={list.retry}>
            Try again
          </button>
        </p>
      ) : (
        <Table<Row>
          aria-label="Cash-out requests"
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.items}
          loading={list.status === 'loading'}
          pagination={false}
          rowClassName={(row) => (row.overdue ? 'kn-cash-outs__overdue' : '')}
          locale={{
            emptyText: <span className="kn-cash-outs__muted">{search || filter !== 'all' ? 'No cash-out requests match.' : 'No cash-out requests yet.'}</span>,
          }}
        />
      )}
      {list.hasMore ? (
        <Button className="kn-cash-outs__more" loading={list.loadingMore} onClick={list.loadMore}>
          Load more
        </Button>
      ) : null}
      <ApproveQuestion row={approving} onClose={() => setApproving(null)} />
      <DeclineModal row={declining} onClose={() => setDeclining(null)} />
      <RestoreQuestion row={restoring} onClose={() => setRestoring(null)} />
      <ResponsiveModal
        width={720}
        rootClassName="kn-member-history-modal"
        open={Boolean(historyOf)}
        title={historyOf ? `History of ${memberName(historyOf)}` : 'History'}
        footer={null}
        onCancel={() => setHistoryOf(null)}
        destroyOnHidden
      >
        {historyOf?.member ? (
          <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
            <MemberHistory userId={historyOf.member.id} />
          </Suspense>
        ) : null}
      </ResponsiveModal>
    </div>
  );
}
