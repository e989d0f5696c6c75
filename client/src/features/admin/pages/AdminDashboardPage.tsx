import { Link } from 'react-router-dom';
import Skeleton from 'antd/es/skeleton';
import DashboardOutlined from '@ant-design/icons/es/icons/DashboardOutlined';
import type { CachedError } from '../../../api/cache';
import { useGetAdminDashboardQuery } from '../../../api/generated/endpoints';
import type { GetAdminDashboardResult } from '../../../api/generated/operations';
import { PageHead } from '../../../components/PageHead';
import { formatTimeAgo, formatUsd } from '../../../components/format';
import '../admin.css';

type Figures = GetAdminDashboardResult['today'];
type EventDay = GetAdminDashboardResult['productEvents'][number];

const usd = (micros: number) => formatUsd(micros / 1_000_000);
const count = (value: number, more = false) => `${value.toLocaleString('en-US')}${more ? '+' : ''}`;

/** The figures a period shows, in order: what each is called and how it reads. */
const FIGURES: { label: string; value: (figures: Figures) => string }[] = [
  { label: 'New members', value: (f) => count(f.members) },
  { label: 'New pieces', value: (f) => count(f.pieces) },
  { label: 'Knacks', value: (f) => count(f.knacks) },
  { label: 'Knack value paid', value: (f) => usd(f.knackValueMicros) },
  { label: 'Listing fees in', value: (f) => usd(f.listingFeesMicros) },
  { label: 'Listings', value: (f) => count(f.listings) },
  { label: 'Payouts', value: (f) => `${usd(f.payoutsMicros)} (${count(f.payouts)})` },
];

function Period({ id, title, figures }: { id: string; title: string; figures: Figures }) {
  return (
    <section className="kn-admin__card" aria-labelledby={id}>
      <h2 id={id} className="kn-section-title">
        {title}
      </h2>
      <dl className="kn-admin__figures">
        {FIGURES.map(({ label, value }) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value(figures)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The product events, in the order the table lists them, each with the words its row reads. */
const EVENT_ROWS: { name: keyof EventDay['counts']; label: string }[] = [
  { name: 'login', label: 'Sign-ins' },
  { name: 'signup', label: 'Sign-ups' },
  { name: 'forgot_password', label: 'Password reset mails' },
  { name: 'reset_password', label: 'Passwords reset' },
  { name: 'post_content', label: 'Pieces posted' },
  { name: 'play', label: 'Plays' },
  { name: 'knack', label: 'Knacks' },
  { name: 'follow', label: 'Follows' },
  { name: 'comment', label: 'Comments' },
];

/** `2026-11-27` as `Nov 27`: the UTC day the server counted, whatever the admin's own time zone. */
const dayLabel = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * Each product event per day, the week's oldest day first: rows are events, columns days. Where the week is wider than
 * the screen (a phone, a tablet), the table scrolls sideways and opens on its last days, today's the last, the ones
 * read first; the event names stay in view, and the keyboard scrolls it too.
 */
function ProductEvents({ days }: { days: EventDay[] }) {
  return (
    <section className="kn-admin__card" aria-labelledby="kn-admin-events">
      <h2 id="kn-admin-events" className="kn-section-title">
        Product events
      </h2>
      <div className="kn-admin__table-scroll" tabIndex={0} role="region" aria-label="Product events by day">
        <table className="kn-admin__events">
          <caption className="kn-visually-hidden">Product events, last 7 days (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              {days.map(({ day }) => (
                <th key={day} scope="col">
                  {dayLabel(day)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {EVENT_ROWS.map(({ name, label }) => (
              <tr key={name}>
                <th scope="row">{label}</th>
                {days.map(({ day, counts }) => (
                  <td key={day}>{count(counts[name])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Dashboard({ data }: { data: GetAdminDashboardResult }) {
  const { openFlags, waitingCashOuts, waitingMails } = data;
  return (
    <>
      <p className="kn-admin__as-of">
        {data.asOf
          ? `As of ${new Date(data.asOf).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })} (figures are counted every 5 minutes, in UTC days).`
          : 'Not counted yet: the figures are counted every 5 minutes.'}
      </p>
      <div className="kn-admin__periods">
        <Period id="kn-admin-today" title="Today" figures={data.today} />
        <Period id="kn-admin-month" title="This month" figures={data.month} />
      </div>
      <div className="kn-admin__periods">
        <section className="kn-admin__card" aria-labelledby="kn-admin-flags">
          <h2 id="kn-admin-flags" className="kn-section-title">
            Open flags
          </h2>
          <p className="kn-admin__big">{count(openFlags.flags, openFlags.more)}</p>
          <p className="kn-page-sub">on {count(openFlags.pieces)} pieces</p>
        </section>
        <section className="kn-admin__card" aria-labelledby="kn-admin-cash-outs">
          <h2 id="kn-admin-cash-outs" className="kn-section-title">
            Waiting cash-outs
          </h2>
          <p className="kn-admin__big">{count(waitingCashOuts.count, waitingCashOuts.more)}</p>
          {waitingCashOuts.oldest.length ? (
            <ul className="kn-admin__waiting" aria-label="Waiting longest">
              {waitingCashOuts.oldest.map((request) => (
                <li key={request.id} className={request.overdue ? 'is-overdue' : undefined}>
                  <span>{usd(request.amountMicros)}</span>
                  <span>asked {formatTimeAgo(request.at)}</span>
                  {request.overdue ? <strong className="kn-admin__overdue">Waiting over 7 days</strong> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="kn-page-sub">Nothing is waiting.</p>
          )}
        </section>
        <section className="kn-admin__card" aria-labelledby="kn-admin-mail">
          <h2 id="kn-admin-mail" className="kn-section-title">
            Mail waiting to be sent
          </h2>
          <p className="kn-admin__big">{count(waitingMails.count)}</p>
          <p className="kn-page-sub">
            {waitingMails.oldestAt
              ? `The mail server has not taken them yet; the oldest was written ${formatTimeAgo(waitingMails.oldestAt)}. Each is tried again until it goes.`
              : 'Every mail went out.'}
          </p>
          {waitingMails.failed ? (
            <p>
              <strong className="kn-admin__overdue">{`${count(waitingMails.failed)} given up on after 3 days`}</strong>
            </p>
          ) : null}
        </section>
      </div>
      <ProductEvents days={data.productEvents} />
      <p>
        <Link to="/admin/pieces">Manage pieces</Link>
      </p>
    </>
  );
}

/**
 * `/admin`: the admin area's dashboard: today and this month, open flags, waiting cash-outs (the oldest first), the mail
 * the mail server has not taken yet, the week's product events.
 */
export default function AdminDashboardPage() {
  const dashboard = useGetAdminDashboardQuery({ quiet: 'the page shows the failure in place of the figures' });
  return (
    <div className="kn-admin">
      <PageHead icon={<DashboardOutlined aria-hidden />} title="Dashboard" />
      {dashboard.error ? (
        <p role="alert">
          {(dashboard.error as CachedError).message}{' '}
          <button type="button" className="kn-retry" onClick={() => void dashboard.refetch()}>
            Try again
          </button>
        </p>
      ) : dashboard.data ? (
        <Dashboard data={dashboard.data} />
      ) : (
        <Skeleton active paragraph={{ rows: 6 }} />
      )}
    </div>
  );
}
