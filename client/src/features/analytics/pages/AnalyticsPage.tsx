import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import Button from 'antd/es/button';
import Skeleton from 'antd/es/skeleton';
import LineChartOutlined from '@ant-design/icons/es/icons/LineChartOutlined';
import { getContentsByUsername } from '../../../api/generated/operations';
import { useGetWalletSummary } from '../../../api/generated/hooks';
import { toApiError } from '../../../api/http';
import { PATHS } from '../../../lib/constants';
import { useAppSelector } from '../../../lib/storeHooks';
import type { Content } from '../../../lib/content';
import { notify } from '../../../components/notify';
import { selectHasKnownPlan, selectUser } from '../../auth';
import '../analytics.css';
import { PageHead } from '../../../components/PageHead';
import { formatUsd } from '../../../components/format';

const PAGE = 50;
const count = (value: number | null | undefined) => (value ?? 0).toLocaleString();

/** The member's own pieces, a page at a time (newest first), with More to load the next. */
function useOwnPieces(username: string | undefined) {
  const [pieces, setPieces] = useState<Content[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = async (after: string | null) => {
    if (!username) return;
    setBusy(true);
    try {
      const page = await getContentsByUsername({ path: { username }, query: { limit: PAGE, ...(after && { cursor: after }) } }, { quiet: true });
      setPieces((before) => [...(after ? (before ?? []) : []), ...page.contents]);
      setCursor(page.nextCursor);
    } catch (error) {
      notify('error', toApiError(error).message);
      setPieces((before) => before ?? []);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    void load(null);
    // Loaded again only for another member.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [username]);

  return { pieces, more: cursor ? () => void load(cursor) : null, busy };
}

/**
 * `/analytics`, for members on a plan: what the member's pieces earned in value (uploads, collection, total),
 * and per piece its knacks (plays of a song, views of art and photos), plays from embeds, what one knack is worth,
 * and whether it is listed. A member without a plan is told where analytics come from.
 */
export default function AnalyticsPage() {
  const user = useAppSelector(selectUser)!;
  const onPlan = useAppSelector(selectHasKnownPlan);
  const wallet = useGetWalletSummary({ path: { id: user.id } });
  const { pieces, more, busy } = useOwnPieces(onPlan ? user.username : undefined);

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
                  <td>{piece.isPaidOut ? 'Yes' : 'No'}</td>
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
