import { useId, useState } from 'react';
import Segmented from 'antd/es/segmented';
import type { CachedError } from '../../../api/cache';
import { useGetEmbedHostEarningsQuery } from '../../../api/generated/endpoints';
import { formatUsd } from '../../../components/format';
import './embed-hosts.css';

export type HostsPeriod = 'week' | 'month';

const PERIODS: { value: HostsPeriod; label: string }[] = [
  { value: 'week', label: 'Past week' },
  { value: 'month', label: 'Past month' },
];

const PERIOD_WORDS: Record<HostsPeriod, string> = { week: 'the past week', month: 'the past month' };

/** Knack itself: knacks on Knack, and plays in players on Knack's pages or on pages that kept their address to themselves. */
const KNACK_ITSELF = 'Knack itself';

/**
 * "Where your embeds earn": the member's plays and earnings by the site whose page embedded the player, most earned
 * first, with the totals (every site counted; the table lists 20). Knack itself is a row too, so the sites' earnings
 * add up to what the period earned. The period is the caller's (the analytics modal's), or chosen here (the wallet).
 */
export function EmbedHostsTable({ userId, period: given, headingLevel = 2 }: { userId: string; period?: HostsPeriod; headingLevel?: 2 | 3 }) {
  const [chosen, setChosen] = useState<HostsPeriod>('week');
  const period = given ?? chosen;
  const figures = useGetEmbedHostEarningsQuery({ path: { id: userId }, query: { period } });
  const titleId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const data = figures.data;
  const failure = figures.error as CachedError | undefined;
  return (
    <section className="kn-hosts" aria-labelledby={titleId}>
      <div className="kn-hosts__head">
        <Heading id={titleId} className={headingLevel === 2 ? 'kn-section-title' : 'kn-earnings__subtitle'}>
          Where your embeds earn
        </Heading>
        {given ? null : <Segmented<HostsPeriod> aria-label="Period" options={PERIODS} value={chosen} onChange={setChosen} size="small" />}
      </div>
      <p className="kn-hosts__lead">
        Plays of your pieces in players embedded on other sites (one a visitor, piece and day), and what knacks earned you on each site, over{' '}
        {PERIOD_WORDS[period]}.
      </p>
      {failure ? (
        <p className="kn-hosts__empty">{failure.message}</p>
      ) : !data ? (
        <p className="kn-hosts__empty" aria-busy="true">
          Loading…
        </p>
      ) : !data.hosts.length ? (
        <p className="kn-hosts__empty">
          Nothing in {PERIOD_WORDS[period]} yet. Put a piece on your site with its Embed code (its Share button): the sites that play it show here.
        </p>
      ) : (
        <table className="kn-hosts__table" aria-labelledby={titleId} aria-busy={figures.isFetching}>
          <thead>
            <tr>
              <th scope="col">Site</th>
              <th scope="col">Plays</th>
              <th scope="col">Knacks</th>
              <th scope="col">Earned</th>
            </tr>
          </thead>
          <tbody>
            {data.hosts.map((row) => (
              <tr key={row.host ?? ''}>
                <th scope="row" className={row.host ? undefined : 'kn-hosts__knack'}>
                  {row.host ?? KNACK_ITSELF}
                </th>
                <td>{row.plays.toLocaleString('en-US')}</td>
                <td>{row.knacks.toLocaleString('en-US')}</td>
                <td>{formatUsd(row.earned)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{data.hostsCount > data.hosts.length ? `All ${data.hostsCount} sites` : 'Total'}</th>
              <td>{data.plays.toLocaleString('en-US')}</td>
              <td>{data.knacks.toLocaleString('en-US')}</td>
              <td>{formatUsd(data.earned)}</td>
            </tr>
          </tfoot>
        </table>
      )}
      {data?.countedAt ? (
        <p className="kn-hosts__note">
          {data.hosts.some((row) => row.host === null) ? `${KNACK_ITSELF}: knacks made on Knack, and plays on pages that did not tell their address. ` : ''}
          Counted at {new Date(data.countedAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}.
        </p>
      ) : null}
    </section>
  );
}
