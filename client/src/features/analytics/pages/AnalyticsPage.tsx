import { Link } from 'react-router-dom';
import Button from 'antd/es/button';
import Skeleton from 'antd/es/skeleton';
import LineChartOutlined from '@ant-design/icons/es/icons/LineChartOutlined';
import { useGetContentsByUsernameInfiniteQuery, useGetWalletSummaryQuery, useLazyGetListingForecastQuery } from '../../../api/generated/endpoints';
import type { GetContentsByUsernameResult } from '../../../api/generated/operations';
import { usePagedList } from '../../../api/pagedList';
import { PATHS } from '../../../lib/constants';
import { useAppSelector } from '../../../lib/storeHooks';
import type { Content } from '../../../lib/content';
import { selectUser } from '../../auth';
import { useHasKnownPlan } from '../../subscriptions';
import '../analytics.css';
import { PageHead } from '../../../components/PageHead';
import { formatUsd } from '../../../components/format';
import { EarningsAnalytics } from '../components/EarningsAnalytics';

const PAGE = 50;
const count = (value: number | null | undefined) => (value ?? 0).toLocaleString();
const piecesOf = (page: GetContentsByUsernameResult) => page.contents;

/**
 * The member's own pieces, a page at a time (newest first), with More to load the next: null until the first page
 * is in (a first page that could not be loaded shows none; the error toast says why).
 */
function useOwnPieces(username: string | undefined) {
  const list = usePagedList(
    useGetContentsByUsernameInfiniteQuery({ path: { username: username ?? '' }, query: { limit: PAGE } }, { skip: !username }),
    piecesOf,
  );
  const pieces: Content[] | null = list.status === 'ready' ? list.items : list.status === 'failed' ? [] : null;
  return { pieces, more: list.hasMore ? list.loadMore : null, busy: list.loadingMore };
}

/**
 * "No", and on demand when its listing fee would pay back (the forecast the listing offer shows): asked only when
 * the member wants it, so a page of pieces costs no forecast reads.
 */
function ForecastCell({ contentId, title }: { contentId: string; title: string }) {
  const [ask, forecast] = useLazyGetListingForecastQuery();
  if (forecast.data) return <span className="kn-analytics__forecast">No. {forecast.data.message}</span>;
  return (
    <span>
      No ·{' '}
      <button
        type="button"
        className="kn-retry"
        aria-label={`When would listing “${title}” pay back?`}
        disabled={forecast.isFetching}
        onClick={() => void ask({ path: { id: contentId } })}
      >
        When would it pay back?
      </button>
    </span>
  );
}

/**
 * `/analytics`, for members on a plan: what the member's pieces earned in value (uploads, collection, total), the
 * earnings charts of the analytics modal, and per piece its knacks (plays of a song, views of art and photos), plays from embeds, what one knack is worth,
 * and whether it is listed. A member without a plan is told where analytics come from.
 */
export default function AnalyticsPage() {
  const user = useAppSelector(selectUser)!;
  const onPlan = useHasKnownPlan();
  const wallet = useGetWalletSummaryQuery({ path: { id: user.id } });
  const { pieces, more, busy } = useOwnPieces(onPlan ? user.username : undefined);

  if (onPlan === undefined) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (!onPlan) {
    return (
      <div className="kn-analytics">
        <PageHead icon={<LineChartOutlined aria-hidden />} title="Analytics" />
        <p>
          Analytics come with a plan. <Link to={PATHS.pricing}>See the plans</Link>.
        </p>
      </div>
    );
  }

  const totals = (pieces ?? []).reduce((sum, piece) => ({ knacks: sum.knacks + (piece.reactedCount ?? 0), plays: sum.plays + (piece.playCount ?? 0) }), {
    knacks: 0,
    plays: 0,
  });
  return (
    <div className="kn-analytics">
      <PageHead icon={<LineChartOutlined aria-hidden />} title="Analytics" sub="What your pieces have done so far." />
      <dl className="kn-analytics__figures" aria-label="Value">
        {[
          ['Uploads', wallet.data?.uploads],
          ['Collections', wallet.data?.collections],
          ['Total value', wallet.data?.totalValue],
        ].map(([label, value]) => (
          <div key={label as string}>
            <dt>{label}</dt>
            <dd>{value === undefined ? '…' : formatUsd(value as number)}</dd>
          </div>
        ))}
      </dl>
      <section className="kn-analytics__charts" aria-label="Earnings analytics">
        <EarningsAnalytics userId={user.id} />
      </section>
      {!pieces ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : pieces.length === 0 ? (
        <p>You have not uploaded a piece yet.</p>
      ) : (
        <div className="kn-analytics__scroll">
          <table className="kn-analytics__table">
            <caption>Your pieces</caption>
            <thead>
              <tr>
                <th scope="col">Piece</th>
                <th scope="col">Knacks</th>
                <th scope="col">Embed plays</th>
                <th scope="col">One knack</th>
                <th scope="col">Listed</th>
              </tr>
            </thead>
            <tbody>
              {pieces.map((piece) => (
                <tr key={piece.id}>
                  <th scope="row">
                    <Link to={piece.link}>{piece.title}</Link>
                    <span className="kn-analytics__type">{piece.type}</span>
                  </th>
                  <td>{count(piece.reactedCount)}</td>
                  <td>{count(piece.playCount)}</td>
                  <td>{formatUsd(piece.knackRate)}</td>
                  <td>{piece.isPaidOut ? 'Yes' : <ForecastCell contentId={piece.id} title={piece.title} />}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">All {more ? 'shown' : 'pieces'}</th>
                <td>{totals.knacks.toLocaleString()}</td>
                <td>{totals.plays.toLocaleString()}</td>
                <td />
                <td />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
      {more ? (
        <Button onClick={more} loading={busy}>
          More pieces
        </Button>
      ) : null}
    </div>
  );
}
